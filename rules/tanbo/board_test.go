package tanbo

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// grid is the plain model of a Tanbo board the incremental board is checked
// against: g[r][f] is '.', 'b' or 'w', every rule worked out from scratch.
type grid struct {
	n int
	g [][]byte
}

func gridOf(b *board) *grid {
	gr := &grid{n: b.size, g: make([][]byte, b.size)}
	for r := range gr.g {
		gr.g[r] = make([]byte, b.size)
		for f := range gr.g[r] {
			gr.g[r][f] = ".bw"[b.cell[point(f, r)]]
		}
	}
	return gr
}

type pt struct{ f, r int }

func (gr *grid) neighbours(p pt) []pt {
	var out []pt
	for _, d := range []pt{{0, -1}, {-1, 0}, {1, 0}, {0, 1}} {
		q := pt{p.f + d.f, p.r + d.r}
		if q.f >= 0 && q.f < gr.n && q.r >= 0 && q.r < gr.n {
			out = append(out, q)
		}
	}
	return out
}

func (gr *grid) at(p pt) byte { return gr.g[p.r][p.f] }

// canPlace is the placement rule: empty, next to exactly one stone of c.
func (gr *grid) canPlace(p pt, c byte) bool {
	if gr.at(p) != '.' {
		return false
	}
	n := 0
	for _, q := range gr.neighbours(p) {
		if gr.at(q) == c {
			n++
		}
	}
	return n == 1
}

// root is the set of stones joined to p.
func (gr *grid) root(p pt) []pt {
	c := gr.at(p)
	seen := map[pt]bool{p: true}
	stack := []pt{p}
	var out []pt
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, s)
		for _, q := range gr.neighbours(s) {
			if gr.at(q) == c && !seen[q] {
				seen[q] = true
				stack = append(stack, q)
			}
		}
	}
	return out
}

// liberties counts the empty points next to the root where its owner could
// place.
func (gr *grid) liberties(root []pt) int {
	c := gr.at(root[0])
	libs := map[pt]bool{}
	for _, s := range root {
		for _, q := range gr.neighbours(s) {
			if gr.canPlace(q, c) {
				libs[q] = true
			}
		}
	}
	return len(libs)
}

// roots lists every root on the board.
func (gr *grid) roots() [][]pt {
	seen := map[pt]bool{}
	var out [][]pt
	for r := 0; r < gr.n; r++ {
		for f := 0; f < gr.n; f++ {
			p := pt{f, r}
			if gr.at(p) == '.' || seen[p] {
				continue
			}
			root := gr.root(p)
			for _, s := range root {
				seen[s] = true
			}
			out = append(out, root)
		}
	}
	return out
}

// play applies the placement and removal rules the plain way.
func (gr *grid) play(p pt, c byte) {
	gr.g[p.r][p.f] = c
	ext := gr.root(p)
	if gr.liberties(ext) == 0 {
		for _, s := range ext {
			gr.g[s.r][s.f] = '.'
		}
		return
	}
	var bounded [][]pt
	for _, root := range gr.roots() {
		if gr.liberties(root) == 0 {
			bounded = append(bounded, root)
		}
	}
	for _, root := range bounded {
		for _, s := range root {
			gr.g[s.r][s.f] = '.'
		}
	}
}

// checkBooks compares the board's bookkeeping with the plain model.
func checkBooks(t *testing.T, b *board) {
	t.Helper()
	gr := gridOf(b)
	var stones [2]int16
	for _, root := range gr.roots() {
		c := gr.at(root[0])
		colour := 0
		if c == 'w' {
			colour = 1
		}
		stones[colour] += int16(len(root))
		id := b.rootOf[point(root[0].f, root[0].r)]
		var members []int
		for s := b.head[id]; s >= 0; s = b.next[s] {
			members = append(members, int(s))
		}
		var want []int
		for _, s := range root {
			if b.rootOf[point(s.f, s.r)] != id {
				t.Fatalf("stones %v and %v of one root have root ids %d and %d", root[0], s, id, b.rootOf[point(s.f, s.r)])
			}
			want = append(want, point(s.f, s.r))
		}
		slices.Sort(members)
		slices.Sort(want)
		if !slices.Equal(members, want) {
			t.Fatalf("root %d lists stones %v, want %v", id, members, want)
		}
		if libs := gr.liberties(root); int(b.libs[id]) != libs {
			t.Fatalf("root %d at %v has %d liberties, want %d", id, root[0], b.libs[id], libs)
		}
		if b.libs[id] == 0 {
			t.Fatalf("root %d at %v is bounded after a turn", id, root[0])
		}
	}
	if stones != b.stones {
		t.Fatalf("stone counts %v, want %v", b.stones, stones)
	}
	for c, colour := range []byte("bw") {
		var want, got []int
		for r := 0; r < gr.n; r++ {
			for f := 0; f < gr.n; f++ {
				if gr.canPlace(pt{f, r}, colour) {
					want = append(want, point(f, r))
				}
			}
		}
		for _, p := range b.libPts[c][:b.nlib[c]] {
			got = append(got, int(p))
			if b.libIdx[c][p] < 0 || b.libPts[c][b.libIdx[c][p]] != p {
				t.Fatalf("liberty list of colour %d and its index disagree at %d", c, p)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("placements of colour %d are %v, want %v", c, got, want)
		}
	}
}

// TestRandomGames plays random games to the end on every size and, after
// each placement, checks the position and the bookkeeping against the plain
// model.
func TestRandomGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	games := map[string]int{"5": 40, "9": 20, "13": 4, "19": 2}
	if testing.Short() {
		games = map[string]int{"5": 10, "9": 4, "13": 1, "19": 1}
	}
	sizes := []string{"5", "9", "13", "19"}
	selfBounded, bothBounded := 0, 0
	for _, size := range sizes {
		for i := 0; i < games[size]; i++ {
			var b *board
			if size == "5" {
				b = &parse(t, "w...b/...../...../...../b...w b").(*position).b
			} else {
				b = &start(t, size).(*position).b
			}
			checkBooks(t, b)
			moves := 0
			for !b.over() {
				c := b.toMove
				p := int(b.libPts[c][rng.IntN(b.nlib[c])])
				gr := gridOf(b)
				f, r := fileRank(p)
				gr.play(pt{f, r}, "bw"[c])
				before := b.stones
				b.place(p)
				moves++
				switch {
				case b.cell[p] == empty:
					selfBounded++
				case b.stones[c] < before[c]+1 && b.stones[1-c] < before[1-c]:
					bothBounded++
				}
				if got, want := gridOf(b), gr; !slices.EqualFunc(got.g, want.g, slices.Equal) {
					t.Fatalf("size %s game %d move %d at %s: board %q, want %q", size, i, moves, pointName(p), got.g, want.g)
				}
				checkBooks(t, b)
				if b.toMove == c {
					t.Fatalf("turn did not pass")
				}
			}
		}
	}
	// The games must have tried both ways of removing.
	if selfBounded == 0 || bothBounded == 0 {
		t.Errorf("%d self-bounding moves, %d moves bounding roots of both colours; want some of each", selfBounded, bothBounded)
	}
	t.Logf("%d self-bounding moves, %d moves bounding roots of both colours", selfBounded, bothBounded)
}

// TestPerft checks the board's perft against counting placements on the
// plain model.
func TestPerft(t *testing.T) {
	var count func(gr *grid, c byte, depth int) uint64
	count = func(gr *grid, c byte, depth int) uint64 {
		if depth == 0 {
			return 1
		}
		var has [2]bool
		for _, row := range gr.g {
			has[0] = has[0] || slices.Contains(row, 'b')
			has[1] = has[1] || slices.Contains(row, 'w')
		}
		if !has[0] || !has[1] {
			return 0
		}
		other := byte('b')
		if c == 'b' {
			other = 'w'
		}
		var n uint64
		for r := 0; r < gr.n; r++ {
			for f := 0; f < gr.n; f++ {
				if !gr.canPlace(pt{f, r}, c) {
					continue
				}
				child := &grid{n: gr.n}
				for _, row := range gr.g {
					child.g = append(child.g, slices.Clone(row))
				}
				child.play(pt{f, r}, c)
				n += count(child, other, depth-1)
			}
		}
		return n
	}
	for _, text := range legalPositions[1:] {
		b := &parse(t, text).(*position).b
		maxDepth := 3
		if b.size > 5 {
			maxDepth = 2
		}
		for depth := 0; depth <= maxDepth; depth++ {
			if got, want := b.perft(depth), count(gridOf(b), "bw"[b.toMove], depth); got != want {
				t.Errorf("%s: perft(%d) = %d, want %d", text, depth, got, want)
			}
		}
	}
}
