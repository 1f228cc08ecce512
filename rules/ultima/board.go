package ultima

import "math/bits"

// A piece is a kind (1 to 7) plus black for Black's pieces; 0 is an empty square.
type piece int8

const (
	empty       piece = 0
	king        piece = 1
	pawn        piece = 2
	withdrawer  piece = 3
	leaper      piece = 4
	coordinator piece = 5
	immobilizer piece = 6
	chameleon   piece = 7
	black       piece = 8
)

// letters are the position-format letters of White's pieces, by kind.
const letters = ".KPWLCIX"

var kindNames = [8]string{"", "king", "pawn", "withdrawer", "long leaper", "coordinator", "immobilizer", "chameleon"}

func (p piece) kind() piece { return p & 7 }
func (p piece) color() int  { return int(p >> 3) }

// of is the piece of kind k belonging to side.
func of(side int, k piece) piece { return k | piece(side<<3) }

// Squares are numbered rank*8+file: a1 is 0, h1 is 7, h8 is 63. A move to
// off is a suicide.
const off = 64

func bit(sq int) uint64 { return 1 << uint(sq) }

// Directions 0-3 are orthogonal, 4-7 diagonal; d^1 is the opposite of d.
var dirStep = [8][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, -1}, {-1, 1}, {1, -1}}

var (
	// nbr[sq][d] is the square next to sq in direction d, or -1 off the board.
	nbr [64][8]int8
	// adj[sq] is the set of the up to 8 squares around sq.
	adj [64]uint64
	// dirTo[a][b] is the direction from a to b along a line, or -1.
	dirTo [64][64]int8
	// between[a][b] is the set of squares strictly between a and b on a line.
	between [64][64]uint64
	// ray[sq][d] is every square from sq in direction d to the edge.
	ray [64][8]uint64
)

func init() {
	for sq := 0; sq < 64; sq++ {
		f, r := sq%8, sq/8
		for d, st := range dirStep {
			nbr[sq][d] = -1
			if nf, nr := f+st[0], r+st[1]; nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
				nbr[sq][d] = int8(nr*8 + nf)
				adj[sq] |= bit(nr*8 + nf)
			}
		}
	}
	for sq := 0; sq < 64; sq++ {
		for to := 0; to < 64; to++ {
			dirTo[sq][to] = -1
		}
		for d := range dirStep {
			var seen uint64
			for t := int(nbr[sq][d]); t >= 0; t = int(nbr[t][d]) {
				dirTo[sq][t] = int8(d)
				between[sq][t] = seen
				seen |= bit(t)
			}
			ray[sq][d] = seen
		}
	}
}

// A move is a from and a to square; to is off for a suicide. For every
// piece the two squares fix the move and what it captures: a long leaper's
// landing square decides which pieces it jumps.
type move struct{ from, to uint8 }

// ruleset holds the options that change the rules.
type ruleset struct {
	pure          bool // Cambridge chameleon and immobilizer rules
	singleLeap    bool // a leap jumps at most one piece
	stalemateDraw bool // a side without a legal move but not in check draws
}

// maxMoves bounds the moves of one position: no piece has more than 27
// destinations, and pieces times empty squares stays under 1,040.
const maxMoves = 1100

// board is a position: small enough to copy for every move made.
type board struct {
	sq   [64]piece
	bb   [16]uint64 // squares of each piece
	occ  [2]uint64  // squares of each side
	king [2]int8
	side int8 // the side to move: 0 White, 1 Black
}

func (b *board) put(sq int, p piece) {
	b.sq[sq] = p
	b.bb[p] |= bit(sq)
	b.occ[p.color()] |= bit(sq)
	if p.kind() == king {
		b.king[p.color()] = int8(sq)
	}
}

func (b *board) remove(sq int) {
	p := b.sq[sq]
	b.sq[sq] = empty
	b.bb[p] &^= bit(sq)
	b.occ[p.color()] &^= bit(sq)
}

func (b *board) removeAll(set uint64) {
	for ; set != 0; set &= set - 1 {
		b.remove(bits.TrailingZeros64(set))
	}
}

func (b *board) isEmpty(sq int) bool { return b.sq[sq] == empty }

// frozen returns the pieces of side that cannot move. A piece is frozen next
// to an enemy immobilizer, and an immobilizer also next to an enemy
// chameleon. Under the pure rules an enemy immobilizer has no power over a
// piece while another immobilizer or chameleon of that piece's side stands
// next to it.
func (b *board) frozen(side int, pure bool) uint64 {
	o := side ^ 1
	var fz uint64
	if enemyI := b.bb[of(o, immobilizer)]; enemyI != 0 {
		helpers := b.bb[of(side, immobilizer)] | b.bb[of(side, chameleon)]
		for m := enemyI; m != 0; m &= m - 1 {
			a := adj[bits.TrailingZeros64(m)]
			if !pure {
				fz |= a
				continue
			}
			switch h := a & helpers; bits.OnesCount64(h) {
			case 0:
				fz |= a
			case 1:
				// The lone helper frees its neighbours but not itself.
				fz |= h
			}
		}
	}
	if ownI, enemyX := b.bb[of(side, immobilizer)], b.bb[of(o, chameleon)]; ownI != 0 && enemyX != 0 {
		for m := ownI; m != 0; m &= m - 1 {
			if sq := bits.TrailingZeros64(m); adj[sq]&enemyX != 0 {
				fz |= bit(sq)
			}
		}
	}
	return fz & b.occ[side]
}

// generate writes the moves of the side to move to out, without checking
// that they keep the mover's king safe, and returns how many it wrote.
func (b *board) generate(r ruleset, out []move) int {
	s := int(b.side)
	fz := b.frozen(s, r.pure)
	n := 0
	for m := b.occ[s]; m != 0; m &= m - 1 {
		from := bits.TrailingZeros64(m)
		if fz&bit(from) != 0 {
			if b.sq[from].kind() != king {
				out[n] = move{uint8(from), off}
				n++
			}
			continue
		}
		n = b.pieceMoves(r, from, out, n)
	}
	return n
}

// pieceMoves appends to out[n:] the moves of the unfrozen piece on from.
func (b *board) pieceMoves(r ruleset, from int, out []move, n int) int {
	p := b.sq[from]
	o := p.color() ^ 1
	switch p.kind() {
	case king:
		enemyKing := b.bb[of(o, king)]
		for d := 0; d < 8; d++ {
			t := int(nbr[from][d])
			if t < 0 {
				continue
			}
			if b.isEmpty(t) || (b.occ[o]&bit(t) != 0 && enemyKing&bit(t) == 0) {
				out[n] = move{uint8(from), uint8(t)}
				n++
			}
		}
	case pawn:
		for d := 0; d < 4; d++ {
			for t := int(nbr[from][d]); t >= 0 && b.isEmpty(t); t = int(nbr[t][d]) {
				out[n] = move{uint8(from), uint8(t)}
				n++
			}
		}
	case leaper:
		n = b.leaps(r, from, b.occ[o], out, n)
	case chameleon:
		n = b.leaps(r, from, b.bb[of(o, leaper)], out, n)
	default:
		for d := 0; d < 8; d++ {
			for t := int(nbr[from][d]); t >= 0 && b.isEmpty(t); t = int(nbr[t][d]) {
				out[n] = move{uint8(from), uint8(t)}
				n++
			}
		}
	}
	return n
}

// leaps appends the queen moves and leaps of the piece on from, which may
// jump the pieces in jumpable: each jumped piece must be followed by an
// empty square, and the piece lands on any empty square after the last one
// jumped, or, with single leaps, directly beyond the one piece it jumps.
func (b *board) leaps(r ruleset, from int, jumpable uint64, out []move, n int) int {
	for d := 0; d < 8; d++ {
		t := int(nbr[from][d])
		for t >= 0 {
			if b.isEmpty(t) {
				out[n] = move{uint8(from), uint8(t)}
				n++
				t = int(nbr[t][d])
				continue
			}
			beyond := int(nbr[t][d])
			if jumpable&bit(t) == 0 || beyond < 0 || !b.isEmpty(beyond) {
				break
			}
			if r.singleLeap {
				out[n] = move{uint8(from), uint8(beyond)}
				n++
				break
			}
			t = beyond
		}
	}
	return n
}

// play makes move m, which generate produced, and returns the squares it
// captured.
func (b *board) play(r ruleset, m move) uint64 {
	from := int(m.from)
	b.side ^= 1
	if m.to == off {
		b.remove(from)
		return 0
	}
	to := int(m.to)
	p := b.sq[from]
	s := p.color()
	o := s ^ 1
	d := int(dirTo[from][to])
	var caps uint64
	leapt := false
	switch p.kind() {
	case king:
		caps = b.occ[o] & bit(to)
	case withdrawer:
		if w := int(nbr[from][d^1]); w >= 0 {
			caps = b.occ[o] & bit(w)
		}
	case leaper:
		caps = b.occ[o] & between[from][to]
	case chameleon:
		caps = b.bb[of(o, leaper)] & between[from][to]
		leapt = caps != 0
		if !(r.pure && leapt) {
			if w := int(nbr[from][d^1]); w >= 0 {
				caps |= b.bb[of(o, withdrawer)] & bit(w)
			}
		}
	}
	b.removeAll(caps)
	b.remove(from)
	b.put(to, p)
	var after uint64
	switch p.kind() {
	case pawn:
		after = b.custody(to, b.occ[o])
	case coordinator:
		after = b.coordinated(to, s) & b.occ[o]
	case chameleon:
		if r.pure && leapt {
			break
		}
		after = b.coordinated(to, s) & b.bb[of(o, coordinator)]
		if d < 4 {
			after |= b.custody(to, b.bb[of(o, pawn)])
		}
	}
	b.removeAll(after)
	return caps | after
}

// custody returns the victims orthogonally next to sq that have a piece of
// the mover's side straight beyond them.
func (b *board) custody(sq int, victims uint64) uint64 {
	own := b.occ[b.sq[sq].color()]
	var caps uint64
	for d := 0; d < 4; d++ {
		v := int(nbr[sq][d])
		if v < 0 || victims&bit(v) == 0 {
			continue
		}
		if a := int(nbr[v][d]); a >= 0 && own&bit(a) != 0 {
			caps |= bit(v)
		}
	}
	return caps
}

// coordinated returns the two squares where the lines through sq and
// through side's king cross.
func (b *board) coordinated(sq, side int) uint64 {
	k := int(b.king[side])
	return bit(k/8*8+sq%8) | bit(sq/8*8+k%8)
}

// attacker returns the square of a piece of side o that could capture the
// piece on sq (the other side's king) on o's next move, or -1 if none can.
// Frozen pieces capture nothing.
func (b *board) attacker(r ruleset, sq int, o int) int {
	active := b.occ[o] &^ b.frozen(o, r.pure)
	near := adj[sq] & active
	// A king or a chameleon steps onto it.
	if m := near & (b.bb[of(o, king)] | b.bb[of(o, chameleon)]); m != 0 {
		return bits.TrailingZeros64(m)
	}
	// A withdrawer next to it moves away.
	for m := near & b.bb[of(o, withdrawer)]; m != 0; m &= m - 1 {
		w := bits.TrailingZeros64(m)
		if t := int(nbr[w][dirTo[sq][w]]); t >= 0 && b.isEmpty(t) {
			return w
		}
	}
	// A pawn lands next to it with a piece of o straight beyond.
	if pawns := active & b.bb[of(o, pawn)]; pawns != 0 {
		for d := 0; d < 4; d++ {
			land, anvil := int(nbr[sq][d]), int(nbr[sq][d^1])
			if land < 0 || anvil < 0 || !b.isEmpty(land) || b.occ[o]&bit(anvil) == 0 {
				continue
			}
			for e := 0; e < 4; e++ {
				if e == d^1 {
					continue
				}
				t := int(nbr[land][e])
				for t >= 0 && b.isEmpty(t) {
					t = int(nbr[t][e])
				}
				if t >= 0 && pawns&bit(t) != 0 {
					return t
				}
			}
		}
	}
	// A long leaper jumps it, landing on the empty square beyond.
	if leapers := active & b.bb[of(o, leaper)]; leapers != 0 {
		for d := 0; d < 8; d++ {
			if ray[sq][d]&leapers == 0 {
				continue
			}
			if beyond := int(nbr[sq][d^1]); beyond < 0 || !b.isEmpty(beyond) {
				continue
			}
			if t := b.leaperOnRay(r, sq, d, leapers); t >= 0 {
				return t
			}
		}
	}
	// A coordinator lands on the line through sq that crosses o's king.
	if coords := active & b.bb[of(o, coordinator)]; coords != 0 {
		k := int(b.king[o])
		var target uint64
		switch {
		case k/8 == sq/8:
			target = ray[sq][0] | ray[sq][1]
		case k%8 == sq%8:
			target = ray[sq][2] | ray[sq][3]
		}
		if target != 0 {
			for m := coords; m != 0; m &= m - 1 {
				c := bits.TrailingZeros64(m)
				for d := 0; d < 8; d++ {
					for t := int(nbr[c][d]); t >= 0 && b.isEmpty(t); t = int(nbr[t][d]) {
						if target&bit(t) != 0 {
							return c
						}
					}
				}
			}
		}
	}
	return -1
}

// leaperOnRay looks from sq in direction d for one of leapers that could
// leap back over sq, jumping every piece in between, and returns its square
// or -1.
func (b *board) leaperOnRay(r ruleset, sq, d int, leapers uint64) int {
	side := b.sq[sq].color()
	gap := false // whether the square before t, seen from the leaper, is empty
	for t := int(nbr[sq][d]); t >= 0; t = int(nbr[t][d]) {
		switch {
		case b.isEmpty(t):
			gap = true
			continue
		case leapers&bit(t) != 0:
			return t
		case b.occ[side]&bit(t) == 0 || !gap || r.singleLeap:
			// A piece of the leaper's side, two in a row, or a second jump.
			return -1
		}
		gap = false
	}
	return -1
}

// inCheck reports whether the side to move's king could be captured if it
// were the other side's turn.
func (b *board) inCheck(r ruleset) bool {
	s := int(b.side)
	return b.attacker(r, int(b.king[s]), s^1) >= 0
}

// legal reports whether m, made by the side to move, keeps its king safe.
func (b *board) legal(r ruleset, m move) bool {
	next := *b
	next.play(r, m)
	s := int(b.side)
	return next.attacker(r, int(next.king[s]), s^1) < 0
}

// perft counts the sequences of depth legal moves from boards[0], using
// boards[ply] and the ply's share of moves as scratch.
type perft struct {
	r      ruleset
	boards []board
	moves  []move
}

func newPerft(r ruleset, b *board, depth int) *perft {
	p := &perft{r: r, boards: make([]board, depth+1), moves: make([]move, depth*maxMoves)}
	p.boards[0] = *b
	return p
}

func (p *perft) count(ply, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	b := &p.boards[ply]
	moves := p.moves[ply*maxMoves : (ply+1)*maxMoves]
	n := b.generate(p.r, moves)
	s := int(b.side)
	next := &p.boards[ply+1]
	var total uint64
	for _, m := range moves[:n] {
		*next = *b
		next.play(p.r, m)
		if next.attacker(p.r, int(next.king[s]), s^1) >= 0 {
			continue
		}
		if depth == 1 {
			total++
		} else {
			total += p.count(ply+1, depth-1)
		}
	}
	return total
}
