// Package robot is pbemd's computer opponent. Its engine is a game-tree
// search over the rules interface alone (Legal, Play, Clone, Result, and
// for a game whose positions are rules.Movers, moves by number played on
// copies it keeps, choosing exactly as it would by notation), with an
// evaluation written for some games and a generic one (material and
// mobility) for the others; given a seed and a node budget it is
// deterministic. Its worker plays the robot players' turns on the service's
// boards, off the mail path.
//
// Three strengths:
//   - level 1 plays a random legal move, except that it takes a won game or a
//     free capture (one the opponent cannot answer by capturing back);
//   - level 2 searches two plies with alpha-beta;
//   - level 3 deepens its alpha-beta search until its budget is spent.
package robot

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/pbemd/pbemd/rules"
)

// Levels are 1 to MaxLevel.
const MaxLevel = 3

// DefaultTime is the time a robot thinks about one move when no budget is set.
const DefaultTime = 2 * time.Second

// A Budget bounds one search. A zero field sets no bound; a zero Budget
// means DefaultTime. With Nodes alone the search is deterministic.
type Budget struct {
	Time  time.Duration
	Nodes int64 // moves played (positions made) by the search
}

// A Robot chooses moves for one game at one level.
type Robot struct {
	Game   rules.Game
	Opts   rules.Options // the board's options; the position carries their rules
	Level  int
	Budget Budget
	// Seed makes the choice among equal moves; the same seed, position and
	// node budget give the same move.
	Seed uint64
	// Stop, when closed, ends the search at once with ErrStopped: the
	// daemon is stopping and the move will be chosen again after restart.
	Stop <-chan struct{}
}

// A Choice is one move the robot chose and what the search saw.
type Choice struct {
	Move  string // as Legal lists it
	Score int    // from the mover's view; 0 at level 1
	Depth int    // plies of the deepest search completed
	Nodes int64
	// Lost: the search proved that the mover loses whatever he plays.
	Lost bool
}

// A Turn is everything the robot submits when it is to move: one move, or
// for Taratibu the single moves of the rest of its turn, in order.
type Turn struct {
	Moves  []string
	Score  int // of the first move's search, from the mover's view
	Nodes  int64
	Lost   bool // the first search proved the position lost
	Depths []int
}

// Submission is the turn as one move text, as a player would write it.
func (t Turn) Submission() string {
	s := ""
	for i, m := range t.Moves {
		if i > 0 {
			s += " "
		}
		s += m
	}
	return s
}

// ErrStopped: the search was stopped by Robot.Stop before choosing.
var ErrStopped = errors.New("robot stopped before choosing a move")

// Move chooses one move for the side to move in pos. pos is not changed.
func (r *Robot) Move(pos rules.Position) (Choice, error) {
	ev := evaluationOf(r.Game)
	if r.Level < 1 || r.Level > MaxLevel {
		return Choice{}, fmt.Errorf("robot level %d: levels are 1 to %d", r.Level, MaxLevel)
	}
	if res := pos.Result(); res.Over {
		return Choice{}, fmt.Errorf("the game is over: no move to choose")
	}
	legal := pos.Legal()
	if len(legal) == 0 {
		return Choice{}, fmt.Errorf("the side to move has no legal move")
	}
	// With a rules.Mover the search plays moves by number: moves, sorted,
	// are legal in the same order, and are shuffled alike.
	var moves []rules.Move
	mv, mover := pos.(rules.Mover)
	if mover && r.Level > 1 {
		moves = mv.Moves(nil)
		slices.Sort(moves)
	}
	rng := rand.New(rand.NewPCG(r.Seed, uint64(r.Level)))
	rng.Shuffle(len(legal), func(i, j int) {
		legal[i], legal[j] = legal[j], legal[i]
		if moves != nil {
			moves[i], moves[j] = moves[j], moves[i]
		}
	})
	if r.Level == 1 {
		return easyMove(ev, pos, legal, rng), nil
	}
	s := &searcher{ev: ev, env: env{game: r.Game, opts: r.Opts}, budget: r.Budget, stop: r.Stop,
		mover: mover, start: pos}
	if s.budget == (Budget{}) {
		s.budget.Time = DefaultTime
	}
	if s.budget.Time > 0 {
		s.deadline = time.Now().Add(s.budget.Time)
	}
	maxDepth := 64
	if r.Level == 2 {
		maxDepth = 2
	}
	c := s.root(pos, legal, moves, maxDepth)
	if s.cancelled {
		return Choice{}, ErrStopped
	}
	return c, nil
}

// Turn chooses the robot's whole submission: for games of one move per
// turn one move; for Taratibu, single moves until the turn passes or the
// game ends. Each single move has the robot's budget.
func (r *Robot) Turn(pos rules.Position) (Turn, error) {
	var t Turn
	me := pos.ToMove()
	cur := pos.Clone()
	seed := r.Seed
	for len(t.Moves) == 0 || (cur.ToMove() == me && !cur.Result().Over) {
		rr := *r
		rr.Seed = seed + uint64(len(t.Moves))
		c, err := rr.Move(cur)
		if err != nil {
			return Turn{}, err
		}
		if len(t.Moves) == 0 {
			t.Score, t.Lost = c.Score, c.Lost
		}
		if _, err := cur.Play(c.Move); err != nil {
			return Turn{}, fmt.Errorf("robot chose %q, which the rules refuse: %w", c.Move, err)
		}
		t.Moves = append(t.Moves, c.Move)
		t.Nodes += c.Nodes
		t.Depths = append(t.Depths, c.Depth)
	}
	return t, nil
}

// easyMove is level 1: a winning move if there is one, else the free capture
// that takes the most, else a random move. legal is already shuffled.
func easyMove(ev evaluation, pos rules.Position, legal []string, rng *rand.Rand) Choice {
	me := pos.ToMove()
	they := rules.Other(me)
	before := ev.count(pos)
	best, bestGain := "", 0
	var nodes int64
	for _, m := range legal {
		q := pos.Clone()
		if _, err := q.Play(m); err != nil {
			continue
		}
		nodes++
		res := q.Result()
		if res.Over && res.Winner == me {
			return Choice{Move: m, Nodes: nodes}
		}
		after := ev.count(q)
		gain := before[they] - after[they]
		if gain <= bestGain || res.Over {
			continue
		}
		if q.ToMove() != me && canCapture(ev, q, me, after[me]) {
			continue
		}
		best, bestGain = m, gain
	}
	if best == "" {
		best = legal[rng.IntN(len(legal))]
	}
	return Choice{Move: best, Nodes: nodes}
}

// canCapture reports whether the side to move in pos has a move that takes
// a piece of seat, who has have pieces now.
func canCapture(ev evaluation, pos rules.Position, seat, have int) bool {
	for _, m := range pos.Legal() {
		q := pos.Clone()
		if _, err := q.Play(m); err != nil {
			continue
		}
		if ev.count(q)[seat] < have {
			return true
		}
	}
	return false
}
