package store

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestCounters(t *testing.T) {
	db := openTest(t)
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	long := "sender:" + strings.Repeat("x", 40000) + "@example.org" // longer than bbolt allows a key
	err := db.Update(func(tx *Tx) error {
		c, err := tx.Counter("sender:a@example.org")
		if err != nil || c.Count != 0 || !c.Start.IsZero() {
			t.Errorf("a missing counter: %+v, %v", c, err)
		}
		for key, n := range map[string]int{"sender:a@example.org": 3, long: 5, "old": 1} {
			exp := now.Add(time.Hour)
			if key == "old" {
				exp = now.Add(-time.Second)
			}
			if err := tx.PutCounter(key, Counter{Start: now, Count: n, Expires: exp}); err != nil {
				return err
			}
		}
		return tx.PutCounter("", Counter{})
	})
	if err == nil {
		t.Fatalf("an empty counter key was stored")
	}
	// The failed transaction stored nothing; store again without the bad key.
	err = db.Update(func(tx *Tx) error {
		for key, n := range map[string]int{"sender:a@example.org": 3, long: 5} {
			if err := tx.PutCounter(key, Counter{Start: now, Count: n, Warned: n == 5, Expires: now.Add(time.Hour)}); err != nil {
				return err
			}
		}
		return tx.PutCounter("old", Counter{Start: now, Count: 1, Expires: now.Add(-time.Second)})
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *Tx) error {
		if c, err := tx.Counter(long); err != nil || c.Count != 5 || !c.Warned || !c.Start.Equal(now) {
			t.Errorf("long key: %+v, %v", c, err)
		}
		next, n, err := tx.PruneCounters(now, "", 100)
		if err != nil || n != 1 || next != "" {
			t.Errorf("pruned %d, %v; want the one expired", n, err)
		}
		if c, _ := tx.Counter("old"); c.Count != 0 {
			t.Errorf("an expired counter survived pruning: %+v", c)
		}
		if c, _ := tx.Counter("sender:a@example.org"); c.Count != 3 {
			t.Errorf("a live counter was pruned: %+v", c)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A data file without the counters' bucket (written before it existed)
// reads as having no counters, also read-only.
func TestCountersOnOldFile(t *testing.T) {
	db := openTest(t)
	path := db.Path()
	db.Close()
	ro, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	err = ro.View(func(tx *Tx) error {
		c, err := tx.Counter("x")
		if err != nil || c.Count != 0 {
			t.Errorf("counter on a file without the bucket: %+v, %v", c, err)
		}
		_, n, err := tx.PruneCounters(time.Now(), "", 100)
		if err != nil || n != 0 {
			t.Errorf("prune on a file without the bucket: %d, %v", n, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The sweep prunes counters a part at a time: each call reads at most its
// bound, and going on from the key it returns reaches every counter once.
func TestPruneCountersInParts(t *testing.T) {
	db := openTest(t)
	now := time.Now()
	update(t, db, func(tx *Tx) error {
		for i := range 250 {
			c := Counter{Count: 1, Start: now, Expires: now.Add(time.Hour)}
			if i%2 == 0 {
				c.Expires = now.Add(-time.Minute)
			}
			if err := tx.PutCounter(fmt.Sprintf("sender:%03d@example.org", i), c); err != nil {
				return err
			}
		}
		return nil
	})
	pruned, calls := 0, 0
	for after := ""; ; {
		var n int
		update(t, db, func(tx *Tx) error {
			var err error
			after, n, err = tx.PruneCounters(now, after, 100)
			return err
		})
		calls++
		if n > 100 {
			t.Fatalf("one call pruned %d counters; want at most its bound of 100", n)
		}
		pruned += n
		if after == "" {
			break
		}
	}
	if pruned != 125 || calls != 3 {
		t.Errorf("pruned %d counters in %d calls; want 125 in 3", pruned, calls)
	}
	update(t, db, func(tx *Tx) error {
		for i := range 250 {
			c, err := tx.Counter(fmt.Sprintf("sender:%03d@example.org", i))
			if err != nil {
				return err
			}
			if live := i%2 == 1; live != (c.Count == 1) {
				t.Errorf("counter %d: %+v after pruning; live %v", i, c, live)
			}
		}
		return nil
	})
}
