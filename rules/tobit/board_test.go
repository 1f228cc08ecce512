package tobit

import (
	"math/rand/v2"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// drawing is the board of docs/games.md, the decision on numbering and lines.
const drawing = `
            34    35    36    37    38
             |     |     |     |     |
  27 ------ 28 -- 29 -- 30 -- 31 -- 32 ------ 33
             |     |     |     |     |
  20 ------ 21 -- 22 -- 23 -- 24 -- 25 ------ 26
             |     |     |     |     |
  13 ------ 14 -- 15 -- 16 -- 17 -- 18 ------ 19
             |     |     |     |     |
   6 ------  7 --  8 --  9 -- 10 -- 11 ------ 12
             |     |     |     |     |
             1     2     3     4     5
`

// TestLinesMatchDrawing reads the lines off the drawing and compares them
// with the direction table.
func TestLinesMatchDrawing(t *testing.T) {
	type token struct{ n, start, end int } // end is the last digit's column
	lines := strings.Split(strings.Trim(drawing, "\n"), "\n")
	tokens := make([][]token, len(lines))
	for i, line := range lines {
		for j := 0; j < len(line); j++ {
			if line[j] < '0' || line[j] > '9' {
				continue
			}
			k := j
			for k < len(line) && line[k] >= '0' && line[k] <= '9' {
				k++
			}
			n, _ := strconv.Atoi(line[j:k])
			tokens[i] = append(tokens[i], token{n, j, k - 1})
			j = k
		}
	}
	var want [numPoints + 1][4]uint8
	join := func(a, b, dir int) {
		want[a][dir] = uint8(b)
		want[b][opposite(dir)] = uint8(a)
	}
	for i, row := range tokens {
		for j, tok := range row {
			if j+1 < len(row) {
				between := strings.TrimSpace(lines[i][tok.end+1 : row[j+1].start])
				if between != "" && strings.Trim(between, "-") == "" {
					join(tok.n, row[j+1].n, east)
				}
			}
			if i+2 < len(lines) && tok.end < len(lines[i+1]) && lines[i+1][tok.end] == '|' {
				for _, below := range tokens[i+2] {
					if below.start <= tok.end && tok.end <= below.end {
						join(tok.n, below.n, south) // the drawing has Black on top
					}
				}
			}
		}
	}
	if want != next {
		for p := range want {
			if want[p] != next[p] {
				t.Errorf("point %d: table %v, drawing %v (north, east, south, west)", p, next[p], want[p])
			}
		}
	}
	edges := 0
	for p := range next {
		for d := range next[p] {
			if next[p][d] != 0 {
				edges++
			}
		}
	}
	if edges != 2*(5*5+4*6) {
		t.Errorf("%d directed links, want %d: five chols of 5 links, four rows of 6", edges, 2*(5*5+4*6))
	}
}

// The reference rules: a slow, separate reading of the rules on a grid of
// rows and columns, to check the fast generator against.

type cell struct{ r, c int }

func onBoard(x cell) bool {
	switch {
	case x.r == 0 || x.r == 5:
		return x.c >= 1 && x.c <= 5
	case x.r >= 1 && x.r <= 4:
		return x.c >= 0 && x.c <= 6
	}
	return false
}

// linked reports whether a line joins x to its neighbour y.
func linked(x, y cell) bool {
	if !onBoard(x) || !onBoard(y) {
		return false
	}
	if x.c == y.c && (x.r-y.r == 1 || y.r-x.r == 1) {
		return x.c >= 1 && x.c <= 5
	}
	if x.r == y.r && (x.c-y.c == 1 || y.c-x.c == 1) {
		return x.r >= 1 && x.r <= 4
	}
	return false
}

func number(x cell) int {
	n := 0
	for r := 0; r <= 5; r++ {
		for c := 0; c <= 6; c++ {
			if onBoard(cell{r, c}) {
				n++
				if (cell{r, c}) == x {
					return n
				}
			}
		}
	}
	return 0
}

var steps = [4]cell{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}

type refBoard map[cell]byte // 'w', 'W', 'b', 'B'; missing is empty

func refMoves(b refBoard, side byte) []string {
	var caps, plain []string
	for x, pc := range b {
		if pc|0x20 != side {
			continue
		}
		lifted := refBoard{}
		for k, v := range b {
			if k != x {
				lifted[k] = v
			}
		}
		caps = append(caps, refCaptures(lifted, x, pc, -1, strconv.Itoa(number(x)), 0)...)
		king := pc != side
		for d, s := range steps {
			if !king && ((side == 'w' && d == 2) || (side == 'b' && d == 0)) {
				continue // never backward
			}
			for y := (cell{x.r + s.r, x.c + s.c}); linked(cell{y.r - s.r, y.c - s.c}, y); y = (cell{y.r + s.r, y.c + s.c}) {
				if b[y] != 0 {
					break
				}
				plain = append(plain, strconv.Itoa(number(x))+"-"+strconv.Itoa(number(y)))
				if !king {
					break
				}
			}
		}
	}
	if len(caps) > 0 {
		return caps
	}
	return plain
}

// refCaptures lists the complete capture sequences of the piece pc, lifted
// from the board, standing on x, having jumped last in direction last.
func refCaptures(b refBoard, x cell, pc byte, last int, path string, taken int) []string {
	king := pc < 'a'
	var out []string
	for d, s := range steps {
		if last >= 0 && d == (last+2)%4 {
			continue
		}
		y := cell{x.r + s.r, x.c + s.c}
		for king && linked(cell{y.r - s.r, y.c - s.c}, y) && b[y] == 0 {
			y = cell{y.r + s.r, y.c + s.c}
		}
		if !linked(cell{y.r - s.r, y.c - s.c}, y) || b[y] == 0 || b[y]|0x20 == pc|0x20 {
			continue
		}
		for z := (cell{y.r + s.r, y.c + s.c}); linked(cell{z.r - s.r, z.c - s.c}, z) && b[z] == 0; z = (cell{z.r + s.r, z.c + s.c}) {
			nb := refBoard{}
			for k, v := range b {
				nb[k] = v
			}
			delete(nb, y)
			p := path + "x" + strconv.Itoa(number(z))
			if !king && ((pc == 'w' && z.r == 5) || (pc == 'b' && z.r == 0)) {
				out = append(out, p) // promoted: the capture ends
			} else {
				out = append(out, refCaptures(nb, z, pc, d, p, taken+1)...)
			}
			if !king {
				break
			}
		}
	}
	if len(out) == 0 && taken > 0 {
		out = append(out, path)
	}
	return out
}

func refBoardOf(b *board) refBoard {
	rb := refBoard{}
	for r := 0; r <= 5; r++ {
		for c := 0; c <= 6; c++ {
			if x := (cell{r, c}); onBoard(x) && b.sq[number(x)] != empty {
				rb[x] = letter(b.sq[number(x)])
			}
		}
	}
	return rb
}

// randomBoard puts up to 12 pieces of each side on random points.
func randomBoard(rng *rand.Rand) board {
	var b board
	for s := 0; s < 2; s++ {
		for n := rng.IntN(13); n > 0; n-- {
			p := 1 + rng.IntN(numPoints)
			piece := uint8(whiteHul) << s
			if rng.IntN(3) == 0 || promotes[s][p] {
				piece |= tobitBit
			}
			if b.sq[p] == empty {
				b.sq[p] = piece
			}
		}
	}
	b.side = rng.IntN(2)
	b.setKey()
	return b
}

func TestAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	checked := 0
	check := func(b *board) {
		checked++
		var got []string
		for _, m := range b.generate(nil) {
			got = append(got, notation(&m))
		}
		want := refMoves(refBoardOf(b), "wb"[b.side])
		sort.Strings(got)
		sort.Strings(want)
		if !reflect.DeepEqual(got, want) {
			p := &position{b: *b}
			t.Fatalf("%s: moves\n got %q\nwant %q", p.String(), got, want)
		}
	}
	for i := 0; i < 600; i++ {
		b := randomBoard(rng)
		check(&b)
	}
	// Games played at random from the start, where make and unmake must
	// also leave the board and its key as they were.
	for game := 0; game < 40; game++ {
		b := startBoard()
		for ply := 0; ply < 150; ply++ {
			check(&b)
			ms := b.generate(nil)
			if len(ms) == 0 {
				break
			}
			before := b
			for i := range ms {
				b.makeMove(&ms[i])
				b.unmakeMove(&ms[i])
				if b != before {
					t.Fatalf("make and unmake of %s changed the board", notation(&ms[i]))
				}
			}
			m := ms[rng.IntN(len(ms))]
			b.makeMove(&m)
			again := b
			again.setKey()
			if again.key != b.key {
				t.Fatalf("key after %s is not the key of the position", notation(&m))
			}
		}
	}
	t.Logf("%d positions checked", checked)
}

// refPlay plays a move of refMoves on a copy of b: the piece goes along the
// path, every piece jumped over leaves, and a hul ending on the far row is
// promoted.
func refPlay(b refBoard, m string) refBoard {
	cellOf := func(n int) cell {
		for r := 0; r <= 5; r++ {
			for c := 0; c <= 6; c++ {
				if x := (cell{r, c}); onBoard(x) && number(x) == n {
					return x
				}
			}
		}
		panic(n)
	}
	nb := refBoard{}
	for k, v := range b {
		nb[k] = v
	}
	var path []cell
	for _, f := range strings.FieldsFunc(m, func(r rune) bool { return r == '-' || r == 'x' }) {
		n, _ := strconv.Atoi(f)
		path = append(path, cellOf(n))
	}
	pc := nb[path[0]]
	delete(nb, path[0])
	for i := 1; i < len(path) && strings.Contains(m, "x"); i++ {
		a, z := path[i-1], path[i]
		for x := a; x != z; x = (cell{x.r + sign(z.r-x.r), x.c + sign(z.c-x.c)}) {
			delete(nb, x)
		}
	}
	end := path[len(path)-1]
	if (pc == 'w' && end.r == 5) || (pc == 'b' && end.r == 0) {
		pc -= 'a' - 'A'
	}
	nb[end] = pc
	return nb
}

func sign(n int) int {
	switch {
	case n > 0:
		return 1
	case n < 0:
		return -1
	}
	return 0
}

func refPerft(b refBoard, side byte, depth int) uint64 {
	ms := refMoves(b, side)
	if depth == 1 {
		return uint64(len(ms))
	}
	var n uint64
	for _, m := range ms {
		n += refPerft(refPlay(b, m), side^'w'^'b', depth-1)
	}
	return n
}

func TestPerftAgainstReference(t *testing.T) {
	start := startBoard()
	p := newPosition(start)
	for depth := 1; depth <= 5; depth++ {
		if got, want := p.Perft(depth), refPerft(refBoardOf(&start), 'w', depth); got != want {
			t.Errorf("Perft(%d) = %d, the reference counts %d", depth, got, want)
		}
	}
}

func TestPerftDoesNotAllocate(t *testing.T) {
	p := newPosition(startBoard())
	s := newSearcher(p, 5)
	s.perft(0, 5) // grows the buffers to their size
	if n := testing.AllocsPerRun(3, func() { s.perft(0, 5) }); n != 0 {
		t.Errorf("perft allocates %v times a run", n)
	}
}

func BenchmarkPerft7(b *testing.B) {
	p := newPosition(startBoard())
	var nodes uint64
	for b.Loop() {
		nodes += p.Perft(7)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
