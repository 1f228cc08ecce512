package outbox

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"
	"github.com/pbemd/pbemd/pbem/mailauth"
	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/tests/smtpsink"
)

// Options.Stamp sets each recipient's SMTP MAIL FROM and puts its fields
// on top of his copy alone, for a single mail and for each copy of a
// mail in copies; a stamp that fails sends nothing, and the mail waits.
func TestStampSetsEnvelopeSender(t *testing.T) {
	db := openStore(t)
	sink := startSink(t, smtpsink.Options{})
	single := []byte("From: pbem@localhost\r\nTo: one@localhost\r\nSubject: reply\r\n\r\nbody\r\n")
	if err := db.Update(func(tx *store.Tx) error {
		return tx.Enqueue(&store.Outgoing{From: "pbem@localhost", To: []string{"one@localhost"}, Data: single, Queued: time.Now()})
	}); err != nil {
		t.Fatal(err)
	}
	enqueueCopies(t, db, "a@localhost", "b@localhost")
	stamp := func(m *store.Outgoing, to string) (string, []string, error) {
		return "pbem+b." + strings.TrimSuffix(to, "@localhost") + "@localhost", []string{"List-Unsubscribe", "<mailto:u." + to + ">"}, nil
	}
	s := New(db, &SMTP{Addr: sink.Addr, Security: mailconn.Plain}, Options{Logger: quiet, Stamp: stamp})
	if n := s.Drain(context.Background()); n != 3 {
		t.Fatalf("Drain sent %d; want 3", n)
	}
	for _, m := range sink.Messages() {
		to := m.To[0]
		if want := "pbem+b." + strings.TrimSuffix(to, "@localhost") + "@localhost"; m.From != want {
			t.Errorf("MAIL FROM of the mail to %s: %q, want %q", to, m.From, want)
		}
		if !bytes.HasPrefix(m.Data, []byte("List-Unsubscribe: <mailto:u."+to+">\r\n")) || bytes.Count(m.Data, []byte("List-Unsubscribe")) != 1 {
			t.Errorf("the copy to %s does not carry its own List-Unsubscribe alone:\n%s", to, m.Data)
		}
	}

	// A stamp that fails: the mail is not sent, and waits in the outbox.
	enqueueCopies(t, db, "c@localhost")
	s = New(db, &SMTP{Addr: sink.Addr, Security: mailconn.Plain}, Options{Logger: quiet,
		Stamp: func(*store.Outgoing, string) (string, []string, error) { return "", nil, errors.New("no key") }})
	if n := s.Drain(context.Background()); n != 0 || len(sink.Messages()) != 3 || outboxLen(t, db) != 1 {
		t.Fatalf("with a failing stamp: sent %d, sink holds %d, outbox %d; want the mail kept", n, len(sink.Messages()), outboxLen(t, db))
	}
}

// A signing transport signs the copy as stamped: the DKIM signature covers
// List-Unsubscribe and List-Unsubscribe-Post, as RFC 8058 asks for the
// one click to be offered, and verifies.
func TestStampedCopySigned(t *testing.T) {
	db := openStore(t)
	sink := startSink(t, smtpsink.Options{})
	enqueueCopies(t, db, "a@localhost")
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer := &mailauth.Signer{Domain: "localhost", Selector: "s1", Key: key}
	record, err := signer.Record()
	if err != nil {
		t.Fatal(err)
	}
	stamp := func(m *store.Outgoing, to string) (string, []string, error) {
		return "pbem+b.x@localhost", []string{"List-Unsubscribe", "<https://pbem.example.org/unsubscribe/t>",
			"List-Unsubscribe-Post", "List-Unsubscribe=One-Click"}, nil
	}
	tr := Signed{Transport: &SMTP{Addr: sink.Addr, Security: mailconn.Plain}, Sign: signer.Sign}
	if n := New(db, tr, Options{Logger: quiet, Stamp: stamp}).Drain(context.Background()); n != 1 {
		t.Fatalf("Drain sent %d; want 1", n)
	}
	msg := sink.Messages()[0]
	verifications, err := dkim.VerifyWithOptions(bytes.NewReader(msg.Data), &dkim.VerifyOptions{
		LookupTXT: func(string) ([]string, error) { return []string{record}, nil }})
	if err != nil || len(verifications) != 1 || verifications[0].Err != nil {
		t.Fatalf("verifying the copy: %v %+v\n%s", err, verifications, msg.Data)
	}
	signed := strings.ToLower(strings.Join(verifications[0].HeaderKeys, ":"))
	for _, f := range []string{"list-unsubscribe", "list-unsubscribe-post"} {
		if !strings.Contains(":"+signed+":", ":"+f+":") {
			t.Errorf("the signature covers %s, not %s", signed, f)
		}
	}
}
