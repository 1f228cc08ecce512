package store

import (
	"errors"
	"testing"
	"time"
)

// Mails sent leave the outbox with the next transaction that commits,
// without a commit of their own; meanwhile Pending and OutboxLen pass over
// them. A transaction that fails takes none out. With no transaction
// coming, they leave within sentDelay; with Close, at once.
func TestSentSoon(t *testing.T) {
	old := sentDelay
	sentDelay = time.Hour
	t.Cleanup(func() { sentDelay = old })
	db := openTest(t)
	var ids []uint64
	for range 4 {
		m := &Outgoing{From: "pbem@example.org", To: []string{"alice@example.org"}, Data: []byte("Subject: x\r\n\r\nx\r\n")}
		update(t, db, func(tx *Tx) error { return tx.Enqueue(m) })
		ids = append(ids, m.ID)
	}
	stored := func(id uint64) bool {
		var found bool
		db.View(func(tx *Tx) error {
			_, err := tx.Outgoing(id)
			found = err == nil
			return nil
		})
		return found
	}
	due := func() []uint64 {
		ms, err := db.Pending(time.Now(), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []uint64
		for _, m := range ms {
			got = append(got, m.ID)
		}
		return got
	}

	db.SentSoon(ids[0], ids[1])
	if got := due(); len(got) != 2 || got[0] != ids[2] || got[1] != ids[3] {
		t.Errorf("due after two sent: %v; want %v", got, ids[2:])
	}
	if n, _ := db.OutboxLen(); n != 2 {
		t.Errorf("OutboxLen after two sent: %d; want 2", n)
	}
	if !stored(ids[0]) {
		t.Fatal("a mail sent left the store with no commit")
	}
	// A transaction that fails takes nothing out.
	fail := errors.New("no")
	if err := db.Update(func(tx *Tx) error { tx.SetNote("a", "1"); return fail }); err != fail {
		t.Fatal(err)
	}
	if !stored(ids[0]) || len(due()) != 2 {
		t.Error("a failed transaction took sent mail out, or gave it back to send")
	}
	// The next one that commits does.
	update(t, db, func(tx *Tx) error { return tx.SetNote("a", "2") })
	if stored(ids[0]) || stored(ids[1]) {
		t.Error("sent mails still stored after the next commit")
	}
	if !stored(ids[2]) {
		t.Error("a mail not sent left the outbox")
	}

	// Close takes the rest out.
	db.SentSoon(ids[2], ids[3])
	path := db.Path()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n, _ := db.OutboxLen(); n != 0 {
		t.Errorf("after Close and Open, %d mails in the outbox; want 0", n)
	}

	// With no commit coming, within sentDelay, again and again.
	sentDelay = 10 * time.Millisecond
	for round := range 3 {
		m := &Outgoing{From: "pbem@example.org", To: []string{"alice@example.org"}, Data: []byte("Subject: x\r\n\r\nx\r\n")}
		update(t, db, func(tx *Tx) error { return tx.Enqueue(m) })
		db.SentSoon(m.ID)
		for start := time.Now(); ; time.Sleep(5 * time.Millisecond) {
			var found bool
			db.View(func(tx *Tx) error {
				_, err := tx.Outgoing(m.ID)
				found = err == nil
				return nil
			})
			if !found {
				break
			}
			if time.Since(start) > 10*time.Second {
				t.Fatalf("round %d: a mail sent still in the outbox 10 s on, with no commit", round)
			}
		}
	}
}
