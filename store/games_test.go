package store

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

func TestNextBoardPerKindSurvivesReopen(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), FileName)
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	next := func(db *DB, kind string) int {
		t.Helper()
		var n int
		update(t, db, func(tx *Tx) (err error) {
			n, err = tx.NextBoard(kind)
			return err
		})
		return n
	}
	steps := []struct {
		kind string
		want int
	}{
		{"ultima", 101}, {"ultima", 102}, {"tanbo", 101}, {"ultima", 103},
		{"tan", 101}, {"tanbo", 102},
	}
	for _, s := range steps {
		if got := next(db, s.kind); got != s.want {
			t.Errorf("NextBoard(%s) = %d, want %d", s.kind, got, s.want)
		}
	}
	// A board number that was reserved but rolled back is given again.
	db.Update(func(tx *Tx) error {
		tx.NextBoard("ultima")
		return errors.New("roll back")
	})
	db.Close()

	db, err = Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := next(db, "ultima"); got != 104 {
		t.Errorf("NextBoard(ultima) after reopen = %d, want 104", got)
	}
	if got := next(db, "tanbo"); got != 103 {
		t.Errorf("NextBoard(tanbo) after reopen = %d, want 103", got)
	}
	if err := db.Update(func(tx *Tx) error { _, err := tx.NextBoard(""); return err }); err == nil {
		t.Error("NextBoard of the empty kind succeeded")
	}
}

// A board stored without NextBoard (an import, say) must not be handed out
// again.
func TestPutGameMovesCounter(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	var n int
	update(t, db, func(tx *Tx) (err error) {
		if err := tx.PutGame(&Game{Kind: "tobit", Board: 150}); err != nil {
			return err
		}
		n, err = tx.NextBoard("tobit")
		return err
	})
	if n != 151 {
		t.Errorf("NextBoard after PutGame of board 150 = %d, want 151", n)
	}
}

func TestGameRoundTrip(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	at := time.Date(2026, 11, 22, 10, 0, 0, 123456789, time.UTC)
	g := &Game{
		Kind:     "ultima",
		Board:    101,
		Options:  []string{"-singleleap"},
		Seats:    []string{"alice", "bob"},
		StartPos: "custom",
		Moves: []Move{
			{Seat: 0, Text: "e2-e4", At: at},
			{Seat: 1, Text: "d7xd5", Captured: []string{"d5"}, At: at.Add(time.Hour), Auto: true},
		},
		Position:    "pos",
		Over:        true,
		Winner:      -1,
		EndReason:   "agreed draw",
		Comments:    []Comment{{User: "alice", Text: "gg", At: at, Move: 2}},
		Subscribers: []string{"carol"},
		Created:     at,
		Updated:     at.Add(2 * time.Hour),
		Thread:      "<ultima-101@pbem.example>",
		Extra:       map[string]string{"nagtime": "7"},
		Queue:       []Queued{{Seat: 1, User: "bob", Text: "resign", Number: 3, At: at}},
		Vote:        &Vote{Kind: "undo", Seat: 0, User: "alice", At: at, Back: 1},
		TurnSince:   at.Add(time.Hour),
		Nagged:      at.Add(3 * time.Hour),
		Notify:      []string{"dave"},
		Rated:       true,
		Ratings:     []RatingChange{{User: "alice", Old: 1600, New: 1600, Provisional: true}},
	}
	update(t, db, func(tx *Tx) error { return tx.PutGame(g) })
	db.View(func(tx *Tx) error {
		got, err := tx.Game("ultima", 101)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, g) {
			t.Errorf("Game = %+v\nwant %+v", got, g)
		}
		for _, ref := range []GameRef{{"ultima", 102}, {"tanbo", 101}, {"ULTIMA", 101}, {"", 101}} {
			if _, err := tx.Game(ref.Kind, ref.Board); !errors.Is(err, ErrNotFound) {
				t.Errorf("Game(%q, %d) error = %v, want ErrNotFound", ref.Kind, ref.Board, err)
			}
		}
		return nil
	})
}

func TestPutGameRefusesBadKeys(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	for _, g := range []*Game{
		{Kind: "", Board: 101},
		{Kind: "ultima", Board: 0},
		{Kind: "ultima", Board: -3},
		{Kind: "ul\x00tima", Board: 101},
		{Kind: "ultima", Board: 101, Seats: []string{"a\x00b"}},
	} {
		if err := db.Update(func(tx *Tx) error { return tx.PutGame(g) }); err == nil {
			t.Errorf("PutGame(%q, %d, %q) succeeded", g.Kind, g.Board, g.Seats)
		}
	}
}

func TestGamesByKindInBoardOrder(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	update(t, db, func(tx *Tx) error {
		// Out of order, and with a kind that is a prefix of another and
		// boards above 255 to catch a key that does not sort by number.
		for _, ref := range []GameRef{
			{"tanbo", 300}, {"tan", 101}, {"tanbo", 101}, {"tanbo", 256},
			{"tanbox", 101}, {"tanbo", 102}, {"ultima", 101},
		} {
			if err := tx.PutGame(&Game{Kind: ref.Kind, Board: ref.Board}); err != nil {
				return err
			}
		}
		return nil
	})
	boards := func(kind string) []int {
		var got []int
		err := db.View(func(tx *Tx) error {
			return tx.Games(kind, func(g *Game) error {
				if g.Kind != kind {
					t.Errorf("Games(%q) gave a %q board", kind, g.Kind)
				}
				got = append(got, g.Board)
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	tests := []struct {
		kind string
		want []int
	}{
		{"tanbo", []int{101, 102, 256, 300}},
		{"tan", []int{101}},
		{"tanbox", []int{101}},
		{"ultima", []int{101}},
		{"tobit", nil},
	}
	for _, tt := range tests {
		if got := boards(tt.kind); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Games(%q) boards = %v, want %v", tt.kind, got, tt.want)
		}
	}
	stop := errors.New("stop")
	err := db.View(func(tx *Tx) error {
		return tx.Games("tanbo", func(*Game) error { return stop })
	})
	if !errors.Is(err, stop) {
		t.Errorf("Games with failing fn returned %v, want its error", err)
	}
}

func TestSeatIndex(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	gamesOf := func(user string) []GameRef {
		t.Helper()
		var refs []GameRef
		db.View(func(tx *Tx) (err error) {
			refs, err = tx.GamesOf(user)
			return err
		})
		return refs
	}
	put := func(kind string, board int, seats ...string) {
		t.Helper()
		update(t, db, func(tx *Tx) error {
			g, err := tx.Game(kind, board)
			if errors.Is(err, ErrNotFound) {
				g, err = &Game{Kind: kind, Board: board}, nil
			}
			if err != nil {
				return err
			}
			g.Seats = seats
			return tx.PutGame(g)
		})
	}

	put("ultima", 101, "alice", "") // open seat
	put("tanbo", 300, "bob", "alice")
	put("tanbo", 101, "Alice", "carol")
	put("tanbo", 102, "dave", "carol")
	if got, want := gamesOf("ALICE"), []GameRef{{"tanbo", 101}, {"tanbo", 300}, {"ultima", 101}}; !reflect.DeepEqual(got, want) {
		t.Errorf("GamesOf(alice) = %v, want %v", got, want)
	}
	if got := gamesOf("bob"); !reflect.DeepEqual(got, []GameRef{{"tanbo", 300}}) {
		t.Errorf("GamesOf(bob) = %v", got)
	}
	if got := gamesOf(""); len(got) != 0 {
		t.Errorf("GamesOf(\"\") = %v; an open seat is nobody's", got)
	}
	if got := gamesOf("al"); len(got) != 0 {
		t.Errorf("GamesOf(al) = %v; a prefix of a user id is another user", got)
	}

	put("ultima", 101, "alice", "Bob") // the open seat is filled
	if got, want := gamesOf("bob"), []GameRef{{"tanbo", 300}, {"ultima", 101}}; !reflect.DeepEqual(got, want) {
		t.Errorf("after join: GamesOf(bob) = %v, want %v", got, want)
	}

	put("tanbo", 300, "erin", "alice") // bob's seat taken over by erin
	put("tanbo", 102, "carol", "dave") // seats swapped: nothing changes
	if got, want := gamesOf("bob"), []GameRef{{"ultima", 101}}; !reflect.DeepEqual(got, want) {
		t.Errorf("after seat change: GamesOf(bob) = %v, want %v", got, want)
	}
	if got, want := gamesOf("erin"), []GameRef{{"tanbo", 300}}; !reflect.DeepEqual(got, want) {
		t.Errorf("after seat change: GamesOf(erin) = %v, want %v", got, want)
	}
	if got, want := gamesOf("dave"), []GameRef{{"tanbo", 102}}; !reflect.DeepEqual(got, want) {
		t.Errorf("after swap: GamesOf(dave) = %v, want %v", got, want)
	}
	if got, want := gamesOf("carol"), []GameRef{{"tanbo", 101}, {"tanbo", 102}}; !reflect.DeepEqual(got, want) {
		t.Errorf("after swap: GamesOf(carol) = %v, want %v", got, want)
	}

	// Seats emptied again (a withdrawn challenge) leave no trace.
	put("ultima", 101, "", "")
	if got, want := gamesOf("alice"), []GameRef{{"tanbo", 101}, {"tanbo", 300}}; !reflect.DeepEqual(got, want) {
		t.Errorf("after emptying: GamesOf(alice) = %v, want %v", got, want)
	}
	if got := gamesOf("bob"); len(got) != 0 {
		t.Errorf("after emptying: GamesOf(bob) = %v, want none", got)
	}
}

// TestOldGameRecordReads checks that a record written before the life-cycle
// fields existed still reads, with those fields empty.
func TestOldGameRecordReads(t *testing.T) {
	t.Parallel()
	old := []byte(`{"Kind":"tanbo","Board":101,"Seats":["alice","bob"],"Moves":[],"Position":"p","Winner":-1}`)
	g, err := decodeGame(old)
	if err != nil {
		t.Fatal(err)
	}
	if g.Queue != nil || g.Vote != nil || !g.TurnSince.IsZero() || g.Rated || g.Ratings != nil {
		t.Errorf("an old record read with life-cycle fields set: %+v", g)
	}
}

// The index of running games, and its count, follows every PutGame, per
// kind, and is rebuilt for a file written before it existed.
func TestRunningBoards(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), FileName)
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	put := func(kind string, board int, over bool) {
		t.Helper()
		err := db.Update(func(tx *Tx) error {
			return tx.PutGame(&Game{Kind: kind, Board: board, Seats: []string{"a", "b"}, Over: over})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	running := func(kind string) []int {
		t.Helper()
		var got []int
		db.View(func(tx *Tx) error {
			got, err = tx.RunningBoards(kind)
			if n := tx.RunningCount(kind); n != len(got) {
				t.Errorf("%d %s boards running, counted %d", len(got), kind, n)
			}
			return err
		})
		return got
	}
	put("tanbo", 101, false)
	put("tanbo", 102, true)
	put("tanbo", 103, false)
	put("tobit", 101, false)
	put("tanbo", 103, true) // ended
	if got := running("tanbo"); !reflect.DeepEqual(got, []int{101}) {
		t.Errorf("running tanbo boards %v; want [101]", got)
	}
	if got := running("tobit"); !reflect.DeepEqual(got, []int{101}) {
		t.Errorf("running tobit boards %v; want [101]", got)
	}

	// A file without the indexes gets them at the next open.
	db = reopenAfter(t, db, func(btx *bolt.Tx) error {
		if err := btx.Bucket(bucketMeta).Delete(keyIndexes); err != nil {
			return err
		}
		return btx.DeleteBucket(bucketRunning)
	})
	if got := running("tanbo"); !reflect.DeepEqual(got, []int{101}) {
		t.Errorf("after reindexing, running tanbo boards %v; want [101]", got)
	}

	// A file of a pbemd that kept no counts gets them at the next open,
	// and they follow PutGame from then on.
	db = reopenAfter(t, db, func(btx *bolt.Tx) error {
		meta := btx.Bucket(bucketMeta)
		if err := meta.Delete(runningCountKey("tanbo")); err != nil {
			return err
		}
		return meta.Delete(keyRunningCounted)
	})
	defer db.Close()
	db.View(func(tx *Tx) error {
		if tx.bucket(bucketMeta).Get(keyRunningCounted) == nil {
			t.Error("no counts kept after the open")
		}
		return nil
	})
	put("tanbo", 104, false)
	if got := running("tanbo"); !reflect.DeepEqual(got, []int{101, 104}) {
		t.Errorf("running tanbo boards %v; want [101 104]", got)
	}
}

// A record planted by PutGameBytes is what a damaged file holds: reading
// the board fails with an error, and the indexes still list it.
func TestPutGameBytesPlantsDamage(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	putGame(t, db, &Game{Kind: "tanbo", Board: 101, Seats: []string{"ann", "bob"}})
	for _, junk := range [][]byte{{recordMark, 0xff, 0xff, 0xff}, []byte("{not json"), {recordMark, 4<<3 | kindBytes, 200}} {
		if err := db.Update(func(tx *Tx) error { return tx.PutGameBytes("tanbo", 101, junk) }); err != nil {
			t.Fatal(err)
		}
		db.View(func(tx *Tx) error {
			if g, err := tx.Game("tanbo", 101); err == nil {
				t.Errorf("record %q read as %+v; want an error", junk, g)
			}
			if got, _ := tx.RunningBoards("tanbo"); !reflect.DeepEqual(got, []int{101}) {
				t.Errorf("running boards %v; want [101]", got)
			}
			return nil
		})
	}
}
