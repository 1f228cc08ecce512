// Package tanbo implements Tanbo, Mark Steere's 1993 game of growing roots
// on the points of a Go grid, with the rules docs/games.md records.
package tanbo

import (
	"strconv"
	"strings"

	"github.com/pbemd/pbemd/rules"
)

// Game is Tanbo.
var Game rules.Game = game{}

type game struct{}

func (game) Name() string            { return "tanbo" }
func (game) Title() string           { return "Tanbo" }
func (game) Aliases() []string       { return nil }
func (game) Sides() [2]string        { return [2]string{"Black", "White"} }
func (game) Options() []rules.Option { return options }

var options = []rules.Option{{
	Name:    "size",
	Values:  []string{"19", "13", "9"},
	Default: "19",
	Help:    "the board: 19x19 (the official setup), 13x13 or 9x9",
}, rules.Swap}

// Start returns the setup of the chosen size: stones of alternating colours
// on a lattice, White in the bottom left corner; on 9x9 the seed's sample.
func (game) Start(opts rules.Options) (rules.Position, error) {
	v := opts.Get("size", "19")
	size, err := strconv.Atoi(v)
	var lines []int
	switch size {
	case 19:
		lines = []int{0, 6, 12, 18}
	case 13:
		lines = []int{0, 4, 8, 12}
	case 9:
		// W b8, B h8, B b2, W h2.
		b := newBoard(9)
		b.cell[point(1, 7)] = white
		b.cell[point(7, 7)] = black
		b.cell[point(1, 1)] = black
		b.cell[point(7, 1)] = white
		b.setUp()
		return &position{b: *b}, nil
	}
	if err != nil || lines == nil {
		return nil, rules.Errorf("-size="+v, "is not a Tanbo size; sizes are 19, 13 and 9")
	}
	b := newBoard(size)
	for i, f := range lines {
		for j, r := range lines {
			if (i+j)%2 == 0 {
				b.cell[point(f, r)] = white
			} else {
				b.cell[point(f, r)] = black
			}
		}
	}
	b.setUp()
	return &position{b: *b}, nil
}

// ParsePosition reads rows from the top down separated by '/', each of b, w,
// '.' and digits for runs of empty points, then the side to move, b or w.
// The number of rows is the size. A position with a bounded root is
// refused: play never leaves one, so it could not arise in a game.
func (game) ParsePosition(text string, opts rules.Options) (rules.Position, error) {
	fields := strings.Fields(text)
	if len(fields) != 2 {
		return nil, rules.Errorf(text, "a position is rows from the top separated by / and the side to move, like %q", startNine)
	}
	rows := strings.Split(fields[0], "/")
	size := len(rows)
	if size < minSize || size > maxSize {
		return nil, rules.Errorf(text, "has %d rows; a board has %d to %d rows", size, minSize, maxSize)
	}
	b := newBoard(size)
	switch fields[1] {
	case "b":
		b.toMove = 0
	case "w":
		b.toMove = 1
	default:
		return nil, rules.Errorf(text, "the side to move is %q; it must be b or w", fields[1])
	}
	for i, row := range rows {
		cells, err := rules.ExpandRow(row, size, "bw")
		if err != nil {
			return nil, rules.Errorf(text, "row %d from the top: %v", i+1, err)
		}
		r := size - 1 - i
		for f := 0; f < size; f++ {
			switch cells[f] {
			case 'b':
				b.cell[point(f, r)] = black
			case 'w':
				b.cell[point(f, r)] = white
			}
		}
	}
	b.setUp()
	if b.stones[0] == 0 && b.stones[1] == 0 {
		return nil, rules.Errorf(text, "the board has no stones; a position needs stones of at least one colour")
	}
	for p := range b.cell {
		if c := b.cell[p]; (c == black || c == white) && int(b.rootOf[p]) == p && b.libs[p] == 0 {
			n := 0
			for s := b.head[p]; s >= 0; s = b.next[s] {
				n++
			}
			return nil, rules.Errorf(text, "the %s root at %s (%d %s) has no liberty; a position may not hold a bounded root",
				colourName[c-1], pointName(p), n, plural(n, "stone"))
		}
	}
	return &position{b: *b}, nil
}

var colourName = [2]string{"black", "white"}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

const startNine = "........./.w.....b./........./........./........./........./........./.b.....w./......... b"

// Help is the text of the "tanbo help" mail.
func (game) Help() string { return helpText() }

const help = `Tanbo (Mark Steere, 1993)

Two players, Black and White, grow roots of stones on the points of
a Go grid. Black moves first. A root is a group of stones of one
colour joined up, down, left or right.

Each turn you place one stone of your colour on an empty point that
touches (up, down, left or right) exactly one stone of your own
colour. So every new stone extends one of your roots. There is no
passing: a player with stones always has such a point (see below).

A liberty of a root is an empty point next to it where its owner
could place a stone. A root with no liberty is bounded. After each
placement:
  - if the root you just extended is bounded, it alone is removed
    (this undoes your move; other roots it bounded are freed again);
  - otherwise every bounded root of either colour is removed.
A player with no stones left has lost; you can lose by bounding your
own last root. There are no draws, and every game ends: no new root
ever forms, so the board can only fill up or lose roots.

Since no root is left without a liberty after a turn, a player who
has stones can always place one: the game never needs a pass.

Notation: a point is a letter and a number, d5; letters run from a
on the left (the letter i is used), numbers from 1 at the bottom.
Upper or lower case. The board shows Black as X, White as O.

Options:
  -size=19   the official 19x19 setup (the default): stones on files
             a g m s and ranks 1 7 13 19, colours alternating,
             White on a1
  -size=13   13x13: files a e i m, ranks 1 5 9 13, White on a1
  -size=9    9x9: White b8 h2, Black h8 b2
  -swap      the pie rule, against Black's big first-move advantage:
             after Black's first stone, White may answer "swap" (tanbo
             move 101 bob secret swap) and play Black from then on;
             the first player then plays White

Example: tanbo move 101 alice secret d5
`
