package store

import (
	"context"
	"fmt"
	"time"
)

// CompactSchedule says how often CompactOnSchedule compacts.
type CompactSchedule struct {
	// Every is the time between two compactions of the cluster; Keep the
	// history each keeps, at most Every: the revisions of the last Keep
	// stay readable, for a transaction or a watch still reading them.
	Every, Keep time.Duration
	// Done is called after each compaction with what it did, or with why
	// it failed (the next try is Keep later).
	Done func(ClusterCompactStats, error)
}

// compactedNote is the note of the last scheduled compaction's time, so
// that a new leader keeps the schedule of the one before.
const compactedNote = "etcd-compacted"

// CompactOnSchedule compacts a store in etcd every s.Every, keeping the
// history of the last s.Keep, until ctx ends: the daemon's leader runs it,
// so that one node compacts and the members are defragmented one at a
// time (CompactClusterTo), never all at once. Every s.Keep it notes the
// cluster's revision; a compaction drops the history before the revision
// it noted s.Keep before. The time of the last compaction is kept in the
// store, so that a leader that takes over compacts when its predecessor
// would have. On bbolt it returns at once: a file is compacted with the
// daemon stopped ("pbemd compact").
func (db *DB) CompactOnSchedule(ctx context.Context, s CompactSchedule) {
	if _, ok := db.eng.(*etcdEngine); !ok {
		return
	}
	if s.Done == nil {
		s.Done = func(ClusterCompactStats, error) {}
	}
	if s.Keep <= 0 || s.Keep > s.Every {
		s.Done(ClusterCompactStats{}, fmt.Errorf("store: the compaction's schedule keeps %v of history every %v; want more than 0 and at most the interval", s.Keep, s.Every))
		return
	}
	tick := time.NewTicker(s.Keep)
	defer tick.Stop()
	noted, _ := db.Revision() // 0 when the cluster does not answer: nothing to compact to yet
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		now, err := db.Revision()
		if err != nil {
			s.Done(ClusterCompactStats{}, err)
			continue
		}
		if noted > 0 && db.compactDue(time.Now(), s.Every) {
			st, err := db.CompactClusterTo(noted)
			if err == nil {
				err = db.Update(func(tx *Tx) error {
					return tx.SetNote(compactedNote, time.Now().UTC().Format(time.RFC3339Nano))
				})
			}
			s.Done(st, err)
		}
		noted = now
	}
}

// compactDue reports whether the last scheduled compaction is every or
// longer ago, or none is noted (or the note cannot be read).
func (db *DB) compactDue(now time.Time, every time.Duration) bool {
	var last time.Time
	db.View(func(tx *Tx) error {
		v, ok, err := tx.Note(compactedNote)
		if ok && err == nil {
			last, _ = time.Parse(time.RFC3339Nano, v)
		}
		return nil
	})
	return now.Sub(last) >= every
}
