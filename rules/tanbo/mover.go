package tanbo

import "github.com/pbemd/pbemd/rules"

// A Tanbo position is a rules.Mover: a move is the index of its point on
// the padded grid, which grows in the order Legal lists points.
var _ rules.Mover = (*position)(nil)

// Moves appends the placements of the side to move as its list of
// liberties holds them, in no order: a copy of a short list.
func (pos *position) Moves(dst []rules.Move) []rules.Move {
	b := &pos.b
	if b.over() {
		return dst
	}
	for _, p := range b.libPts[b.toMove][:b.nlib[b.toMove]] {
		dst = append(dst, rules.Move(p))
	}
	return dst
}

func (pos *position) MoveText(m rules.Move) string { return pointName(int(m)) }

// Apply places a stone on the point m. The points it captures are the
// stones it removed, the placed one included when it bounded its own root.
func (pos *position) Apply(m rules.Move) int {
	b := &pos.b
	p := int(m)
	if p < 0 || p >= npoints || b.over() || !b.legal(p) {
		panic("tanbo: Apply of a move that Moves did not list")
	}
	before := b.stones[0] + b.stones[1]
	b.place(p)
	return int(before + 1 - b.stones[0] - b.stones[1])
}

func (pos *position) CopyInto(dst rules.Position) { dst.(*position).b = pos.b }
