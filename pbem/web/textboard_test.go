package web

import (
	"fmt"
	"testing"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
)

// A board's pieces in words are listed side by side in the order of the
// squares as drawn, top row first and each row from the left, a plain
// stone by its square alone; a piece of no seat (a drawing's error) is
// left out rather than given to a side.
func TestBySquare(t *testing.T) {
	t.Parallel()
	g, _ := catalog.Lookup("ultima")
	d := rules.Drawing{Cols: 8, Rows: 8, Pieces: []rules.Piece{
		{At: rules.Cell{Col: 4, Row: 7}, Seat: 0, Name: "king", Square: "e1"},
		{At: rules.Cell{Col: 0, Row: 6}, Seat: 0, Name: "pawn", Square: "a2"},
		{At: rules.Cell{Col: 3, Row: 0}, Seat: 1, Name: "withdrawer", Square: "d8"},
		{At: rules.Cell{Col: 1, Row: 6}, Seat: 0, Square: "b2"},
		{At: rules.Cell{Col: 2, Row: 2}, Seat: 7, Name: "<b>ghost</b>", Square: "c6"},
	}}
	got := fmt.Sprint(bySquare(g, d))
	if want := "[{White [pawn a2 b2 king e1]} {Black [withdrawer d8]}]"; got != want {
		t.Errorf("bySquare lists %s; want %s", got, want)
	}
}
