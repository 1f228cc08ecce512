package mailmsg

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readFixture reads a report of pbem/testdata/bounces with the return
// path in place.
func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "bounces", name))
	if err != nil {
		t.Fatal(err)
	}
	return []byte(strings.ReplaceAll(string(raw), "RETURNPATH", "pbem+b.20419.abcdefghijklmnop@pbem.example.org"))
}

// Each server's report names the dead address, and says whether the
// failure is for good, as the server wrote it.
func TestReadBounce(t *testing.T) {
	for _, c := range []struct {
		file      string
		status    string
		permanent bool
	}{
		{"postfix.eml", "5.1.1", true},
		{"exim.eml", "", true},
		{"exim-dsn.eml", "5.0.0", true},
		{"gmail.eml", "5.1.1", true},
		{"exchange.eml", "5.1.10", true},
		{"qmail.eml", "", true},
		{"postfix-delay.eml", "", false},
	} {
		t.Run(c.file, func(t *testing.T) {
			b := ReadBounce(readFixture(t, c.file))
			if !c.permanent && b == nil {
				return // a delay is no failure at all
			}
			if b == nil || len(b.Failures) != 1 {
				t.Fatalf("ReadBounce = %+v, want one failure of dead@example.net", b)
			}
			f := b.Failures[0]
			if f.Recipient != "dead@example.net" || f.Permanent != c.permanent || f.Status != c.status {
				t.Errorf("failure %+v, want dead@example.net, status %q, permanent %v", f, c.status, c.permanent)
			}
		})
	}
}

// An auto-reply to the return path, a command mail, and a report whose
// addresses are not addresses are no failures; a report of many
// recipients yields MaxFailures at most, and a huge one is read only
// to MaxBounceBytes.
func TestReadBounceHostile(t *testing.T) {
	if b := ReadBounce(readFixture(t, "autoreply.eml")); b != nil {
		t.Errorf("an out-of-office reply read as %+v", b)
	}
	if b := ReadBounce([]byte("From: alice@example.org\r\nSubject: ultima move 101 alice pw e2-e4\r\n\r\nThe following address failed:\r\n\r\n  bob@example.org\r\n")); b != nil && b.Failures[0].Permanent {
		t.Errorf("a player's mail quoting a report read as a hard bounce: %+v", b)
	}
	var many strings.Builder
	many.WriteString("From: MAILER-DAEMON@example.net\r\nX-Failed-Recipients: ")
	for i := range 1000 {
		if i > 0 {
			many.WriteString(", ")
		}
		many.WriteString("user" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + "@example.net")
	}
	many.WriteString(", not an address, <evil@example.net>\r\n\r\nfailed\r\n")
	if b := ReadBounce([]byte(many.String())); b == nil || len(b.Failures) != MaxFailures {
		t.Errorf("a report of 1000 recipients: %d failures, want %d", len(b.Failures), MaxFailures)
	}
	huge := "From: MAILER-DAEMON@example.net\r\nSubject: failure\r\n\r\n" + strings.Repeat("x", 2*MaxBounceBytes) +
		"\r\nThis is a permanent error. The following address(es) failed:\r\n\r\n  dead@example.net\r\n"
	if b := ReadBounce([]byte(huge)); b != nil {
		t.Errorf("a failure past MaxBounceBytes was read: %+v", b)
	}
}
