package tobit

import "github.com/pbemd/pbemd/rules"

// A Tobit position is a rules.Mover: a move is its place in Legal's list.
// A capture sequence is too long to be its own number, and the list is
// short (a few dozen moves at most), so Apply lists the moves again:
// once, where Play lists them twice and names the move and its captures.
var _ rules.Mover = (*position)(nil)

func (p *position) Moves(dst []rules.Move) []rules.Move {
	for i := range p.moves() {
		dst = append(dst, rules.Move(i))
	}
	return dst
}

func (p *position) MoveText(m rules.Move) string {
	ms := p.moves()
	return notation(&ms[moveIndex(m, len(ms))])
}

// Apply plays the move at m in the list and returns its captures.
func (p *position) Apply(m rules.Move) int {
	ms := p.moves()
	mv := &ms[moveIndex(m, len(ms))]
	p.make(mv)
	return int(mv.ncap)
}

// moveIndex is m as an index of a list of n moves.
func moveIndex(m rules.Move, n int) int {
	if m < 0 || int(m) >= n {
		panic("tobit: a move that Moves did not list")
	}
	return int(m)
}

// CopyInto copies the board and the history of keys, into dst's memory.
func (p *position) CopyInto(dst rules.Position) {
	q := dst.(*position)
	q.b, q.since = p.b, p.since
	q.history = append(q.history[:0], p.history...)
}
