package outbox

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/store"
)

// Print writes the mails asked for as an mboxrd, escaping "From " lines,
// and takes them out of the outbox; other mails stay queued.
func TestPrint(t *testing.T) {
	t.Parallel()
	db := openStore(t)
	bodies := []string{"Subject: one\r\n\r\nFrom the start\r\n>From quoted\r\nlast line", "Subject: two\r\n\r\nboard\r\n"}
	var ids []uint64
	err := db.Update(func(tx *store.Tx) error {
		for _, b := range append(bodies, "Subject: not asked for\r\n\r\n") {
			m := &store.Outgoing{From: "pbem@localhost", To: []string{"a@localhost"}, Data: []byte(b), Queued: time.Now()}
			if err := tx.Enqueue(m); err != nil {
				return err
			}
			ids = append(ids, m.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Print(db, ids[:2], &out); err != nil {
		t.Fatal(err)
	}
	msgs := strings.Split(out.String(), "\nFrom pbem@localhost ")
	if len(msgs) != 2 || !strings.HasPrefix(out.String(), "From pbem@localhost ") {
		t.Fatalf("want 2 messages, each after a From line:\n%s", out.String())
	}
	for _, want := range []string{"\nSubject: one\n\n>From the start\n>>From quoted\nlast line\n\n", "\nSubject: two\n\nboard\n\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("mbox lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "\r") || strings.Contains(out.String(), "not asked for") {
		t.Errorf("mbox has CRs or a mail not asked for:\n%s", out.String())
	}
	if n := outboxLen(t, db); n != 1 {
		t.Errorf("outbox holds %d; want only the mail not printed", n)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// A failed write keeps the mails queued and reports the error.
func TestPrintFailure(t *testing.T) {
	t.Parallel()
	db := openStore(t)
	enqueue(t, db, 2)
	if err := Print(db, []uint64{1, 2}, failingWriter{}); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Print = %v; want the write error", err)
	}
	if n := outboxLen(t, db); n != 2 {
		t.Errorf("outbox holds %d; want both mails kept", n)
	}
}
