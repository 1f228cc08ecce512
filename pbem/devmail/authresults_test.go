package devmail

import (
	"strings"
	"testing"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/pbemd/pbemd/pbem/mailauth"
	"github.com/pbemd/pbemd/tests/imaptest"
)

// submit sends data to pbem@localhost over SMTP, first logging in with
// identity, user and password unless user is empty.
func submit(t *testing.T, s *Server, identity, user, password, data string) {
	t.Helper()
	c, err := smtp.Dial(s.SMTPAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if user != "" {
		if err := c.Auth(sasl.NewPlainClient(identity, user, password)); err != nil {
			t.Logf("login as %s refused: %v", user, err)
		}
	}
	if err := c.SendMail("x@localhost", []string{"pbem@localhost"}, strings.NewReader(data)); err != nil {
		t.Fatal(err)
	}
}

// The game server trusts the embedded server's field: only a sender
// logged in as the From address is vouched for, and a field a mail brings
// with the server's id does not survive.
func TestLoggedInSenderIsVouchedFor(t *testing.T) {
	t.Parallel()
	forged := mailauth.SubmittedField(AuthservID, "alice@localhost")
	cases := []struct {
		name, identity, user, password, mail string
		want                                 bool
	}{
		{"logged in as the From", "", "alice@localhost", DefaultPassword, "From: Alice <alice@localhost>\r\n", true},
		{"logged in, capitals", "", "Alice@LOCALHOST", DefaultPassword, "From: alice@localhost\r\n", true},
		{"logged in, identity the same", "alice@localhost", "alice@localhost", DefaultPassword, "From: alice@localhost\r\n", true},
		{"no login", "", "", "", "From: alice@localhost\r\n", false},
		{"no login, forged field", "", "", "", forged + "From: alice@localhost\r\n", false},
		{"logged in as another", "", "mallory@localhost", DefaultPassword, "From: alice@localhost\r\n", false},
		{"logged in as another, forged field", "", "mallory@localhost", DefaultPassword, "From: alice@localhost\r\n" + forged, false},
		{"login refused", "", "alice@localhost", "wrong", "From: alice@localhost\r\n", false},
		{"acting for another", "alice@localhost", "mallory@localhost", DefaultPassword, "From: alice@localhost\r\n", false},
		{"two From addresses", "", "alice@localhost", DefaultPassword, "From: alice@localhost, bob@localhost\r\n", false},
	}
	s := start(t)
	s.AddAccount("pbem@localhost", "own-secret")
	v := &mailauth.Verifier{TrustedIDs: []string{AuthservID}}
	for i, c := range cases {
		submit(t, s, c.identity, c.user, c.password, c.mail+"Subject: help\r\n\r\nhi\r\n")
		msgs, err := imaptest.Read(s.IMAPAddr, "pbem@localhost", "own-secret", "INBOX")
		if err != nil || len(msgs) != i+1 {
			t.Fatalf("%s: %d mails, %v; want %d", c.name, len(msgs), err, i+1)
		}
		got := msgs[i].Data
		if r := v.Check(got); r.Authenticated != c.want {
			t.Errorf("%s: authenticated %v (%s); want %v:\n%s", c.name, r.Authenticated, r.How, c.want, got)
		}
		if n := strings.Count(string(got), "Authentication-Results: "+AuthservID); n > 1 || (n == 1) != c.want {
			t.Errorf("%s: %d fields of the server's id; want %v:\n%s", c.name, n, c.want, got)
		}
	}
}
