package tournament

import (
	"errors"
	"math/bits"
)

// bracket is the order of the seeds (from 1) in the first round of a
// knockout of size players (a power of two): 1 v size, and each seed
// from the top half meets its mirror, so that the two best can meet
// only in the final, the four best only in the semi-finals, and so on.
func bracket(size int) []int {
	order := []int{1}
	for n := 2; n <= size; n *= 2 {
		next := make([]int, 0, n)
		for _, s := range order {
			next = append(next, s, n+1-s)
		}
		order = next
	}
	return order
}

// knockoutSize is the size of the bracket: the power of two at or above
// the number of players, the places over it byes.
func (s *State) knockoutSize() int {
	return 1 << bits.Len(uint(len(s.Entrants)-1))
}

// knockoutRounds is the number of rounds to the final.
func (s *State) knockoutRounds() int {
	return bits.Len(uint(s.knockoutSize())) - 1
}

// slots are the players of each match of round r, in bracket order,
// two slots a match; "" where nobody came (a bye, or a match that no one
// won). ok is false when an earlier round is not decided yet.
func (s *State) slots(r int) (slots []string, ok bool) {
	bySeed := make([]string, s.knockoutSize()+1)
	for _, e := range s.Entrants {
		if e.Seed >= 1 && e.Seed < len(bySeed) { // as Start numbered them
			bySeed[e.Seed] = e.ID
		}
	}
	for _, seed := range bracket(s.knockoutSize()) {
		slots = append(slots, bySeed[seed])
	}
	for round := 1; round < r; round++ {
		next := make([]string, len(slots)/2)
		for m := range next {
			w, decided := s.matchWinner(round, m+1)
			if !decided {
				return nil, false
			}
			next[m] = w
		}
		slots = next
	}
	return slots, true
}

// matchWinner is who won match m of round r: the winner of its last game
// ("" when both forfeited), or the higher seed after a draw when the
// draw rule says so. A match of a paired round without a game had no
// players. decided is false while the match is to play or replay.
func (s *State) matchWinner(r, m int) (winner string, decided bool) {
	last := -1
	for i, g := range s.Games {
		if g.Round == r && g.Group == m {
			last = i
		}
	}
	if last < 0 {
		return "", r <= s.Round
	}
	g := s.Games[last]
	switch w, b := g.Result.Points(); {
	case g.Result == Pending:
		return "", false
	case g.Result == Draw:
		if s.Settings.DrawRule == Replay {
			return "", false // a replay is made when the draw is recorded
		}
		if s.Entrants[s.entrant(g.White)].Seed < s.Entrants[s.entrant(g.Black)].Seed {
			return g.White, true
		}
		return g.Black, true
	case w == 1:
		return g.White, true
	case b == 1:
		return g.Black, true
	}
	return "", true // a double forfeit
}

func (s *State) nextKnockout() ([]Game, error) {
	if s.Round >= s.knockoutRounds() {
		return nil, errors.New("the knockout's final has been paired")
	}
	slots, ok := s.slots(s.Round + 1)
	if !ok {
		return nil, errors.New("a match of the round before has no winner yet")
	}
	s.Round++
	whites := make(map[string]int)
	for _, g := range s.Games {
		if g.Black != "" {
			whites[g.White]++
		}
	}
	var games []Game
	for m := 0; m < len(slots); m += 2 {
		a, b := slots[m], slots[m+1]
		if a != "" && s.withdrawn(a) && b == "" || b != "" && s.withdrawn(b) && a == "" {
			continue // nobody goes through
		}
		g := Game{Round: s.Round, Group: m/2 + 1, White: a, Black: b}
		switch {
		case a == "" && b == "":
			continue
		case a == "":
			g.White, g.Black = b, ""
		case b == "":
		case whites[b] < whites[a] || whites[b] == whites[a] && s.Entrants[s.entrant(b)].Seed < s.Entrants[s.entrant(a)].Seed:
			g.White, g.Black = b, a // White to the one who had fewer, else the higher seed
		}
		if g.Black == "" {
			g.Result = Bye
		}
		games = append(games, g)
	}
	return games, nil
}

// knockoutWinner is the winner of the final, once it is decided.
func (s *State) knockoutWinner() (string, bool) {
	final := s.knockoutRounds()
	if s.Round < final {
		return "", false
	}
	return s.matchWinner(final, 1)
}

// knockoutDecided makes the replay of a drawn game, colours swapped,
// when the draw rule says so.
func (s *State) knockoutDecided(i int) {
	g := s.Games[i]
	if g.Result != Draw || s.Settings.DrawRule != Replay {
		return
	}
	s.Games = append(s.Games, s.forfeited(Game{Round: g.Round, Group: g.Group, White: g.Black, Black: g.White}))
}

// roundsReached is, for each player, 1 and a round more for each match
// won: the round a player reached, one past the final for the winner.
func (s *State) roundsReached() map[string]int {
	reached := make(map[string]int, len(s.Entrants))
	for _, e := range s.Entrants {
		reached[e.ID] = 1
	}
	for r := 1; r <= s.Round; r++ {
		for m := 1; m <= s.knockoutSize()>>r; m++ {
			if w, ok := s.matchWinner(r, m); ok && w != "" {
				reached[w]++
			}
		}
	}
	return reached
}
