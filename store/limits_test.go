package store

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestCounters(t *testing.T) {
	t.Parallel()
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
		n, err := tx.PruneCounters(now, 100)
		if err != nil || n != 1 {
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
	t.Parallel()
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
		n, err := tx.PruneCounters(time.Now(), 100)
		if err != nil || n != 0 {
			t.Errorf("prune on a file without the bucket: %d, %v", n, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The sweep prunes counters a part at a time: each call deletes at most
// its bound, the expired only, and a counter whose window was renewed
// lives on past its first expiry.
func TestPruneCountersInParts(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	now := time.Now()
	update(t, db, func(tx *Tx) error {
		for i := range 250 {
			c := Counter{Count: 1, Start: now, Expires: now.Add(-time.Minute)}
			if err := tx.PutCounter(counterName(i), c); err != nil {
				return err
			}
		}
		return nil
	})
	// Every odd counter gets a new window, so its first expiry is stale.
	update(t, db, func(tx *Tx) error {
		for i := 1; i < 250; i += 2 {
			c := Counter{Count: 1, Start: now, Expires: now.Add(time.Hour)}
			if err := tx.PutCounter(counterName(i), c); err != nil {
				return err
			}
		}
		return nil
	})
	pruned, calls := pruneAll(t, db, now)
	if pruned != 125 || calls != 2 {
		t.Errorf("pruned %d counters in %d calls; want 125 in 2", pruned, calls)
	}
	checkLive(t, db, 250, func(i int) bool { return i%2 == 1 })
	// An hour on, the renewed ones go too.
	if pruned, _ := pruneAll(t, db, now.Add(time.Hour+time.Second)); pruned != 125 {
		t.Errorf("pruned %d renewed counters after their window; want 125", pruned)
	}
	checkLive(t, db, 250, func(int) bool { return false })
}

// A file whose counters were written before the expiry index gets them
// indexed when it is opened, so that the sweep still prunes them.
func TestPruneCountersOfOldFile(t *testing.T) {
	db := openTest(t)
	now := time.Now()
	update(t, db, func(tx *Tx) error {
		for i := range 30 {
			c := Counter{Count: 1, Start: now, Expires: now.Add(time.Duration(i%3) * time.Hour)}
			if i%3 == 0 {
				c.Expires = now.Add(-time.Hour)
			}
			if err := tx.PutCounter(counterName(i), c); err != nil {
				return err
			}
		}
		// As an older pbemd left it: counters, no expiry index.
		if err := tx.btx.deleteBucket(bucketLimitsExpiry); err != nil {
			return err
		}
		return tx.bucket(bucketMeta).Delete(keyLimitsExpiry)
	})
	path := db.Path()
	db.Close()
	old := upgradeBatch
	upgradeBatch = 7 // several transactions
	defer func() { upgradeBatch = old }()
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if pruned, _ := pruneAll(t, db, now); pruned != 10 {
		t.Errorf("pruned %d counters of an old file; want the 10 expired", pruned)
	}
	checkLive(t, db, 30, func(i int) bool { return i%3 != 0 })
}

func counterName(i int) string { return fmt.Sprintf("sender:%03d@example.org", i) }

// pruneAll prunes the counters expired at now, 100 a call, and returns
// how many went and in how many calls.
func pruneAll(t *testing.T, db *DB, now time.Time) (pruned, calls int) {
	t.Helper()
	for {
		var n int
		update(t, db, func(tx *Tx) error {
			var err error
			n, err = tx.PruneCounters(now, 100)
			return err
		})
		calls++
		if n > 100 {
			t.Fatalf("one call pruned %d counters; want at most its bound of 100", n)
		}
		if pruned += n; n < 100 {
			return pruned, calls
		}
	}
}

// checkLive checks which of the first n counters named by counterName
// are left.
func checkLive(t *testing.T, db *DB, n int, live func(int) bool) {
	t.Helper()
	update(t, db, func(tx *Tx) error {
		for i := range n {
			c, err := tx.Counter(counterName(i))
			if err != nil {
				return err
			}
			if (c.Count == 1) != live(i) {
				t.Errorf("counter %d: %+v; want live %v", i, c, live(i))
			}
		}
		return nil
	})
}

// A counter renewed by an older pbemd (which keeps no expiry index) after
// this one indexed it has a stale entry: pruning at that entry's time
// drops the entry and keeps the counter, whose window still runs.
func TestPruneCountersKeepsRenewed(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	update(t, db, func(tx *Tx) error {
		if err := tx.PutCounter(counterName(1), Counter{Count: 1, Start: now, Expires: now.Add(time.Minute)}); err != nil {
			return err
		}
		return putCounterUnindexed(tx, counterName(1), Counter{Count: 9, Start: now, Expires: now.Add(time.Hour)})
	})
	pruneAll(t, db, now.Add(10*time.Minute))
	update(t, db, func(tx *Tx) error {
		if c, _ := tx.Counter(counterName(1)); c.Count != 9 {
			t.Errorf("a counter renewed to +1h was pruned at +10m by its stale index entry: %+v", c)
		}
		return nil
	})
}

// An index build cut short, then an older pbemd renewing a counter, then
// this one again: the build begins afresh, so no stale entry survives it.
func TestIndexCountersCutShort(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	update(t, db, func(tx *Tx) error {
		if err := tx.PutCounter(counterName(1), Counter{Count: 1, Start: now, Expires: now.Add(time.Minute)}); err != nil {
			return err
		}
		// As a build cut short leaves it: entries, no mark.
		if err := tx.bucket(bucketMeta).Delete(keyLimitsExpiry); err != nil {
			return err
		}
		return putCounterUnindexed(tx, counterName(1), Counter{Count: 9, Start: now, Expires: now.Add(time.Hour)})
	})
	path := db.Path()
	db.Close()
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	update(t, db, func(tx *Tx) error {
		if n := tx.btx.bucket(bucketLimitsExpiry).KeyN(); n != 1 {
			t.Errorf("%d index entries for one counter after the build", n)
		}
		return nil
	})
	if n, _ := pruneAll(t, db, now.Add(2*time.Hour)); n != 1 {
		t.Errorf("pruned %d counters 2h on; want the one", n)
	}
}

// putCounterUnindexed writes a counter as a pbemd of before the expiry
// index did.
func putCounterUnindexed(tx *Tx, key string, c Counter) error {
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return tx.btx.bucket(bucketLimits).Put(counterKey(key), data)
}
