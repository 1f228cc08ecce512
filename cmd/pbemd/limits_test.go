package main

import (
	"fmt"
	"strings"
	"testing"
)

// Every pbemd deliver is a new process: the lock on an account's wrong
// passwords is kept in the data, so the processes share it.
func TestDeliverSharesPasswordLock(t *testing.T) {
	t.Parallel()
	d := &deliverer{t: t, data: t.TempDir()}
	if code, out := d.send("alice@example.org", "signup alice secret", ""); code != 0 || len(out) != 1 {
		t.Fatalf("signup: exit %d, %+v", code, out)
	}
	wrong := 0
	for i := 0; i < 12; i++ {
		from := fmt.Sprintf("guesser%d@example.net", i)
		code, out := d.pipe(forgedMail(from, fmt.Sprintf("vacation alice guess%d 3", i), fmt.Sprintf("g%d", i)))
		if code != 0 {
			t.Fatalf("guess %d: exit %d", i, code)
		}
		switch {
		case i < 10 && len(out) == 1 && out[0].To == from && strings.HasPrefix(out[0].Body, "The password for alice is wrong"):
			wrong++
		case i == 10 && len(out) == 1 && out[0].To == "alice@example.org" && out[0].Subject == "pbemd: password checks of alice locked":
		case i == 11 && len(out) == 0:
		default:
			t.Errorf("guess %d: %+v", i, out)
		}
	}
	if wrong != 10 {
		t.Errorf("%d wrong-password replies; want 10", wrong)
	}
	if _, out := d.pipe(forgedMail("alice@example.org", "vacation alice secret 3", "forged")); len(out) != 0 {
		t.Errorf("the right password in mail that proves nothing, during the lock: %+v", out)
	}
	// Alice's own authenticated mail still gets through.
	if _, out := d.send("alice@example.org", "vacation alice secret 3", ""); len(out) != 1 {
		t.Errorf("alice's authenticated mail during the lock: %+v", out)
	}
}

// forgedMail is a mail nobody vouches for: anyone may have written it.
func forgedMail(from, subject, id string) []byte {
	return []byte(fmt.Sprintf("From: %s\nTo: pbem@localhost\nSubject: %s\nMessage-ID: <%s@client.example>\n\n\n", from, subject, id))
}
