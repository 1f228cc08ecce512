package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/pbem/pbemtest"
)

// TestDeliverReplyAddress: pbemd deliver takes reply_address from the
// configuration: board mails to players carry it with their token, and a
// reply sent to it is played.
func TestDeliverReplyAddress(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfgFile := filepath.Join(dir, "pbemd.yaml")
	cfg := fmt.Sprintf("address: games@example.org\ndata: %s\nreply_address: 'games+{token}@example.org'\n"+
		"imap:\n  host: 127.0.0.1\n  security: plain\n  username: pbem\n  password: x\n"+
		"smtp:\n  host: 127.0.0.1\n  security: plain\ntrusted_authserv_ids: [%s]\n", filepath.Join(dir, "data"), pbemtest.Authserv)
	if err := os.WriteFile(cfgFile, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	deliver := func(n int, from, to, subject, body string) string {
		t.Helper()
		raw := pbemtest.Vouch(from, fmt.Appendf(nil, "From: %s\nTo: %s\nSubject: %s\nMessage-ID: <r%d@client.example>\n\n%s\n", from, to, subject, n, body))
		code, stdout, stderr := pbemd(t, string(raw), "deliver", "-config", cfgFile, "-print")
		if code != 0 {
			t.Fatalf("%s: exit %d, %s", subject, code, stderr)
		}
		return stdout
	}
	deliver(1, "alice@example.org", "games@example.org", "signup alice secret-a", "")
	deliver(2, "bob@example.org", "games@example.org", "signup bob secret-b", "")
	out := deliver(3, "alice@example.org", "games@example.org", "ultima challenge alice bob", "")
	m := regexp.MustCompile(`(?m)^Reply-To: (games\+[a-z2-7]{26}@example\.org)\r?$`).FindAllStringSubmatch(out, -1)
	if len(m) != 2 {
		t.Fatalf("want a Reply-To with a token in each player's board mail:\n%s", out)
	}
	// The first board mail is alice's: she moves first.
	out = deliver(4, "alice@example.org", m[0][1], "Re: New Ultima Board 101 alice", "e2-e5\n\n> Summary of Ultima Board 101")
	if !strings.Contains(out, "Subject: Ultima Board 101 bob") || !strings.Contains(out, "alice played Pe2-e5.") {
		t.Errorf("the reply to the Reply-To address was not played:\n%s", out)
	}
	if strings.Contains(out, "secret-a") {
		t.Errorf("a password in the replies")
	}
}
