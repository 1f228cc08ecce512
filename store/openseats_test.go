package store

import (
	"reflect"
	"testing"
	"time"
)

// SeekingBoards lists a user's boards that wait for a player: not one
// that is full, over, of another kind, or of a user whose id begins his;
// a board filled, ended or opened again leaves or joins the list in the
// transaction that wrote it; most bounds the list.
func TestSeekingBoards(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	g := func(kind string, board int, seats ...string) *Game {
		return &Game{Kind: kind, Board: board, Seats: seats, Updated: t0}
	}
	putGame(t, db, g("tanbo", 101, "ann", ""))
	putGame(t, db, g("tanbo", 102, "ann", "bob"))
	ended := g("tanbo", 103, "", "ann") // ended with a seat empty: not a seek
	ended.Over = true
	putGame(t, db, ended)
	putGame(t, db, g("tanbo", 104, "ann", ""))
	putGame(t, db, g("tobit", 101, "ann", ""))
	putGame(t, db, g("tanbo", 105, "annie", ""))
	putGame(t, db, g("tanbo", 106, "", "bob"))

	boards := func(tx *Tx, user, kind string, most int) []int {
		var nums []int
		for _, r := range tx.SeekingBoards(user, kind, most) {
			if r.Kind != kind {
				t.Errorf("SeekingBoards(%s, %s) gave a board of %s", user, kind, r.Kind)
			}
			nums = append(nums, r.Board)
		}
		return nums
	}
	db.View(func(tx *Tx) error {
		for _, c := range []struct {
			user, kind string
			most       int
			want       []int
		}{
			{"ann", "tanbo", 10, []int{101, 104}},
			{"ANN", "tanbo", 10, []int{101, 104}},
			{"ann", "tanbo", 1, []int{101}},
			{"ann", "tobit", 10, []int{101}},
			{"an", "tanbo", 10, nil},
			{"bob", "tanbo", 10, []int{106}},
			{"cy", "tanbo", 10, nil},
			{"", "tanbo", 10, nil},
		} {
			if got := boards(tx, c.user, c.kind, c.most); !reflect.DeepEqual(got, c.want) {
				t.Errorf("SeekingBoards(%q, %q, %d) = %v; want %v", c.user, c.kind, c.most, got, c.want)
			}
		}
		return nil
	})
	err := db.Update(func(tx *Tx) error {
		if err := tx.PutGame(g("tanbo", 101, "ann", "cy")); err != nil { // filled
			return err
		}
		over := g("tanbo", 104, "ann", "")
		over.Over = true
		if err := tx.PutGame(over); err != nil {
			return err
		}
		if err := tx.PutGame(g("tanbo", 102, "ann", "")); err != nil { // bob withdrew
			return err
		}
		if got := boards(tx, "ann", "tanbo", 10); !reflect.DeepEqual(got, []int{102}) {
			t.Errorf("in the transaction that changed them, ann seeks on %v; want [102]", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
