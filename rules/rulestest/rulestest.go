// Package rulestest holds the checks every game's tests share: the public test
// vectors, and the round trips of moves and positions that fuzz tests use.
package rulestest

import (
	_ "embed"
	"encoding/json"
	"sort"
	"strconv"
	"testing"

	"github.com/pbemd/pbemd/rules"
)

// vectorsJSON is the public test vectors, testdata/vectors.json; its
// README.md describes the fields.
//
//go:embed testdata/vectors.json
var vectorsJSON []byte

// Vector is one case of the public test vectors (testdata/vectors.json).
type Vector struct {
	Game     string   `json:"game"`
	Name     string   `json:"name"`
	Params   []string `json:"params"`
	Position string   `json:"position"`
	Moves    []string `json:"moves"`
	Expect   struct {
		Position         string            `json:"position"`
		Result           *string           `json:"result"`
		Legal            []string          `json:"legal"`
		Perft            map[string]uint64 `json:"perft"`
		IllegalMoveIndex *int              `json:"illegal_move_index"`
	} `json:"expect"`
}

// Vectors returns the public vectors of game g. They are embedded in this
// package, so they run on any checkout.
func Vectors(t testing.TB, g rules.Game) []Vector {
	t.Helper()
	var all []Vector
	if err := json.Unmarshal(vectorsJSON, &all); err != nil {
		t.Fatalf("testdata/vectors.json: %v", err)
	}
	var mine []Vector
	for _, v := range all {
		if v.Game == g.Name() {
			mine = append(mine, v)
		}
	}
	if len(mine) == 0 {
		t.Fatalf("testdata/vectors.json has no vectors for %s", g.Name())
	}
	return mine
}

// RunVectors checks every public vector of game g through the rules interface.
func RunVectors(t *testing.T, g rules.Game) {
	for _, v := range Vectors(t, g) {
		t.Run(v.Name, func(t *testing.T) { checkVector(t, g, v) })
	}
}

func checkVector(t *testing.T, g rules.Game, v Vector) {
	opts, err := rules.ParseOptions(g, v.Params)
	if err != nil {
		t.Fatalf("params %q: %v", v.Params, err)
	}
	var pos rules.Position
	if v.Position != "" {
		pos, err = g.ParsePosition(v.Position, opts)
	} else {
		pos, err = g.Start(opts)
	}
	if err != nil {
		t.Fatalf("setting up: %v", err)
	}
	for i, m := range v.Moves {
		_, err := pos.Play(m)
		if want := v.Expect.IllegalMoveIndex; want != nil && i == *want {
			if err == nil {
				t.Fatalf("move %d %q was accepted; it must be refused", i, m)
			}
			return
		}
		if err != nil {
			t.Fatalf("move %d %q refused: %v", i, m, err)
		}
	}
	if v.Expect.IllegalMoveIndex != nil {
		t.Fatalf("all moves accepted; move %d must be refused", *v.Expect.IllegalMoveIndex)
	}
	if want := v.Expect.Position; want != "" && pos.String() != want {
		t.Errorf("position\n got %s\nwant %s", pos.String(), want)
	}
	if want := v.Expect.Result; want != nil {
		if got := ResultName(g, pos.Result()); got != *want {
			t.Errorf("result %q, want %q", got, *want)
		}
	}
	if want := v.Expect.Legal; want != nil {
		got := pos.Legal()
		sort.Strings(got)
		want = append([]string(nil), want...)
		sort.Strings(want)
		if !equal(got, want) {
			t.Errorf("legal moves\n got %q\nwant %q", got, want)
		}
	}
	for depth, want := range v.Expect.Perft {
		d, err := strconv.Atoi(depth)
		if err != nil {
			t.Fatalf("perft depth %q: %v", depth, err)
		}
		if got := pos.Perft(d); got != want {
			t.Errorf("perft(%d) = %d, want %d", d, got, want)
		}
	}
}

// ResultName is the result as vectors and -json write it: "", "draw", or the
// winner's side in lower case.
func ResultName(g rules.Game, r rules.Result) string {
	switch {
	case !r.Over:
		return ""
	case r.Winner == rules.Draw:
		return "draw"
	default:
		return lower(g.Sides()[r.Winner])
	}
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// CheckPositionText is the fuzz check of a position parser: text must not
// panic the parser, and an accepted position must print a text that reads
// back to the same position.
func CheckPositionText(t *testing.T, g rules.Game, opts rules.Options, text string) {
	pos, err := g.ParsePosition(text, opts)
	if err != nil {
		return
	}
	printed := pos.String()
	again, err := g.ParsePosition(printed, opts)
	if err != nil {
		t.Fatalf("position %q printed as %q, which is refused: %v", text, printed, err)
	}
	if again.String() != printed {
		t.Fatalf("position %q printed as %q, read back as %q", text, printed, again.String())
	}
	pos.Board()
	pos.Legal()
}

// CheckMoveText is the fuzz check of a move parser: text must not panic Play
// on a copy of pos, a refused move must leave the position unchanged, and an
// accepted move's canonical form must play to the same position.
func CheckMoveText(t *testing.T, pos rules.Position, text string) {
	before := pos.String()
	p := pos.Clone()
	steps, err := p.Play(text)
	if err != nil {
		if p.String() != before {
			t.Fatalf("refused move %q changed the position from %q to %q", text, before, p.String())
		}
		return
	}
	q := pos.Clone()
	for _, s := range steps {
		if _, err := q.Play(s.Move); err != nil {
			t.Fatalf("move %q accepted, but its canonical form %q is refused: %v", text, s.Move, err)
		}
	}
	if q.String() != p.String() {
		t.Fatalf("move %q gives %q, its canonical form gives %q", text, p.String(), q.String())
	}
}

// CheckLegal plays every legal move of pos on a copy: each must be accepted
// in its canonical form and print back unchanged, and Perft(1) must count them.
func CheckLegal(t *testing.T, pos rules.Position) {
	t.Helper()
	legal := pos.Legal()
	for _, m := range legal {
		p := pos.Clone()
		steps, err := p.Play(m)
		if err != nil {
			t.Errorf("legal move %q refused: %v", m, err)
			continue
		}
		if len(steps) != 1 || steps[0].Move != m {
			t.Errorf("legal move %q played as %v", m, steps)
		}
	}
	if n := pos.Perft(1); n != uint64(len(legal)) {
		t.Errorf("Perft(1) = %d but Legal lists %d moves", n, len(legal))
	}
	if n := pos.Perft(0); n != 1 {
		t.Errorf("Perft(0) = %d; the empty sequence is the one sequence of depth 0", n)
	}
	if n := pos.Perft(-1); n != 0 {
		t.Errorf("Perft(-1) = %d; no sequence has a negative length", n)
	}
}
