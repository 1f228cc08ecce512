package tobit

// The board is the graph of 38 points drawn in docs/games.md, numbered row
// by row from White's side:
//
//	          34  35  36  37  38
//	  27 -- 28--29--30--31--32 -- 33
//	  20 -- 21--22--23--24--25 -- 26
//	  13 -- 14--15--16--17--18 -- 19
//	   6 --  7-- 8-- 9--10--11 -- 12
//	           1   2   3   4   5
//
// with the five chols running from 1-5 up to 34-38. Points are indexed by
// their number; index 0 is no point and ends every line.

const numPoints = 38

// Directions as White sees the board: north is toward Black.
const (
	north = iota
	east
	south
	west
	noDir = -1
)

// opposite returns the direction 180 degrees from d.
func opposite(d int) int { return d ^ 2 }

// next[p][d] is the point next to p along a line in direction d, or 0 when no
// line leaves p that way. The endpoints 1-5 and 34-38 join only the crossing
// of their chol; 6, 13, 20, 27 and 12, 19, 26, 33 join only inward.
var next = [numPoints + 1][4]uint8{
	{0, 0, 0, 0}, // 0: no point
	{7, 0, 0, 0}, // 1
	{8, 0, 0, 0}, // 2
	{9, 0, 0, 0}, // 3
	{10, 0, 0, 0},
	{11, 0, 0, 0},
	{0, 7, 0, 0}, // 6
	{14, 8, 1, 6},
	{15, 9, 2, 7},
	{16, 10, 3, 8},
	{17, 11, 4, 9},
	{18, 12, 5, 10},
	{0, 0, 0, 11}, // 12
	{0, 14, 0, 0}, // 13
	{21, 15, 7, 13},
	{22, 16, 8, 14},
	{23, 17, 9, 15},
	{24, 18, 10, 16},
	{25, 19, 11, 17},
	{0, 0, 0, 18}, // 19
	{0, 21, 0, 0}, // 20
	{28, 22, 14, 20},
	{29, 23, 15, 21},
	{30, 24, 16, 22},
	{31, 25, 17, 23},
	{32, 26, 18, 24},
	{0, 0, 0, 25}, // 26
	{0, 28, 0, 0}, // 27
	{34, 29, 21, 27},
	{35, 30, 22, 28},
	{36, 31, 23, 29},
	{37, 32, 24, 30},
	{38, 33, 25, 31},
	{0, 0, 0, 32}, // 33
	{0, 0, 28, 0}, // 34
	{0, 0, 29, 0},
	{0, 0, 30, 0},
	{0, 0, 31, 0},
	{0, 0, 32, 0}, // 38
}

// Pieces: bit 0 White, bit 1 Black, bit 2 tobit. The side to move s owns the
// pieces with bit 1<<s.
const (
	empty      uint8 = 0
	whiteHul   uint8 = 1
	blackHul   uint8 = 2
	tobitBit   uint8 = 4
	whiteTobit       = whiteHul | tobitBit
	blackTobit       = blackHul | tobitBit
)

// owner is the side of a piece.
func owner(piece uint8) int { return int(piece>>1) & 1 }

const (
	white = 0
	black = 1
)

// forward is the direction a hul of each side moves toward promotion.
var forward = [2]int{north, south}

// promotes[s][p] tells whether a hul of side s is promoted on point p.
var promotes = [2][numPoints + 1]bool{
	white: {34: true, 35: true, 36: true, 37: true, 38: true},
	black: {1: true, 2: true, 3: true, 4: true, 5: true},
}

// A key is the exact identity of a position for repetition: three bits per
// point (19 points a word) and the side to move in the top bit.
type key [2]uint64

// toggle adds piece to point p of k, or removes it.
func (k *key) toggle(p int, piece uint8) {
	i := p - 1
	k[i/19] ^= uint64(piece) << (3 * (i % 19))
}

const sideBit = 1 << 63

// maxCaptures bounds a capture sequence: a side has at most 12 pieces.
const maxCaptures = 12

// A move is a step, a slide or a whole capture sequence.
type move struct {
	path    [maxCaptures + 1]uint8 // start point, then every landing point
	caps    [maxCaptures]uint8     // captured points in order
	capped  [maxCaptures]uint8     // the pieces that stood there
	n       uint8                  // landings: the path holds n+1 points
	ncap    uint8
	promote bool
}

func (m *move) from() int { return int(m.path[0]) }
func (m *move) to() int   { return int(m.path[m.n]) }

// A board is the pieces and the side to move, with its key kept up to date.
type board struct {
	sq   [numPoints + 1]uint8
	side int
	key  key
}

func (b *board) put(p int, piece uint8) {
	b.key.toggle(p, b.sq[p]^piece)
	b.sq[p] = piece
}

// setKey computes the key from scratch.
func (b *board) setKey() {
	b.key = key{}
	for p := 1; p <= numPoints; p++ {
		b.key.toggle(p, b.sq[p])
	}
	if b.side == black {
		b.key[0] ^= sideBit
	}
}

// generate appends the legal moves of the side to move to out: every capture
// sequence when there is one, else every step and slide.
func (b *board) generate(out []move) []move {
	start := len(out)
	own := uint8(1) << b.side
	for p := 1; p <= numPoints; p++ {
		if b.sq[p]&own != 0 {
			out = b.capturesFrom(p, out)
		}
	}
	if len(out) > start {
		return out
	}
	for p := 1; p <= numPoints; p++ {
		if b.sq[p]&own != 0 {
			out = b.stepsFrom(p, out)
		}
	}
	return out
}

// stepsFrom appends the non-capturing moves of the piece on p.
func (b *board) stepsFrom(p int, out []move) []move {
	piece := b.sq[p]
	var m move
	m.path[0] = uint8(p)
	m.n = 1
	if piece&tobitBit == 0 {
		for _, d := range [3]int{forward[b.side], east, west} {
			t := next[p][d]
			if t != 0 && b.sq[t] == empty {
				m.path[1] = t
				m.promote = promotes[b.side][t]
				out = append(out, m)
			}
		}
		return out
	}
	for d := 0; d < 4; d++ {
		for t := next[p][d]; t != 0 && b.sq[t] == empty; t = next[t][d] {
			m.path[1] = t
			out = append(out, m)
		}
	}
	return out
}

// capturesFrom appends every complete capture sequence of the piece on p.
func (b *board) capturesFrom(p int, out []move) []move {
	piece := b.sq[p]
	// The piece is lifted while it jumps: its start point is empty, so it
	// may pass over or land on it.
	b.sq[p] = empty
	var cur move
	cur.path[0] = uint8(p)
	out = b.jump(&cur, p, piece, noDir, out)
	b.sq[p] = piece
	return out
}

// jump extends the capture sequence cur, whose piece stands on at having
// last jumped in direction last, and appends it to out when it is complete.
// Captured pieces are lifted at once, as in Turkish draughts.
func (b *board) jump(cur *move, at int, piece uint8, last int, out []move) []move {
	enemy := piece&(whiteHul|blackHul) ^ (whiteHul | blackHul)
	extended := false
	for d := 0; d < 4; d++ {
		if last != noDir && d == opposite(last) {
			continue // no turning back 180 degrees
		}
		m := int(next[at][d])
		if piece&tobitBit != 0 {
			for m != 0 && b.sq[m] == empty {
				m = int(next[m][d])
			}
		}
		if m == 0 || b.sq[m]&enemy == 0 {
			continue
		}
		l := int(next[m][d])
		if l == 0 || b.sq[l] != empty {
			continue
		}
		captured := b.sq[m]
		b.sq[m] = empty
		cur.caps[cur.ncap] = uint8(m)
		cur.capped[cur.ncap] = captured
		cur.ncap++
		cur.n++
		for ; l != 0 && b.sq[l] == empty; l = int(next[l][d]) {
			extended = true
			cur.path[cur.n] = uint8(l)
			if piece&tobitBit == 0 && promotes[owner(piece)][l] {
				// A hul promoted in mid-capture stands on an endpoint whose
				// only line is the one it came along: the capture ends.
				cur.promote = true
				out = append(out, *cur)
				cur.promote = false
			} else {
				out = b.jump(cur, l, piece, d, out)
			}
			if piece&tobitBit == 0 {
				break // a hul lands only straight beyond
			}
		}
		cur.n--
		cur.ncap--
		b.sq[m] = captured
	}
	if !extended && cur.ncap > 0 {
		out = append(out, *cur)
	}
	return out
}

// isReversible reports whether m could be undone by later moves, so that
// positions before it may come again: a sideways hul step or a tobit slide.
func (b *board) isReversible(m *move) bool {
	if m.ncap > 0 {
		return false
	}
	if b.sq[m.from()]&tobitBit != 0 {
		return true
	}
	return next[m.from()][east] == m.path[1] || next[m.from()][west] == m.path[1]
}

// makeMove plays m, which must be legal.
func (b *board) makeMove(m *move) {
	from, to := m.from(), m.to()
	piece := b.sq[from]
	b.put(from, empty)
	for i := 0; i < int(m.ncap); i++ {
		b.put(int(m.caps[i]), empty)
	}
	if m.promote {
		piece |= tobitBit
	}
	b.put(to, piece)
	b.side ^= 1
	b.key[0] ^= sideBit
}

// unmakeMove takes back m, the last move made.
func (b *board) unmakeMove(m *move) {
	b.side ^= 1
	b.key[0] ^= sideBit
	from, to := m.from(), m.to()
	piece := b.sq[to]
	b.put(to, empty)
	if m.promote {
		piece &^= tobitBit
	}
	for i := int(m.ncap) - 1; i >= 0; i-- {
		b.put(int(m.caps[i]), m.capped[i])
	}
	b.put(from, piece)
}
