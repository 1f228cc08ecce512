package robot

import (
	"slices"
	"time"

	"github.com/pbemd/pbemd/rules"
)

// win is the score of a won position; a win found sooner scores higher.
const (
	win      = 1_000_000
	infinity = 2 * win
	// decided marks scores that are wins or losses, not evaluations.
	decided = win - 1000
)

// searcher is one alpha-beta search, negamax style: every score is from
// the view of the side to move in the position scored. A child position
// whose side to move is the same (a Taratibu turn goes on) keeps the score's
// sign and window.
type searcher struct {
	ev       evaluation
	env      env
	budget   Budget
	deadline time.Time
	nodes    int64
	stopped  bool
	stop     <-chan struct{} // Robot.Stop
	// cancelled: stopped by stop, not by the budget.
	cancelled bool

	// mover: the game is a rules.Mover, and the search plays its moves by
	// number on the positions of plies, one for each ply below the root,
	// cloned from start; else on clones, by notation.
	mover bool
	start rules.Position
	plies []rules.Mover
	// The lists of moves and children of the node being searched at each
	// ply, kept from node to node.
	moveLists [][]rules.Move
	kidLists  [][]child
}

// child is one legal move and, for a game that is no rules.Mover, the
// position it makes.
type child struct {
	move  string     // its notation: at the root, and for a game without a Mover
	m     rules.Move // the move, for a game with a Mover
	pos   rules.Position
	takes int // points or pieces named captured, for move ordering
	score int
}

// spent reports whether the budget is used up. The clock is read every 64
// nodes: its cost would show in the nodes per second.
func (s *searcher) spent() bool {
	if s.stopped {
		return true
	}
	if s.budget.Nodes > 0 && s.nodes >= s.budget.Nodes {
		s.stopped = true
	} else if s.nodes%64 == 0 {
		if s.budget.Time > 0 && time.Now().After(s.deadline) {
			s.stopped = true
		}
		select {
		case <-s.stop:
			s.stopped, s.cancelled = true, true
		default:
		}
	}
	return s.stopped
}

// expand plays every move of pos, which stands at ply, on a copy of it,
// captures first. The moves are legal, or with a Mover moves (legal, when
// given, names them). It returns nil when the budget ran out.
func (s *searcher) expand(pos rules.Position, ply int, legal []string, moves []rules.Move) []child {
	n := len(legal)
	if s.mover {
		n = len(moves)
	}
	kids := s.kids(ply, n)
	for i := 0; i < n; i++ {
		if s.spent() {
			return nil
		}
		var k child
		if legal != nil {
			k.move = legal[i]
		}
		if s.mover {
			k.m = moves[i]
			q := s.at(ply + 1)
			pos.(rules.Mover).CopyInto(q)
			k.takes = q.Apply(k.m)
		} else {
			k.pos = pos.Clone()
			steps, err := k.pos.Play(k.move)
			if err != nil {
				continue // Legal lists it: a rules bug, not the robot's to hide
			}
			for _, st := range steps {
				k.takes += len(st.Captured)
			}
		}
		s.nodes++
		kids = append(kids, k)
	}
	slices.SortStableFunc(kids, func(a, b child) int { return b.takes - a.takes })
	return kids
}

// play returns the position kid k of pos, which stands at ply, makes: the
// kid's own, or with a Mover the move played on the copy kept for ply+1,
// which the search of a sibling overwrites.
func (s *searcher) play(pos rules.Position, ply int, k child) rules.Position {
	if !s.mover {
		return k.pos
	}
	q := s.at(ply + 1)
	pos.(rules.Mover).CopyInto(q)
	q.Apply(k.m)
	return q
}

// at is the position kept for ply, made by the first search to reach it.
func (s *searcher) at(ply int) rules.Mover {
	q := perPly(&s.plies, ply)
	if *q == nil {
		*q = s.start.Clone().(rules.Mover)
	}
	return *q
}

// kids is the empty list of children kept for ply, with room for n: a
// node's children are done with before another node at its ply is
// expanded.
func (s *searcher) kids(ply, n int) []child {
	l := perPly(&s.kidLists, ply)
	*l = slices.Grow((*l)[:0], n)
	return *l
}

// moves lists the moves of pos, which stands at ply, in the list kept for
// ply, in Legal's order.
func (s *searcher) moves(pos rules.Mover, ply int) []rules.Move {
	l := perPly(&s.moveLists, ply)
	*l = pos.Moves((*l)[:0])
	slices.Sort(*l)
	return *l
}

// perPly is the element of list for ply, the list grown to hold it.
func perPly[T any](list *[]T, ply int) *T {
	for len(*list) <= ply {
		var zero T
		*list = append(*list, zero)
	}
	return &(*list)[ply]
}

// root deepens the search one ply at a time until maxDepth, a decided
// score or the budget. A search cut short keeps the last completed depth's
// choice, or the best move of the interrupted depth when it has searched
// the previous best move first.
func (s *searcher) root(pos rules.Position, legal []string, moves []rules.Move, maxDepth int) Choice {
	me := pos.ToMove()
	kids := s.expand(pos, 0, legal, moves)
	if len(kids) == 0 { // budget spent before the first move was played
		return Choice{Move: legal[0], Nodes: s.nodes}
	}
	best := Choice{Move: kids[0].move}
	if len(kids) == 1 {
		best.Nodes = s.nodes
		return best
	}
	for depth := 1; depth <= maxDepth; depth++ {
		alpha, bestAt := -infinity, -1
		done := 0
		for i := range kids {
			v := s.value(s.play(pos, 0, kids[i]), me, depth-1, 1, alpha, infinity)
			if s.stopped {
				break
			}
			kids[i].score = v
			done++
			if v > alpha {
				alpha, bestAt = v, i
			}
		}
		if s.stopped {
			if done > 0 && bestAt >= 0 && depth > 1 {
				best.Move, best.Score = kids[bestAt].move, alpha
			}
			break
		}
		best = Choice{Move: kids[bestAt].move, Score: alpha, Depth: depth}
		// The next depth searches the best moves first; the rest keep
		// their order (scores below alpha are only bounds).
		top := kids[bestAt]
		copy(kids[1:bestAt+1], kids[:bestAt])
		kids[0] = top
		if alpha >= decided || alpha <= -decided {
			break
		}
	}
	best.Nodes = s.nodes
	best.Lost = best.Depth > 0 && best.Score <= -decided
	return best
}

// value scores child, reached by a move of seat me, from me's view.
func (s *searcher) value(pos rules.Position, me, depth, ply, alpha, beta int) int {
	if pos.ToMove() == me {
		return s.negamax(pos, depth, ply, alpha, beta)
	}
	return -s.negamax(pos, depth, ply, -beta, -alpha)
}

func (s *searcher) negamax(pos rules.Position, depth, ply, alpha, beta int) int {
	me := pos.ToMove()
	if res := pos.Result(); res.Over {
		switch res.Winner {
		case rules.Draw:
			return 0
		case me:
			return win - ply
		default:
			return -(win - ply)
		}
	}
	if depth <= 0 {
		return s.ev.score(pos, &s.env)
	}
	var kids []child
	if s.mover {
		kids = s.expand(pos, ply, nil, s.moves(pos.(rules.Mover), ply))
	} else {
		kids = s.expand(pos, ply, pos.Legal(), nil)
	}
	if s.stopped {
		return 0
	}
	best := -infinity
	for _, k := range kids {
		v := s.value(s.play(pos, ply, k), me, depth-1, ply+1, alpha, beta)
		if s.stopped {
			return 0
		}
		if v > best {
			best = v
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			break
		}
	}
	return best
}
