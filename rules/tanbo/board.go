package tanbo

// The board keeps its liberties up to date stone by stone, so a placement
// costs a few dozen steps around the placed stone and the roots it removes,
// never a scan of the whole board.
//
// Two facts of Tanbo make this simple. A new stone touches exactly one stone
// of its colour, so it joins exactly one root: roots never merge and no root
// is ever created after the setup. And a point is a liberty of a root exactly
// when it is empty and touches exactly one stone of the root's colour, which
// is then a stone of that root; so each empty point is a liberty of at most
// one root of each colour, and the liberties of a colour are the empty
// points that colour's neighbour count puts at 1.

const (
	maxSize = 19
	minSize = 5
	// stride is the width of the padded grid: a ring of edge cells around
	// the largest board, so neighbours never need a bounds check.
	stride  = maxSize + 2
	npoints = stride * stride
)

// Cell contents. A stone of colour c (0 Black, 1 White) is c+1.
const (
	empty = 0
	black = 1
	white = 2
	edge  = 3
)

// dirs are the index steps to the four orthogonal neighbours.
var dirs = [4]int{-stride, -1, 1, stride}

// board is a Tanbo position with its root and liberty bookkeeping. It holds
// no pointers or slices, so a plain assignment copies it.
//
// Roots are named by the point of one of their stones at the time they were
// formed (root ids and points share one index space, but no root is formed
// after the setup, so an id is never reused).
type board struct {
	size   int
	toMove int // 0 Black, 1 White

	cell [npoints]uint8
	// cnt[c][p] is the number of neighbours of p holding a stone of colour c,
	// kept for every point, empty or not.
	cnt [2][npoints]uint8

	rootOf [npoints]int16 // root of the stone on a point
	next   [npoints]int16 // next stone of the same root, -1 at the end
	head   [npoints]int16 // first stone of a root, -1 once removed
	libs   [npoints]int16 // number of liberties of a root

	stones [2]int16

	// libPts[c][:nlib[c]] are the empty points whose cnt[c] is 1: the
	// liberties of colour c, which are its legal placements. libIdx is each
	// point's place in that list, or -1.
	libPts [2][npoints]int16
	libIdx [2][npoints]int16
	nlib   [2]int
}

// point is the index of the point on file f and rank r, both from 0.
func point(f, r int) int { return (r+1)*stride + f + 1 }

// fileRank is the inverse of point.
func fileRank(p int) (f, r int) { return p%stride - 1, p/stride - 1 }

// newBoard returns an empty board of the given size with Black to move.
func newBoard(size int) *board {
	b := &board{size: size}
	for p := range b.cell {
		b.cell[p] = edge
		b.rootOf[p] = -1
		b.next[p] = -1
		b.head[p] = -1
		b.libIdx[0][p] = -1
		b.libIdx[1][p] = -1
	}
	for r := 0; r < size; r++ {
		for f := 0; f < size; f++ {
			b.cell[point(f, r)] = empty
		}
	}
	return b
}

// setUp builds the stone counts, roots and liberties of a new board from
// its cells. It is for setting up positions only; play keeps them up to date
// with place.
func (b *board) setUp() {
	for p := range b.cell {
		if b.cell[p] == edge {
			continue
		}
		if c := b.cell[p]; c != empty {
			b.stones[c-1]++
		}
		for _, d := range dirs {
			if c := b.cell[p+d]; c == black || c == white {
				b.cnt[c-1][p]++
			}
		}
	}
	// Flood fill the roots, each named by its first stone in point order.
	var stack []int
	for p := range b.cell {
		c := b.cell[p]
		if (c != black && c != white) || b.rootOf[p] >= 0 {
			continue
		}
		id := int16(p)
		b.rootOf[p] = id
		stack = append(stack[:0], p)
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			b.next[s] = b.head[id]
			b.head[id] = int16(s)
			for _, d := range dirs {
				if q := s + d; b.cell[q] == c && b.rootOf[q] < 0 {
					b.rootOf[q] = id
					stack = append(stack, q)
				}
			}
		}
	}
	for p := range b.cell {
		if b.cell[p] != empty {
			continue
		}
		for c := 0; c < 2; c++ {
			if b.cnt[c][p] == 1 {
				b.addLib(c, p)
				b.libs[b.owner(c, p, -1)]++
			}
		}
	}
}

func (b *board) addLib(c, p int) {
	b.libIdx[c][p] = int16(b.nlib[c])
	b.libPts[c][b.nlib[c]] = int16(p)
	b.nlib[c]++
}

func (b *board) delLib(c, p int) {
	i := b.libIdx[c][p]
	b.nlib[c]--
	last := b.libPts[c][b.nlib[c]]
	b.libPts[c][i] = last
	b.libIdx[c][last] = i
	b.libIdx[c][p] = -1
}

// owner is the root of a stone of colour c next to p, other than the stone
// on point not.
func (b *board) owner(c, p, not int) int {
	for _, d := range dirs {
		if q := p + d; q != not && int(b.cell[q]) == c+1 {
			return int(b.rootOf[q])
		}
	}
	panic("tanbo: no neighbour of the colour counted")
}

// legal reports whether the side to move may place on p.
func (b *board) legal(p int) bool {
	return b.cell[p] == empty && b.cnt[b.toMove][p] == 1
}

// over reports whether a side has no stones left.
func (b *board) over() bool { return b.stones[0] == 0 || b.stones[1] == 0 }

// place puts a stone of the side to move on p, which must be legal, removes
// the roots the rules remove and passes the turn.
func (b *board) place(p int) {
	c, o := b.toMove, 1-b.toMove
	// The roots whose liberties fell: only they can be bounded now, since
	// no root was bounded before the move.
	var fell [5]int
	nfell := 0

	ext := b.owner(c, p, -1)
	b.delLib(c, p)
	b.libs[ext]--
	if b.cnt[o][p] == 1 {
		b.delLib(o, p)
		r := b.owner(o, p, -1)
		b.libs[r]--
		fell[nfell] = r
		nfell++
	}
	b.cell[p] = uint8(c + 1)
	b.rootOf[p] = int16(ext)
	b.next[p] = b.head[ext]
	b.head[ext] = int16(p)
	b.stones[c]++
	for _, d := range dirs {
		q := p + d
		b.cnt[c][q]++
		if b.cell[q] != empty {
			continue
		}
		switch b.cnt[c][q] {
		case 1:
			b.addLib(c, q)
			b.libs[ext]++
		case 2:
			b.delLib(c, q)
			r := b.owner(c, q, p)
			b.libs[r]--
			if r != ext {
				fell[nfell] = r
				nfell++
			}
		}
	}
	b.toMove = o

	if b.libs[ext] == 0 {
		b.remove(ext)
		return
	}
	// Every bounded root goes at once: decide them all before removing
	// any, since a removal frees the points around it.
	var bounded [5]int
	nb := 0
	for _, r := range fell[:nfell] {
		if b.libs[r] != 0 {
			continue
		}
		dup := false
		for _, s := range bounded[:nb] {
			dup = dup || s == r
		}
		if !dup {
			bounded[nb] = r
			nb++
		}
	}
	for _, r := range bounded[:nb] {
		b.remove(r)
	}
}

// remove takes root r off the board stone by stone, keeping the counts and
// liberties of the other roots exact after each stone.
func (b *board) remove(r int) {
	x := int(b.cell[r]) - 1
	y := 1 - x
	for s := int(b.head[r]); s >= 0; {
		nextStone := int(b.next[s])
		b.cell[s] = empty
		b.rootOf[s] = -1
		b.next[s] = -1
		b.stones[x]--
		// The emptied point may be a liberty of a neighbouring root of
		// either colour.
		if b.cnt[x][s] == 1 {
			b.addLib(x, s)
			b.libs[b.owner(x, s, -1)]++
		}
		if b.cnt[y][s] == 1 {
			b.addLib(y, s)
			b.libs[b.owner(y, s, -1)]++
		}
		for _, d := range dirs {
			q := s + d
			b.cnt[x][q]--
			if b.cell[q] != empty {
				continue
			}
			switch b.cnt[x][q] {
			case 0:
				b.delLib(x, q)
				b.libs[r]--
			case 1:
				b.addLib(x, q)
				b.libs[b.owner(x, q, -1)]++
			}
		}
		s = nextStone
	}
	b.head[r] = -1
	b.libs[r] = 0
}

// perft counts the sequences of depth placements from b.
func (b *board) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if b.over() {
		return 0
	}
	c := b.toMove
	if depth == 1 {
		return uint64(b.nlib[c])
	}
	var n uint64
	var child board
	for i := 0; i < b.nlib[c]; i++ {
		child = *b
		child.place(int(b.libPts[c][i]))
		n += child.perft(depth - 1)
	}
	return n
}
