// Package pbemtest is what the tests of the service and of the rooms
// beside it share: mails as a player's client writes them, the trusted
// mail server that vouches for their senders (docs/trust.md), and the one
// service harness (Harness: a fixed clock, numbered Message-IDs, a mail in
// and its replies out, players signed up).
package pbemtest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/mailauth"
	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
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

// Sent is one mail taken from the outbox as its recipient's client reads
// it: a mail kept once for many (store.Outgoing.ToAt) is each one's copy.
type Sent struct {
	To, Subject, Body string
	InReplyTo         string
	References        []string
	Raw               []byte
}

// TakeOutbox takes every mail due by now out of db's outbox, as the sender
// that delivered them would, and returns them in the outbox's order, a
// mail in copies as one Sent per recipient. It fails t on a mail the
// service should never write: unreadable, or addressed to more than one
// (every reply goes to one, never Cc).
func TakeOutbox(t testing.TB, db *store.DB, now time.Time) []Sent {
	t.Helper()
	pending, err := db.Pending(now, 0, 10000)
	if err != nil {
		t.Fatal(err)
	}
	var out []Sent
	for _, p := range pending {
		out = append(out, copies(t, p)...)
		if err := db.Sent(p.ID); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// copies reads an outbox mail as its recipients get it: a mail in copies
// (ToAt) as each one's copy, which must name him alone.
func copies(t testing.TB, p store.Outgoing) []Sent {
	t.Helper()
	if p.ToAt == 0 && len(p.To) != 1 {
		t.Fatalf("reply %d has %d recipients; every reply goes to one", p.ID, len(p.To))
	}
	var out []Sent
	for _, to := range p.To {
		raw := p.Data
		if p.ToAt > 0 {
			var err error
			if raw, err = mailmsg.Copy(p.Data, p.ToAt, to); err != nil {
				t.Fatalf("reply %d to %s: %v", p.ID, to, err)
			}
		}
		m, err := mailmsg.ReadMail(raw)
		if err != nil {
			t.Fatalf("reply %d unreadable: %v", p.ID, err)
		}
		if got := m.Header["To"]; len(got) != 1 || strings.Contains(got[0], ",") || len(m.Header["Cc"]) > 0 {
			t.Fatalf("reply %q to %s is addressed To %q Cc %q; want him alone", m.Subject, to, got, m.Header["Cc"])
		}
		out = append(out, Sent{To: to, Subject: m.Subject, Body: m.Text, InReplyTo: m.InReplyTo, References: m.References, Raw: raw})
	}
	return out
}

// EachBoard calls fn with every board of every game of the catalog, in
// the catalog's order and then by number, and stops at its first error.
func EachBoard(tx *store.Tx, fn func(g rules.Game, rec *store.Game) error) error {
	for _, g := range catalog.All() {
		if err := tx.Games(g.Name(), func(rec *store.Game) error { return fn(g, rec) }); err != nil {
			return err
		}
	}
	return nil
}
