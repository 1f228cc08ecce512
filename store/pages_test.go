package store

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// GamesBefore pages through one kind's boards newest first, never into the
// boards of the kinds beside it.
func TestGamesBefore(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	err := db.Update(func(tx *Tx) error {
		for _, kind := range []string{"tanbo", "taratibu", "tobit"} {
			for i := 0; i < 5; i++ {
				n, err := tx.NextBoard(kind)
				if err != nil {
					return err
				}
				if err := tx.PutGame(&Game{Kind: kind, Board: n, Seats: []string{"a", "b"}}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	boards := func(kind string, before, n int) string {
		var got []int
		err := db.View(func(tx *Tx) error {
			gs, err := tx.GamesBefore(kind, before, n)
			for _, g := range gs {
				if g.Kind != kind {
					t.Errorf("GamesBefore(%s) returned a %s board", kind, g.Kind)
				}
				got = append(got, g.Board)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(got)
	}
	for _, c := range []struct {
		kind      string
		before, n int
		want      string
	}{
		{"taratibu", 106, 3, "[105 104 103]"},
		{"taratibu", 103, 3, "[102 101]"},
		{"taratibu", 101, 3, "[]"},
		{"taratibu", 1 << 40, 10, "[105 104 103 102 101]"},
		{"tobit", 1000, 2, "[105 104]"}, // the last kind in the bucket
		{"tanbo", 1000, 9, "[105 104 103 102 101]"},
		{"ultima", 1000, 9, "[]"},
		{"taratibu", 105, 0, "[]"},
	} {
		if got := boards(c.kind, c.before, c.n); got != c.want {
			t.Errorf("GamesBefore(%s, %d, %d) = %s, want %s", c.kind, c.before, c.n, got, c.want)
		}
	}
	db.View(func(tx *Tx) error {
		if n := tx.LastBoard("tobit"); n != 105 {
			t.Errorf("LastBoard(tobit) = %d, want 105", n)
		}
		if n := tx.LastBoard("ultima"); n != 0 {
			t.Errorf("LastBoard(ultima) = %d, want 0", n)
		}
		return nil
	})
}

// A board's head says what its record says, moves counted.
func TestGameHead(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	ended := time.Date(2026, 11, 2, 3, 4, 5, 0, time.UTC)
	started := ended.Add(-48 * time.Hour)
	g := &Game{Kind: "tanbo", Board: 101, Seats: []string{"ann", "bo"}, ToMove: 1, Over: true, Winner: 0,
		Withdrawn: "bo", Moves: []Move{{Text: "a1"}, {Text: "b2"}, {Text: "c3"}}, Updated: ended, EndReason: "resigned",
		Options: []string{"-size=9"}, Created: started, Extra: map[string]string{"pending": "bo"},
		Comments: []Comment{{User: "ann", Text: "gg"}}, Position: "a long position"}
	putGame(t, db, g)
	db.View(func(tx *Tx) error {
		h, err := tx.GameHead("tanbo", 101)
		want := &GameHead{Kind: "tanbo", Board: 101, Seats: []string{"ann", "bo"}, ToMove: 1, Over: true, Winner: 0, Withdrawn: "bo", Moves: 3, Updated: ended, EndReason: "resigned",
			Options: []string{"-size=9"}, Created: started, Extra: map[string]string{"pending": "bo"}}
		if err != nil || !reflect.DeepEqual(h, want) {
			t.Errorf("GameHead = %+v, %v; want %+v", h, err, want)
		}
		if _, err := tx.GameHead("tanbo", 102); !errors.Is(err, ErrNotFound) {
			t.Errorf("the head of no board: %v; want ErrNotFound", err)
		}
		return nil
	})
}
