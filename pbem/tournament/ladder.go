package tournament

import (
	"fmt"
	"slices"
)

// Challenge makes the game of a ladder challenge: the challenger, as
// White, against a player at most Reach places above. Each may be in one
// challenge at a time. When the challenger wins (or the defender
// forfeits) the challenger takes the defender's place and those from it
// down to the challenger's old place move down one; any other result
// leaves the ladder as it was.
func (s *State) Challenge(challenger, defender string) (Game, error) {
	if s.Settings.Kind != Ladder {
		return Game{}, fmt.Errorf("challenges are for a ladder, and this is a %s", s.Settings.Kind)
	}
	if !s.Started {
		return Game{}, ErrNotStarted
	}
	c, d := slices.Index(s.Ladder, challenger), slices.Index(s.Ladder, defender)
	switch {
	case c < 0:
		return Game{}, fmt.Errorf("%s is not on the ladder", shorten(challenger))
	case d < 0:
		return Game{}, fmt.Errorf("%s is not on the ladder", shorten(defender))
	case d >= c:
		return Game{}, fmt.Errorf("%s (place %d) may challenge only those above, not %s (place %d)", challenger, c+1, defender, d+1)
	case c-d > s.Settings.Reach:
		return Game{}, fmt.Errorf("%s (place %d) may challenge up to %d places above, not %s (place %d)", challenger, c+1, s.Settings.Reach, defender, d+1)
	}
	for _, g := range s.Games {
		if g.Result != Pending {
			continue
		}
		for _, id := range []string{challenger, defender} {
			if g.White == id || g.Black == id {
				return Game{}, fmt.Errorf("%s is already in a challenge (%s against %s)", id, g.White, g.Black)
			}
		}
	}
	g := Game{Round: 1, White: challenger, Black: defender}
	if n := len(s.Games); n > 0 {
		g.Round = s.Games[n-1].Round + 1
	}
	s.Games = append(s.Games, g)
	return g, nil
}

// ladderDecided moves a winning challenger into the defender's place.
func (s *State) ladderDecided(i int) {
	g := s.Games[i]
	if g.Result != WhiteWins && g.Result != BlackForfeits {
		return
	}
	c, d := slices.Index(s.Ladder, g.White), slices.Index(s.Ladder, g.Black)
	if c < 0 || d < 0 || d > c {
		return // one has left the ladder, or the challenger is above already
	}
	s.Ladder = slices.Insert(slices.Delete(s.Ladder, c, c+1), d, g.White)
}

// MaxLadderHistory is how many decided challenges a ladder keeps: the
// older go, so that a ladder, which never ends, keeps a bounded state.
const MaxLadderHistory = 1000

// trimLadder drops a ladder's oldest decided challenges past
// MaxLadderHistory.
func (s *State) trimLadder() {
	if s.Settings.Kind != Ladder {
		return
	}
	decided := 0
	for _, g := range s.Games {
		if g.Result != Pending {
			decided++
		}
	}
	s.Games = slices.DeleteFunc(s.Games, func(g Game) bool {
		if g.Result == Pending || decided <= MaxLadderHistory {
			return false
		}
		decided--
		return true
	})
}
