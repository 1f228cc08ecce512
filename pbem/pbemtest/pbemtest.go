// Package pbemtest is what the tests of the service and of the rooms
// beside it share: mails as a player's client writes them, and the trusted
// mail server that vouches for their senders (docs/trust.md).
package pbemtest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/mailauth"
	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/store"
)

// Authserv is the authserv-id of the tests' trusted mail server: the
// configurations of the black-box tests list it in trusted_authserv_ids.
const Authserv = "mx.example.org"

// Auth is the Verifier of a service that trusts the tests' mail server.
func Auth() *mailauth.Verifier { return &mailauth.Verifier{TrustedIDs: []string{Authserv}} }

// Vouch puts on raw the trusted server's DMARC pass for the domain of
// from, as a provider that signs its mail gets from the operator's MTA.
func Vouch(from string, raw []byte) []byte { return VouchBy(Authserv, from, raw) }

// VouchBy puts on raw the field by which the mail server of authserv-id id
// reports a DMARC pass for the domain of from.
func VouchBy(id, from string, raw []byte) []byte {
	_, domain, _ := strings.Cut(from, "@")
	domain = strings.TrimRight(domain, ">")
	return append([]byte("Authentication-Results: "+id+"; dmarc=pass header.from="+domain+"\r\n"), raw...)
}

// Forged is a plain mail with its own Message-ID and nobody vouching for
// its From: anyone may have written it.
func Forged(from, subject, body, messageID string) []byte {
	return []byte(fmt.Sprintf("From: %s\r\nTo: pbem@example.org\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: Sun, 22 Nov 2026 12:00:00 +0000\r\n\r\n%s\r\n",
		from, subject, messageID, strings.ReplaceAll(body, "\n", "\r\n")))
}

// Mail is Forged vouched for: a player's own mail from a signing provider.
func Mail(from, subject, body, messageID string) []byte {
	return Vouch(from, Forged(from, subject, body, messageID))
}

// Sent is one mail taken from the outbox: its recipients, subject and text.
type Sent struct{ To, Subject, Body string }

// TakeOutbox takes every mail due by now out of db's outbox, as the sender
// that delivered them would, and returns them in the outbox's order.
func TakeOutbox(t testing.TB, db *store.DB, now time.Time) []Sent {
	t.Helper()
	pending, err := db.Pending(now, 0, 10000)
	if err != nil {
		t.Fatal(err)
	}
	var out []Sent
	for _, p := range pending {
		m, err := mailmsg.ReadMail(p.Data)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Sent{strings.Join(p.To, ","), m.Subject, m.Text})
		if err := db.Sent(p.ID); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
