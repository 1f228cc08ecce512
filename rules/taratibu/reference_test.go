package taratibu_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules"
)

// ref is a slow, plain second reading of the rules, written apart from the
// package's tables and bitsets, to check Perft and the turn logic against.
type ref struct {
	cells [8][8]byte // [file][rank], 1-based; 0 for empty
	side  byte       // 'w' or 'b'
	turn  int
	made  int
	done  [8][8]bool // squares of pieces that captured this turn
	over  bool
}

// refPowers are the moves of each piece letter as (file, rank) offsets,
// straight from the seed's table of orders.
var refPowers = func() map[byte][][2]int {
	diag1 := [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	orth1 := [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	diag2 := [][2]int{{2, 2}, {2, -2}, {-2, 2}, {-2, -2}}
	orth2 := [][2]int{{2, 0}, {-2, 0}, {0, 2}, {0, -2}}
	knight := [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	join := func(a, b [][2]int) [][2]int { return append(append([][2]int{}, a...), b...) }
	return map[byte][][2]int{
		'S': join(diag2, knight), // Sphinx: winged, quadruped
		'E': join(diag1, knight), // Elk: basic, quadruped
		'B': join(diag2, diag1),  // Bird: winged, basic
		'A': join(diag2, orth1),  // Angel: winged, human
		'F': join(orth2, diag1),  // Fish: aquatic, basic
		'M': join(orth1, diag1),  // Man: human, basic
		'D': join(diag2, orth2),  // Duck: winged, aquatic
		'C': join(orth1, orth2),  // Captain: human, aquatic
		'T': join(orth2, knight), // Turtle: aquatic, quadruped
		'H': join(orth1, knight), // Hero: human, quadruped
	}
}()

func refParse(t *testing.T, text string) *ref {
	t.Helper()
	f := strings.Fields(text)
	r := &ref{side: f[1][0]}
	for i, row := range strings.Split(f[0], "/") {
		cells, err := rules.ExpandRow(row, 7, "SEBAFMDCTHsebafmdcth")
		if err != nil {
			t.Fatal(err)
		}
		for file := 1; file <= 7; file++ {
			if c := cells[file-1]; c != '.' {
				r.cells[file][7-i] = c
			}
		}
	}
	r.turn, _ = strconv.Atoi(f[2])
	r.made, _ = strconv.Atoi(f[3])
	if f[4] != "-" {
		for _, s := range strings.Split(f[4], ",") {
			n, _ := strconv.Atoi(s)
			r.done[n/10][n%10] = true
		}
	}
	r.over = r.lost(true) || r.lost(false)
	return r
}

func (r *ref) own(c byte) bool {
	return c != 0 && (c >= 'a') == (r.side == 'b')
}

func (r *ref) anyMove() bool {
	for f := 1; f <= 7; f++ {
		for k := 1; k <= 7; k++ {
			c := r.cells[f][k]
			if !r.own(c) || r.done[f][k] {
				continue
			}
			for _, d := range refPowers[c&^0x20] {
				nf, nk := f+d[0], k+d[1]
				if nf >= 1 && nf <= 7 && nk >= 1 && nk <= 7 && !r.own(r.cells[nf][nk]) {
					return true
				}
			}
		}
	}
	return false
}

func (r *ref) moves() [][4]int {
	var out [][4]int
	for f := 1; f <= 7; f++ {
		for k := 1; k <= 7; k++ {
			c := r.cells[f][k]
			if !r.own(c) || r.done[f][k] {
				continue
			}
			for _, d := range refPowers[c&^0x20] {
				nf, nk := f+d[0], k+d[1]
				if nf < 1 || nf > 7 || nk < 1 || nk > 7 || r.own(r.cells[nf][nk]) {
					continue
				}
				out = append(out, [4]int{f, k, nf, nk})
			}
		}
	}
	return out
}

// lost reports whether the side whose letters are upper (or not) has lost
// its Man and a whole aquatic, quadruped or winged order.
func (r *ref) lost(upper bool) bool {
	var have [128]bool
	for f := 1; f <= 7; f++ {
		for k := 1; k <= 7; k++ {
			if c := r.cells[f][k]; c != 0 && (c < 'a') == upper {
				have[c&^0x20] = true
			}
		}
	}
	if have['M'] {
		return false
	}
	for _, set := range []string{"CDFT", "SETH", "SBAD"} {
		gone := true
		for i := range set {
			if have[set[i]] {
				gone = false
			}
		}
		if gone {
			return true
		}
	}
	return false
}

func (r *ref) play(m [4]int) *ref {
	q := *r
	c := q.cells[m[0]][m[1]]
	if q.cells[m[2]][m[3]] != 0 {
		q.done[m[2]][m[3]] = true
	}
	q.cells[m[2]][m[3]] = c
	q.cells[m[0]][m[1]] = 0
	if q.lost(q.side == 'b') {
		q.over = true
		return &q
	}
	q.made++
	for q.made == q.turn || !q.anyMove() {
		if q.turn == 10 {
			q.over = true
			break
		}
		q.turn++
		q.made = 0
		q.done = [8][8]bool{}
		q.side = map[byte]byte{'w': 'b', 'b': 'w'}[q.side]
	}
	return &q
}

func (r *ref) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if r.over {
		return 0
	}
	var n uint64
	for _, m := range r.moves() {
		n += r.play(m).perft(depth - 1)
	}
	return n
}
