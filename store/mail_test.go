package store

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func TestProcessedAndPrune(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	keys := map[string]time.Time{
		"<a@x>":         t0.Add(-72 * time.Hour),
		"<b@x>":         t0.Add(-25 * time.Hour),
		"sha256:abcdef": t0.Add(-24 * time.Hour), // exactly at the limit: kept
		"<c@x>":         t0.Add(-time.Hour),
	}
	update(t, db, func(tx *Tx) error {
		for k, at := range keys {
			if err := tx.MarkProcessed(k, at); err != nil {
				return err
			}
		}
		return nil
	})
	processed := func(key string) bool {
		var ok bool
		db.View(func(tx *Tx) (err error) {
			ok, err = tx.Processed(key)
			return err
		})
		return ok
	}
	for k := range keys {
		if !processed(k) {
			t.Errorf("Processed(%q) = false after MarkProcessed", k)
		}
	}
	if processed("<A@x>") || processed("<d@x>") {
		t.Error("Processed is true for a key never marked")
	}
	if err := db.Update(func(tx *Tx) error { return tx.MarkProcessed("", t0) }); err == nil {
		t.Error("MarkProcessed of the empty key succeeded")
	}

	var n int
	update(t, db, func(tx *Tx) (err error) {
		n, err = tx.PruneProcessed(t0.Add(-24*time.Hour), 0)
		return err
	})
	if n != 2 {
		t.Errorf("PruneProcessed forgot %d keys, want 2", n)
	}
	for k, at := range keys {
		want := !at.Before(t0.Add(-24 * time.Hour))
		if got := processed(k); got != want {
			t.Errorf("after prune: Processed(%q) = %v, want %v", k, got, want)
		}
	}

	// Marking again moves the time: a key seen again recently is kept.
	update(t, db, func(tx *Tx) error { return tx.MarkProcessed("<c@x>", t0.Add(time.Hour)) })
	update(t, db, func(tx *Tx) (err error) {
		n, err = tx.PruneProcessed(t0, 0)
		return err
	})
	if n != 1 || !processed("<c@x>") || processed("sha256:abcdef") {
		t.Errorf("second prune forgot %d keys; <c@x> kept %v, sha256 kept %v", n, processed("<c@x>"), processed("sha256:abcdef"))
	}
}

func TestPruneManyKeys(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	const n = 3000
	update(t, db, func(tx *Tx) error {
		for i := 0; i < n; i++ {
			at := t0
			if i%3 != 0 {
				at = t0.Add(-time.Hour)
			}
			if err := tx.MarkProcessed(string(rune('a'+i%26))+string(rune(i)), at); err != nil {
				return err
			}
		}
		return nil
	})
	var pruned, left int
	update(t, db, func(tx *Tx) (err error) {
		pruned, err = tx.PruneProcessed(t0, 0)
		return err
	})
	db.View(func(tx *Tx) error {
		return tx.bucket(bucketProcessed).ForEach(func(k, v []byte) error { left++; return nil })
	})
	if pruned != n*2/3 || left != n/3 {
		t.Errorf("pruned %d, left %d; want %d and %d", pruned, left, n*2/3, n/3)
	}
}

func TestOutbox(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	// Bytes that are not UTF-8 must come back as they went in.
	data := []byte("Subject: x\r\n\r\n\xff\xfe board\r\n")
	mails := []*Outgoing{
		{From: "pbem@x", To: []string{"a@x"}, Data: data, Queued: t0},
		{From: "pbem@x", To: []string{"b@x", "c@x"}, Data: []byte("2"), Queued: t0, NextTry: t0.Add(time.Hour)},
		{From: "pbem@x", To: []string{"d@x"}, Data: []byte("3"), Queued: t0, NextTry: t0.Add(-time.Minute)},
		{From: "pbem@x", To: []string{"e@x"}, Data: []byte("4"), Queued: t0},
	}
	update(t, db, func(tx *Tx) error {
		for _, m := range mails[:2] {
			if err := tx.Enqueue(m); err != nil {
				return err
			}
		}
		return nil
	})
	update(t, db, func(tx *Tx) error {
		for _, m := range mails[2:] {
			if err := tx.Enqueue(m); err != nil {
				return err
			}
		}
		return nil
	})
	for i := 1; i < len(mails); i++ {
		if mails[i].ID <= mails[i-1].ID {
			t.Fatalf("Enqueue IDs not increasing: %d then %d", mails[i-1].ID, mails[i].ID)
		}
	}
	if n, err := db.OutboxLen(); err != nil || n != 4 {
		t.Errorf("OutboxLen = %d, %v; want 4", n, err)
	}
	db.View(func(tx *Tx) error {
		got, err := tx.Outgoing(mails[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, mails[0]) {
			t.Errorf("Outgoing = %+v, want %+v", got, mails[0])
		}
		if _, err := tx.Outgoing(9999); !errors.Is(err, ErrNotFound) {
			t.Errorf("Outgoing(9999) error = %v, want ErrNotFound", err)
		}
		return nil
	})

	ids := func(now time.Time, max int) []uint64 {
		t.Helper()
		return pendingIDs(db, t, now, 0, max)
	}
	id := func(i ...int) []uint64 {
		var ids []uint64
		for _, j := range i {
			ids = append(ids, mails[j].ID)
		}
		return ids
	}
	// Mail 1 is due only in an hour.
	if got, want := ids(t0, 0), id(0, 2, 3); !reflect.DeepEqual(got, want) {
		t.Errorf("Pending(now) = %v, want %v", got, want)
	}
	if got, want := ids(t0, 2), id(0, 2); !reflect.DeepEqual(got, want) {
		t.Errorf("Pending(now, 2) = %v, want %v", got, want)
	}
	if got, want := ids(t0.Add(time.Hour), 0), id(0, 1, 2, 3); !reflect.DeepEqual(got, want) {
		t.Errorf("Pending(now+1h) = %v, want %v (NextTry equal to now is due)", got, want)
	}
	if got, want := ids(t0.Add(-2*time.Minute), 0), id(0, 3); !reflect.DeepEqual(got, want) {
		t.Errorf("Pending(now-2m) = %v, want %v", got, want)
	}

	// Only mails after a given ID, for a pass that goes on from there.
	if got, want := pendingIDs(db, t, t0, mails[0].ID, 1), id(2); !reflect.DeepEqual(got, want) {
		t.Errorf("Pending(now, after mail 0, 1) = %v, want %v", got, want)
	}

	// A failed attempt: counted, reason kept, first failure kept, due later.
	if err := db.Defer(mails[0].ID, t0, t0.Add(10*time.Minute), "421 try later"); err != nil {
		t.Fatal(err)
	}
	if err := db.Defer(mails[0].ID, t0.Add(10*time.Minute), t0.Add(30*time.Minute), "451 greylisted"); err != nil {
		t.Fatal(err)
	}
	if got, want := ids(t0, 0), id(2, 3); !reflect.DeepEqual(got, want) {
		t.Errorf("Pending after Defer = %v, want %v", got, want)
	}
	if got, want := ids(t0.Add(30*time.Minute), 0), id(0, 2, 3); !reflect.DeepEqual(got, want) {
		t.Errorf("Pending when the deferred mail is due = %v, want %v (still oldest first)", got, want)
	}
	db.View(func(tx *Tx) error {
		m, err := tx.Outgoing(mails[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		if m.Attempts != 2 || !m.NextTry.Equal(t0.Add(30*time.Minute)) || m.LastError != "451 greylisted" || !m.FirstFailure.Equal(t0) {
			t.Errorf("after two Defers: Attempts %d NextTry %v FirstFailure %v LastError %q", m.Attempts, m.NextTry, m.FirstFailure, m.LastError)
		}
		if !bytes.Equal(m.Data, data) {
			t.Errorf("Defer changed the data: %q", m.Data)
		}
		return nil
	})

	// Sent removes; a second Sent is harmless; Defer of a sent mail is not.
	for i := 0; i < 2; i++ {
		if err := db.Sent(mails[2].ID); err != nil {
			t.Errorf("Sent #%d: %v", i+1, err)
		}
	}
	if err := db.Defer(mails[2].ID, t0, t0, "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Defer of a sent mail: %v, want ErrNotFound", err)
	}
	if got, want := ids(t0.Add(time.Hour), 0), id(0, 1, 3); !reflect.DeepEqual(got, want) {
		t.Errorf("Pending after Sent = %v, want %v", got, want)
	}
	if n, _ := db.OutboxLen(); n != 3 {
		t.Errorf("OutboxLen after Sent = %d, want 3", n)
	}

	// IDs are never reused, even when the outbox empties.
	for _, m := range mails {
		db.Sent(m.ID)
	}
	if n, _ := db.OutboxLen(); n != 0 {
		t.Errorf("OutboxLen after sending all = %d, want 0", n)
	}
	m := &Outgoing{Data: []byte("5")}
	update(t, db, func(tx *Tx) error { return tx.Enqueue(m) })
	if m.ID <= mails[3].ID {
		t.Errorf("ID after emptying the outbox = %d, want more than %d", m.ID, mails[3].ID)
	}
}

func TestNotes(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	note := func(key string) (string, bool) {
		var v string
		var ok bool
		db.View(func(tx *Tx) (err error) {
			v, ok, err = tx.Note(key)
			return err
		})
		return v, ok
	}
	if v, ok := note("howto:a@x"); ok || v != "" {
		t.Errorf("Note of a missing key = %q, %v", v, ok)
	}
	update(t, db, func(tx *Tx) error {
		if err := tx.SetNote("howto:a@x", "2026-11-22T12:00:00Z"); err != nil {
			return err
		}
		return tx.SetNote("empty", "")
	})
	if v, ok := note("howto:a@x"); !ok || v != "2026-11-22T12:00:00Z" {
		t.Errorf("Note = %q, %v", v, ok)
	}
	if v, ok := note("empty"); !ok || v != "" {
		t.Errorf("Note of an empty value = %q, %v; want \"\", true", v, ok)
	}
	update(t, db, func(tx *Tx) error { return tx.SetNote("howto:a@x", "later") })
	if v, _ := note("howto:a@x"); v != "later" {
		t.Errorf("Note after overwrite = %q", v)
	}
	update(t, db, func(tx *Tx) error { return tx.DeleteNote("howto:a@x") })
	update(t, db, func(tx *Tx) error { return tx.DeleteNote("never-set") })
	if _, ok := note("howto:a@x"); ok {
		t.Error("Note exists after DeleteNote")
	}
	if err := db.Update(func(tx *Tx) error { return tx.SetNote("", "x") }); err == nil {
		t.Error("SetNote with an empty name succeeded")
	}
}

// pendingIDs returns the IDs of the mails Pending returns.
func pendingIDs(db *DB, t *testing.T, now time.Time, after uint64, max int) []uint64 {
	t.Helper()
	ms, err := db.Pending(now, after, max)
	if err != nil {
		t.Fatal(err)
	}
	var ids []uint64
	for _, m := range ms {
		ids = append(ids, m.ID)
	}
	return ids
}

// The failed mail keeps the last KeepFailed mails given up: the oldest
// go first.
func TestFailedBounded(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	var ids []uint64
	update(t, db, func(tx *Tx) error {
		for range KeepFailed + 3 {
			m := &Outgoing{From: "pbem@x.test", To: []string{"a@x.test"}, Data: []byte("Subject: hi\r\n\r\n"), Queued: t0}
			if err := tx.Enqueue(m); err != nil {
				return err
			}
			ids = append(ids, m.ID)
		}
		return nil
	})
	for i, id := range ids {
		if err := db.GiveUp(id, t0.Add(time.Duration(i)*time.Minute), "550 no such user"); err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := db.FailedLen(); n != KeepFailed {
		t.Errorf("FailedLen = %d; want %d", n, KeepFailed)
	}
	failed, err := db.Failed(0)
	if err != nil || len(failed) != KeepFailed || failed[0].ID != ids[3] || failed[len(failed)-1].ID != ids[len(ids)-1] {
		t.Fatalf("Failed: %d mails, %v; want the last %d", len(failed), err, KeepFailed)
	}
}

// A mail given up leaves the outbox for the failed mail, with its reason,
// and stays there for an operator; Mails reads the outbox by ID.
func TestGiveUp(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	var ms []*Outgoing
	update(t, db, func(tx *Tx) error {
		for _, to := range []string{"a@x.test", "b@x.test"} {
			m := &Outgoing{From: "pbem@x.test", To: []string{to}, Data: []byte("Subject: hi\r\n\r\n"), Queued: t0}
			if err := tx.Enqueue(m); err != nil {
				return err
			}
			ms = append(ms, m)
		}
		return nil
	})
	if n, err := db.FailedLen(); n != 0 || err != nil {
		t.Errorf("FailedLen of a new store = %d, %v; want 0", n, err)
	}
	if err := db.GiveUp(ms[0].ID, t0.Add(time.Hour), "550 no such user"); err != nil {
		t.Fatal(err)
	}
	if err := db.GiveUp(ms[0].ID, t0, "again"); !errors.Is(err, ErrNotFound) {
		t.Errorf("second GiveUp: %v; want ErrNotFound", err)
	}
	if n, _ := db.OutboxLen(); n != 1 {
		t.Errorf("OutboxLen = %d; want 1", n)
	}
	failed, err := db.Failed(0)
	if err != nil || len(failed) != 1 {
		t.Fatalf("Failed = %v, %v; want one mail", failed, err)
	}
	f := failed[0]
	if f.ID != ms[0].ID || f.To[0] != "a@x.test" || f.LastError != "550 no such user" || !f.GaveUp.Equal(t0.Add(time.Hour)) || f.Attempts != 1 {
		t.Errorf("failed mail = %+v", f)
	}
	if n, _ := db.FailedLen(); n != 1 {
		t.Errorf("FailedLen = %d; want 1", n)
	}
	got, err := db.Mails(ms[1].ID)
	if err != nil || len(got) != 1 || got[0].To[0] != "b@x.test" {
		t.Errorf("Mails = %+v, %v", got, err)
	}
	if _, err := db.Mails(ms[0].ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("Mails of a mail given up: %v; want ErrNotFound", err)
	}
}

// A mail in copies loses its recipients as their copies go or are given
// up, each refused copy kept in the failed mail on its own, and leaves the
// outbox with the last; a mail stored before ToAt existed reads back whole.
func TestOutboxCopies(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	m := &Outgoing{From: "pbem@x.test", To: []string{"a@x.test", "b@x.test", "c@x.test", "d@x.test", "a@x.test"},
		Data: []byte("Date: x\r\nSubject: hi\r\n\r\nboard\r\n"), ToAt: 9, Queued: t0}
	update(t, db, func(tx *Tx) error { return tx.Enqueue(m) })
	recipients := func() []string {
		t.Helper()
		got, err := db.Mails(m.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got[0].To
	}
	if err := db.SentTo(m.ID, "a@x.test", "c@x.test"); err != nil {
		t.Fatal(err)
	}
	if got, want := recipients(), []string{"b@x.test", "d@x.test", "a@x.test"}; !reflect.DeepEqual(got, want) {
		t.Errorf("recipients after SentTo = %v, want %v (one a@ of two taken out)", got, want)
	}
	if err := db.Defer(m.ID, t0, t0.Add(time.Minute), "452 mailbox full"); err != nil {
		t.Fatal(err)
	}
	if err := db.GiveUpTo(m.ID, "d@x.test", t0.Add(time.Minute), "550 no such user"); err != nil {
		t.Fatal(err)
	}
	if err := db.GiveUpTo(m.ID, "d@x.test", t0, "again"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GiveUpTo of a recipient no longer there: %v; want ErrNotFound", err)
	}
	failed, err := db.Failed(0)
	if err != nil || len(failed) != 1 {
		t.Fatalf("Failed = %v, %v; want the copy to d@", failed, err)
	}
	if f := failed[0]; f.ID <= m.ID || !reflect.DeepEqual(f.To, []string{"d@x.test"}) || f.ToAt != 9 || f.Attempts != 2 ||
		f.LastError != "550 no such user" || !f.FirstFailure.Equal(t0) || !f.GaveUp.Equal(t0.Add(time.Minute)) {
		t.Errorf("failed copy = %+v; want its own id, d@ alone, the second attempt", f)
	}
	if got, want := recipients(), []string{"b@x.test", "a@x.test"}; !reflect.DeepEqual(got, want) {
		t.Errorf("recipients after GiveUpTo = %v, want %v", got, want)
	}
	if got := pendingIDs(db, t, t0.Add(time.Minute), 0, 0); len(got) != 1 {
		t.Errorf("Pending when due = %v; want the mail, its retry kept", got)
	}
	if err := db.SentTo(m.ID, "b@x.test", "a@x.test"); err != nil {
		t.Fatal(err)
	}
	if n, _ := db.OutboxLen(); n != 0 {
		t.Errorf("OutboxLen after the last copy = %d; want 0", n)
	}
	if got := pendingIDs(db, t, t0.Add(time.Hour), 0, 0); len(got) != 0 {
		t.Errorf("Pending = %v after the last copy; want none", got)
	}
	if err := db.SentTo(m.ID, "a@x.test"); err != nil {
		t.Errorf("SentTo of a mail gone: %v; want nil", err)
	}

	// A record as stores before ToAt wrote it.
	update(t, db, func(tx *Tx) error {
		return tx.bucket(bucketOutbox).Put(outKey(1000),
			[]byte(`{"ID":1000,"From":"pbem@x.test","To":["e@x.test"],"Data":"VG86IGVAeC50ZXN0DQoNCmJvYXJkDQo=","Queued":"2026-11-22T12:00:00Z","Attempts":0,"NextTry":"0001-01-01T00:00:00Z"}`))
	})
	old, err := db.Mails(1000)
	if err != nil || len(old) != 1 || old[0].ToAt != 0 || string(old[0].Data) != "To: e@x.test\r\n\r\nboard\r\n" {
		t.Errorf("old record = %+v, %v; want its whole message and no ToAt", old, err)
	}
}
