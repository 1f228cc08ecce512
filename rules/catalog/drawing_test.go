package catalog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules"
)

// Every game draws every position of a game: each piece of its position
// text once, on a cell of its grid, no two on one cell, and the cells the
// last move touched as the notation names them.
func TestDrawings(t *testing.T) {
	marks := map[string]func(move string) int{
		"ultima": func(m string) int {
			if strings.HasSuffix(m, "-off") {
				return 1
			}
			return 2
		},
		"tanbo":    func(string) int { return 1 },
		"taratibu": func(string) int { return 2 },
		"tobit": func(m string) int {
			return len(strings.FieldsFunc(m, func(r rune) bool { return r == '-' || r == 'x' }))
		},
	}
	for _, g := range All() {
		opts, _ := rules.ParseOptions(g, nil)
		pos, err := g.Start(opts)
		if err != nil {
			t.Fatal(err)
		}
		last := ""
		for ply := 0; ply < 120 && !pos.Result().Over; ply++ {
			checkDrawing(t, g, pos, last, marks[g.Name()])
			legal := pos.Legal()
			last = legal[(ply*7)%len(legal)]
			if _, err := pos.Play(last); err != nil {
				t.Fatal(err)
			}
		}
		checkDrawing(t, g, pos, last, marks[g.Name()])
	}
}

func checkDrawing(t *testing.T, g rules.Game, pos rules.Position, last string, marks func(string) int) {
	t.Helper()
	dr, ok := pos.(rules.Drawer)
	if !ok {
		t.Fatalf("%s positions do not draw", g.Name())
	}
	d := dr.Draw(last)
	in := func(c rules.Cell) bool { return c.Col >= 0 && c.Col < d.Cols && c.Row >= 0 && c.Row < d.Rows }
	taken := map[rules.Cell]bool{}
	got := map[byte]int{}
	for _, p := range d.Pieces {
		if !in(p.At) || taken[p.At] {
			t.Fatalf("%s %s: piece %+v off the grid or on a taken cell", g.Name(), pos, p)
		}
		taken[p.At] = true
		got[p.Letter]++
	}
	want := map[byte]int{}
	board, _, _ := strings.Cut(pos.String(), " ")
	for i := 0; i < len(board); i++ {
		if c := board[i]; c != '/' && c != '.' && (c < '0' || c > '9') {
			want[c]++
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s %s: drawn pieces %v, position holds %v", g.Name(), pos, got, want)
	}
	wantMarks := 0
	if last != "" {
		wantMarks = marks(last)
	}
	if len(d.Last) != wantMarks {
		t.Fatalf("%s %s after %s: %d cells marked, want %d", g.Name(), pos, last, len(d.Last), wantMarks)
	}
	for _, c := range d.Last {
		if !in(c) {
			t.Fatalf("%s after %s: marked cell %+v off the grid", g.Name(), last, c)
		}
	}
}

// A last move that is no move of the game marks nothing, and draws no less.
func TestDrawingHostileLast(t *testing.T) {
	for _, g := range All() {
		opts, _ := rules.ParseOptions(g, nil)
		pos, _ := g.Start(opts)
		for _, last := range []string{"a99-q0x999 7799", "Z", "-", "x0x39x", strings.Repeat("9", 4000)} {
			checkDrawing(t, g, pos, last, func(string) int { return 0 })
		}
	}
}
