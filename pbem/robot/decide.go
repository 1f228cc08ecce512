package robot

import (
	"github.com/pbemd/pbemd/rules"
)

// What a robot does besides moving, the rule its help text states:
//
//   - An undo: robots of levels 1 and 2 accept every undo, being there to
//     practise against; level 3 plays on (which declines it) or rejects it.
//   - A draw: a robot accepts when it does not think itself ahead: level 1
//     counts pieces, levels 2 and 3 take their search's score of the position
//     (and count pieces when there was nothing to search).
//   - Resigning: levels 2 and 3 resign when their search proves that every
//     move loses; level 1 never resigns. A robot never proposes anything.

// AcceptsUndo reports whether the robot accepts an undo.
func (r *Robot) AcceptsUndo() bool { return r.Level < MaxLevel }

// AcceptsDraw reports whether the robot, holding seat, accepts a draw in
// pos, whoever is to move.
func (r *Robot) AcceptsDraw(pos rules.Position, seat int) (bool, error) {
	n := evaluationOf(r.Game).count(pos)
	byCount := n[seat] <= n[rules.Other(seat)]
	if r.Level == 1 {
		return byCount, nil
	}
	c, err := r.Move(pos)
	if err != nil {
		return false, err
	}
	if c.Depth == 0 {
		return byCount, nil // one legal move, or no time: nothing was searched
	}
	score := c.Score
	if pos.ToMove() != seat {
		score = -score
	}
	return score <= 0, nil
}

// Resigns reports whether the robot resigns rather than play turn.
func (r *Robot) Resigns(t Turn) bool { return r.Level >= 2 && t.Lost }
