package robot

import (
	"sort"
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
}

// child is one legal move and the position it makes.
type child struct {
	move  string
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

// expand plays every move of legal on a copy of pos, captures first. It
// returns nil when the budget ran out.
func (s *searcher) expand(pos rules.Position, legal []string) []child {
	kids := make([]child, 0, len(legal))
	for _, m := range legal {
		if s.spent() {
			return nil
		}
		q := pos.Clone()
		steps, err := q.Play(m)
		if err != nil {
			continue // Legal lists it: a rules bug, not the robot's to hide
		}
		s.nodes++
		n := 0
		for _, st := range steps {
			n += len(st.Captured)
		}
		kids = append(kids, child{move: m, pos: q, takes: n})
	}
	sort.SliceStable(kids, func(i, j int) bool { return kids[i].takes > kids[j].takes })
	return kids
}

// root deepens the search one ply at a time until maxDepth, a decided
// score or the budget. A search cut short keeps the last completed depth's
// choice, or the best move of the interrupted depth when it has searched
// the previous best move first.
func (s *searcher) root(pos rules.Position, legal []string, maxDepth int) Choice {
	me := pos.ToMove()
	kids := s.expand(pos, legal)
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
			v := s.value(kids[i].pos, me, depth-1, 1, alpha, infinity)
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
	kids := s.expand(pos, pos.Legal())
	if s.stopped {
		return 0
	}
	best := -infinity
	for _, k := range kids {
		v := s.value(k.pos, me, depth-1, ply+1, alpha, beta)
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
