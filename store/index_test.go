package store

import (
	"path/filepath"
	"reflect"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The indexes follow every change of a board in the same transaction: a
// list by state, a user's boards with their state, the finished boards by
// end time, each a page at a time.
func TestBoardIndexes(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	put := func(g *Game) { putGame(t, db, g) }
	g := func(board int, seats ...string) *Game {
		return &Game{Kind: "tanbo", Board: board, Seats: seats, Updated: t0.Add(time.Duration(board) * time.Hour)}
	}
	put(g(101, "ann", "bob"))
	put(g(102, "ann", ""))
	put(g(103, "bob", "cy"))
	over := g(104, "cy", "ann")
	over.Over, over.Updated = true, t0.Add(500*time.Hour)
	put(over)
	over = g(105, "ann", "bob")
	over.Over = true
	put(over)
	moved := g(101, "ann", "bob")
	moved.ToMove = 1
	put(moved)

	view := func(fn func(tx *Tx)) {
		db.View(func(tx *Tx) error { fn(tx); return nil })
	}
	view(func(tx *Tx) {
		for _, c := range []struct {
			state BoardState
			p     Page
			want  []int
			more  bool
		}{
			{AllBoards, Page{0, 10}, []int{101, 102, 103, 104, 105}, false},
			{AllBoards, Page{1, 2}, []int{102, 103}, true},
			{RunningBoards, Page{0, 10}, []int{101, 102, 103}, false},
			{RunningBoards, Page{0, 2}, []int{101, 102}, true},
			{RunningBoards, Page{2, 2}, []int{103}, false},
			{OpenBoards, Page{0, 10}, []int{102}, false},
			{FinishedBoards, Page{0, 10}, []int{104, 105}, false}, // 104 ended last
			{FinishedBoards, Page{0, 1}, []int{104}, true},
		} {
			got, more := tx.KindBoards("tanbo", c.state, c.p)
			if !reflect.DeepEqual(got, c.want) || more != c.more {
				t.Errorf("KindBoards(%d, %+v) = %v, %v; want %v, %v", c.state, c.p, got, more, c.want, c.more)
			}
		}
		if got, _ := tx.KindBoards("tobit", RunningBoards, Page{0, 10}); len(got) != 0 {
			t.Errorf("tobit boards %v; want none", got)
		}
		refs := func(user string, want func(SeatState) bool, back bool, p Page) []int {
			rs, _ := tx.UserBoards(user, "tanbo", want, back, p)
			var nums []int
			for _, r := range rs {
				nums = append(nums, r.Board)
			}
			return nums
		}
		active := func(s SeatState) bool { return !s.Over }
		next := SeatState.ToMove
		if got := refs("ANN", nil, false, Page{0, 10}); !reflect.DeepEqual(got, []int{101, 102, 104, 105}) {
			t.Errorf("ann's boards %v", got)
		}
		if got := refs("ann", active, false, Page{0, 10}); !reflect.DeepEqual(got, []int{101, 102}) {
			t.Errorf("ann's active boards %v", got)
		}
		if got := refs("ann", nil, true, Page{1, 2}); !reflect.DeepEqual(got, []int{104, 102}) {
			t.Errorf("ann's boards newest first, second page of 2: %v", got)
		}
		// After the move on 101 it is bob's turn there, and still his on 103.
		if got := refs("bob", next, false, Page{0, 10}); !reflect.DeepEqual(got, []int{101, 103}) {
			t.Errorf("boards where it is bob's turn: %v", got)
		}
		if got := refs("ann", next, false, Page{0, 10}); len(got) != 0 {
			t.Errorf("boards where it is ann's turn: %v; want none", got)
		}
		if n := tx.ActiveCount("ann", "tanbo"); n != 2 {
			t.Errorf("ann's active count %d; want 2", n)
		}
		// Boards two users share: 101 (105 is over); none of ann's with cy
		// runs (104 is over); a user id that is the start of another's
		// shares nothing.
		for _, c := range []struct {
			user, other string
			want        int
		}{{"ann", "bob", 1}, {"BOB", "Ann", 1}, {"ann", "cy", 0}, {"bob", "cy", 1}, {"ann", "bo", 0}, {"an", "bob", 0}} {
			if n := tx.ActiveWith(c.user, c.other, "tanbo"); n != c.want {
				t.Errorf("ActiveWith(%s, %s) = %d; want %d", c.user, c.other, n, c.want)
			}
		}
	})
	// A board written in the same transaction counts at once: the
	// commands of one mail run in one.
	err := db.Update(func(tx *Tx) error {
		if err := tx.PutGame(g(106, "cy", "dee")); err != nil {
			return err
		}
		if a, b := tx.ActiveWith("cy", "dee", "tanbo"), tx.ActiveWith("dee", "cy", "tanbo"); a != 1 || b != 1 {
			t.Errorf("in the transaction that wrote it, cy and dee share %d and %d boards; want 1", a, b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The rating index orders players best first and forgets a deleted one;
// the notify index lists who hears of every end.
func TestUserIndexes(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	users := []*User{
		{ID: "ann", Ratings: map[string]*Rating{"tanbo": {Rating: 1500, Games: 3}}},
		{ID: "bob", Ratings: map[string]*Rating{"tanbo": {Rating: 1720, Games: 1}, "tobit": {Rating: 1600, Games: 1}}},
		{ID: "cy", Ratings: map[string]*Rating{"tanbo": {Rating: 1600, Games: 0}}, NotifyKinds: []string{"tanbo"}},
		{ID: "dee", Ratings: map[string]*Rating{"tanbo": {Rating: -20, Games: 9}}},
	}
	err := db.Update(func(tx *Tx) error {
		for _, u := range users {
			if err := tx.PutUser(u); err != nil {
				return err
			}
		}
		users[0].Ratings["tanbo"].Rating = 1800 // ann wins a game
		return tx.PutUser(users[0])
	})
	if err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *Tx) error {
		if got, more := tx.RatedUsers("tanbo", Page{0, 10}); !reflect.DeepEqual(got, []string{"ann", "bob", "dee"}) || more {
			t.Errorf("tanbo standings %v, %v; want ann, bob, dee (cy has no rated game)", got, more)
		}
		if got, more := tx.RatedUsers("tanbo", Page{1, 1}); !reflect.DeepEqual(got, []string{"bob"}) || !more {
			t.Errorf("tanbo standings page 2 of 1: %v, %v", got, more)
		}
		if got := tx.NotifyUsers("tanbo"); !reflect.DeepEqual(got, []string{"cy"}) {
			t.Errorf("told of every tanbo end: %v", got)
		}
		return nil
	})
	if err := db.Update(func(tx *Tx) error { return tx.DeleteUser("bob") }); err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *Tx) error {
		if got, _ := tx.RatedUsers("tanbo", Page{0, 10}); !reflect.DeepEqual(got, []string{"ann", "dee"}) {
			t.Errorf("tanbo standings after bob left %v", got)
		}
		if got, _ := tx.RatedUsers("tobit", Page{0, 10}); len(got) != 0 {
			t.Errorf("tobit standings after bob left %v", got)
		}
		return nil
	})
}

// A player with no rated game of a kind is in its rating index at the
// start rating while he holds a seat on a board of it not over, an open
// one too; a file from before that has him added at the next open.
func TestNewcomersInRatings(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), FileName)
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { db.Close() }()
	ann := &User{ID: "ann", Ratings: map[string]*Rating{"tanbo": {Rating: 1800, Games: 3}}}
	eve := &User{ID: "eve", Ratings: map[string]*Rating{"tanbo": {Rating: 1500, Games: 2}}}
	update(t, db, func(tx *Tx) error {
		for _, u := range []*User{ann, eve, {ID: "cy"}, {ID: "dee"}} {
			if err := tx.PutUser(u); err != nil {
				return err
			}
		}
		return nil
	})
	listed := func(want ...string) {
		t.Helper()
		db.View(func(tx *Tx) error {
			if got, _ := tx.RatedUsers("tanbo", Page{0, 10}); !reflect.DeepEqual(got, want) {
				t.Errorf("tanbo standings %v; want %v", got, want)
			}
			return nil
		})
	}
	listed("ann", "eve")
	putGame(t, db, &Game{Kind: "tanbo", Board: 101, Seats: []string{"Cy", ""}}) // cy seeks a game
	listed("ann", "cy", "eve")
	putGame(t, db, &Game{Kind: "tanbo", Board: 102, Seats: []string{"dee", "cy"}})
	putGame(t, db, &Game{Kind: "tobit", Board: 101, Seats: []string{"dee", "ann"}})
	listed("ann", "cy", "dee", "eve")
	putGame(t, db, &Game{Kind: "tanbo", Board: 101, Seats: []string{"Cy", ""}, Over: true})
	listed("ann", "cy", "dee", "eve") // cy still plays 102
	// Rebuilt from the boards and users on the next open.
	db = reopenAfter(t, db, func(btx *bolt.Tx) error {
		if err := btx.Bucket(bucketMeta).Put(keyIndexes, []byte("2")); err != nil {
			return err
		}
		if err := btx.DeleteBucket(bucketRatings); err != nil {
			return err
		}
		return btx.DeleteBucket(bucketPlaying)
	})
	listed("ann", "cy", "dee", "eve")
	// 102 ends and is rated: cy at his rating, dee, who lost it, at his.
	update(t, db, func(tx *Tx) error {
		if err := tx.PutUser(&User{ID: "cy", Ratings: map[string]*Rating{"tanbo": {Rating: 1700, Games: 1}}}); err != nil {
			return err
		}
		if err := tx.PutUser(&User{ID: "dee", Ratings: map[string]*Rating{"tanbo": {Rating: 1400, Games: 1}}}); err != nil {
			return err
		}
		return tx.PutGame(&Game{Kind: "tanbo", Board: 102, Seats: []string{"dee", "cy"}, Over: true})
	})
	listed("ann", "cy", "eve", "dee")
	// A newcomer whose only board is withdrawn unrated leaves the list.
	update(t, db, func(tx *Tx) error { return tx.PutUser(&User{ID: "fay"}) })
	putGame(t, db, &Game{Kind: "tanbo", Board: 103, Seats: []string{"", "fay"}})
	listed("ann", "cy", "fay", "eve", "dee")
	putGame(t, db, &Game{Kind: "tanbo", Board: 103, Seats: []string{"", "fay"}, Over: true})
	listed("ann", "cy", "eve", "dee")
}

// The deadline index holds what the function SetDeadline gives, follows
// each change, and is built for boards stored before the function was set.
func TestDueBoards(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	put := func(g *Game) { putGame(t, db, g) }
	put(&Game{Kind: "tanbo", Board: 101, Seats: []string{"a", "b"}, TurnSince: t0})
	if err := db.SetDeadline(func(g *Game) time.Time {
		if g.Over {
			return time.Time{}
		}
		return g.TurnSince.Add(7 * 24 * time.Hour)
	}); err != nil {
		t.Fatal(err)
	}
	put(&Game{Kind: "tobit", Board: 101, Seats: []string{"a", "b"}, TurnSince: t0.Add(-24 * time.Hour)})
	put(&Game{Kind: "tanbo", Board: 102, Seats: []string{"a", "b"}, TurnSince: t0.Add(3 * 24 * time.Hour)})
	due := func(at time.Time, n int) []GameRef {
		var refs []GameRef
		db.View(func(tx *Tx) error {
			for _, d := range tx.DueBoards(at, nil, n) {
				refs = append(refs, d.GameRef)
			}
			return nil
		})
		return refs
	}
	week := t0.Add(7 * 24 * time.Hour)
	if got, want := due(week, 10), []GameRef{{"tobit", 101}, {"tanbo", 101}}; !reflect.DeepEqual(got, want) {
		t.Errorf("due in a week %v; want %v", got, want)
	}
	if got := due(week, 1); len(got) != 1 {
		t.Errorf("due, at most 1: %v", got)
	}
	// From the mark of the first on, the second.
	db.View(func(tx *Tx) error {
		first := tx.DueBoards(week, nil, 1)
		if next := tx.DueBoards(week, first[0].Mark, 10); len(next) != 1 || next[0].GameRef != (GameRef{"tanbo", 101}) {
			t.Errorf("due after %v: %v; want tanbo 101 alone", first[0].GameRef, next)
		}
		return nil
	})
	put(&Game{Kind: "tobit", Board: 101, Seats: []string{"a", "b"}, Over: true})
	put(&Game{Kind: "tanbo", Board: 101, Seats: []string{"a", "b"}, TurnSince: week})
	if got := due(week, 10); len(got) != 0 {
		t.Errorf("due in a week after a move and an end: %v; want none", got)
	}
}

// Old mail keys are forgotten oldest first, at most as many as asked.
func TestPruneProcessedBounded(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	db.Update(func(tx *Tx) error {
		for i, k := range []string{"c", "a", "b", "d"} {
			tx.MarkProcessed(k, t0.Add(time.Duration(i)*time.Hour))
		}
		return tx.MarkProcessed("c", t0.Add(10*time.Hour)) // seen again later
	})
	var n int
	db.Update(func(tx *Tx) error { n, _ = tx.PruneProcessed(t0.Add(5*time.Hour), 2); return nil })
	if n != 2 {
		t.Fatalf("pruned %d; want 2", n)
	}
	db.View(func(tx *Tx) error {
		for k, want := range map[string]bool{"a": false, "b": false, "c": true, "d": true} {
			if got, _ := tx.Processed(k); got != want {
				t.Errorf("Processed(%q) = %v; want %v", k, got, want)
			}
		}
		return nil
	})
}

// putGame stores g in a transaction of its own.
func putGame(t *testing.T, db *DB, g *Game) {
	t.Helper()
	if err := db.Update(func(tx *Tx) error { return tx.PutGame(g) }); err != nil {
		t.Fatal(err)
	}
}

// An upgrade from index version 2 runs a part at a time, and one cut short
// (the new index there, the version not yet written) is done on the next
// open.
func TestUpgradeIndexesInParts(t *testing.T) {
	defer func(n int) { upgradeBatch = n }(upgradeBatch)
	upgradeBatch = 2
	db := openTest(t)
	for i, pair := range [][]string{{"ann", "bo"}, {"cy", ""}, {"dee", "eve"}, {"fay", "gus"}} {
		putGame(t, db, &Game{Kind: "tanbo", Board: 101 + i, Seats: pair})
	}
	putGame(t, db, &Game{Kind: "tanbo", Board: 105, Seats: []string{"hal", "ann"}, Over: true})
	for _, id := range []string{"ann", "bo", "cy", "dee", "eve", "fay", "gus", "hal"} {
		update(t, db, func(tx *Tx) error { return tx.PutUser(&User{ID: id}) })
	}
	// As version 2 left it, with the playing index begun and empty.
	db = reopenAfter(t, db, func(btx *bolt.Tx) error {
		if err := btx.Bucket(bucketMeta).Put(keyIndexes, []byte("2")); err != nil {
			return err
		}
		if err := btx.DeleteBucket(bucketPlaying); err != nil {
			return err
		}
		if _, err := btx.CreateBucket(bucketPlaying); err != nil {
			return err
		}
		var newcomers [][]byte
		btx.Bucket(bucketRatings).ForEach(func(k, _ []byte) error {
			newcomers = append(newcomers, append([]byte(nil), k...))
			return nil
		})
		return deleteKeys(boltBucket{btx.Bucket(bucketRatings)}, newcomers)
	})
	defer db.Close()
	db.View(func(tx *Tx) error {
		got, _ := tx.RatedUsers("tanbo", Page{0, 20})
		if want := []string{"ann", "bo", "cy", "dee", "eve", "fay", "gus"}; !reflect.DeepEqual(got, want) {
			t.Errorf("tanbo standings after the upgrade %v; want %v (hal's only board is over)", got, want)
		}
		if v := tx.bucket(bucketMeta).Get(keyIndexes); string(v) != indexVersion {
			t.Errorf("index version %q after the upgrade; want %q", v, indexVersion)
		}
		return nil
	})
}

// A file whose deadline index an older policy built (its mark the old
// one) is indexed anew: a board the old policy gave no time, such as an
// open seat before open seats lapsed, gets one.
func TestDueIndexRebuiltForNewPolicy(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	putGame(t, db, &Game{Kind: "tanbo", Board: 101, Seats: []string{"a", ""}, Updated: t0})
	update(t, db, func(tx *Tx) error { return tx.bucket(bucketMeta).Put([]byte("due-index"), []byte("1")) })
	if err := db.SetDeadline(func(g *Game) time.Time { return g.Updated.Add(14 * 24 * time.Hour) }); err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *Tx) error {
		if due := tx.DueBoards(t0.Add(14*24*time.Hour), nil, 10); len(due) != 1 || due[0].GameRef != (GameRef{"tanbo", 101}) {
			t.Errorf("due after the upgrade: %v; want tanbo 101", due)
		}
		return nil
	})
}

// A move changes whose turn it is and writes no seat entry: the lists of
// the boards where it is a user's turn read it from the board's head. An
// entry written with the "to move" flag of older versions is listed by
// the head, not by the flag.
func TestSeatIndexNotWrittenByMoves(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	g := &Game{Kind: "tanbo", Board: 101, Seats: []string{"ann", "bob"}}
	putGame(t, db, g)
	seats := func() map[string]string {
		m := map[string]string{}
		db.bolt.View(func(btx *bolt.Tx) error {
			return btx.Bucket(bucketSeats).ForEach(func(k, v []byte) error { m[string(k)] = string(v); return nil })
		})
		return m
	}
	turn := func(user string) []GameRef {
		var refs []GameRef
		db.View(func(tx *Tx) error {
			refs, _ = tx.UserBoards(user, "", SeatState.ToMove, false, Page{0, 10})
			return nil
		})
		return refs
	}
	before := seats()
	moved := *g
	moved.ToMove = 1
	putGame(t, db, &moved)
	if after := seats(); !reflect.DeepEqual(before, after) {
		t.Errorf("the seat index before the move %q, after %q; want it unchanged", before, after)
	}
	if got := turn("bob"); len(got) != 1 || got[0].Board != 101 {
		t.Errorf("bob's turn after ann's move: %v; want board 101", got)
	}
	if got := turn("ann"); len(got) != 0 {
		t.Errorf("ann's turn after her move: %v; want none", got)
	}
	// Ann's entry as an older version wrote it while it was her turn.
	err := db.bolt.Update(func(btx *bolt.Tx) error {
		return btx.Bucket(bucketSeats).Put(seatKey("ann", "tanbo", 101), []byte{4})
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := turn("ann"); len(got) != 0 {
		t.Errorf("ann's turn with her entry flagged by an older version: %v; want none, as the head says", got)
	}
}
