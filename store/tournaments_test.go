package store

import (
	"errors"
	"testing"
	"time"
)

func TestTournamentsIndexes(t *testing.T) {
	db := openTest(t)
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	put := func(tr *Tournament) {
		t.Helper()
		if err := db.Update(func(tx *Tx) error { return tx.PutTournament(tr) }); err != nil {
			t.Fatal(err)
		}
	}
	// Before any tournament the buckets do not exist: reads find nothing.
	db.View(func(tx *Tx) error {
		if _, err := tx.Tournament("Spring"); !errors.Is(err, ErrNotFound) {
			t.Errorf("Tournament on an empty store: %v, want ErrNotFound", err)
		}
		if n := tx.OrganisedTournaments("alice", 10); n != 0 {
			t.Errorf("OrganisedTournaments on an empty store = %d", n)
		}
		return nil
	})
	put(&Tournament{Name: "Spring", Game: "tanbo", Organiser: "Alice", Phase: TournamentOpen, StartAt: at})
	put(&Tournament{Name: "autumn", Game: "tanbo", Organiser: "alice", Phase: TournamentOpen})
	put(&Tournament{Name: "Winter", Game: "ultima", Organiser: "bob", Phase: TournamentOpen, StartAt: at.Add(time.Hour)})
	db.View(func(tx *Tx) error {
		tr, err := tx.Tournament("SPRING")
		if err != nil || tr.Name != "Spring" || tr.Organiser != "Alice" {
			t.Errorf("Tournament(SPRING) = %+v, %v", tr, err)
		}
		if n := tx.OrganisedTournaments("ALICE", 10); n != 2 {
			t.Errorf("alice organises %d, want 2", n)
		}
		if n := tx.OrganisedTournaments("alice", 1); n != 1 {
			t.Errorf("counting at most 1 gave %d", n)
		}
		if due := tx.TournamentsDue(at, 10); len(due) != 1 || due[0] != "spring" {
			t.Errorf("due at the start of spring: %v", due)
		}
		if due := tx.TournamentsDue(at.Add(-time.Second), 10); len(due) != 0 {
			t.Errorf("due before any start: %v", due)
		}
		return nil
	})
	// Started, it is due no more; over, its organiser may open another.
	put(&Tournament{Name: "Spring", Game: "tanbo", Organiser: "Alice", Phase: TournamentRunning, StartAt: at})
	put(&Tournament{Name: "autumn", Game: "tanbo", Organiser: "alice", Phase: TournamentOver})
	db.View(func(tx *Tx) error {
		if due := tx.TournamentsDue(at.Add(2*time.Hour), 10); len(due) != 1 || due[0] != "winter" {
			t.Errorf("due after spring started: %v, want [winter]", due)
		}
		if n := tx.OrganisedTournaments("alice", 10); n != 1 {
			t.Errorf("alice organises %d not over, want 1", n)
		}
		return nil
	})
	// Pages in the order of names, case-insensitive.
	db.View(func(tx *Tx) error {
		first, err := tx.Tournaments(0, 2)
		if err != nil || len(first) != 2 || first[0].Name != "autumn" || first[1].Name != "Spring" {
			t.Fatalf("first page: %v %v", names(first), err)
		}
		next, err := tx.Tournaments(2, 2)
		if err != nil || len(next) != 1 || next[0].Name != "Winter" {
			t.Errorf("next page: %v %v", names(next), err)
		}
		return nil
	})
}

func names(ts []*Tournament) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

func TestTournamentCorruptPassedOver(t *testing.T) {
	db := openTest(t)
	db.Update(func(tx *Tx) error {
		tx.PutTournament(&Tournament{Name: "a", Phase: TournamentOpen})
		tx.PutTournament(&Tournament{Name: "c", Phase: TournamentOpen})
		return tx.btx.bucket(bucketTournaments).Put([]byte("b"), []byte("{not json"))
	})
	db.View(func(tx *Tx) error {
		if _, err := tx.Tournament("b"); !errors.Is(err, ErrCorrupt) {
			t.Errorf("a damaged record read by its key: %v, want ErrCorrupt", err)
		}
		ts, err := tx.Tournaments(0, 10)
		if err != nil || len(ts) != 2 {
			t.Errorf("the list passes over the damaged record: %v %v", names(ts), err)
		}
		return nil
	})
}
