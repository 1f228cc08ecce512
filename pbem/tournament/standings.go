package tournament

import (
	"cmp"
	"slices"
)

// Tie-break names, as the standings print them.
const (
	SonnebornBerger = "Sonneborn-Berger"
	Buchholz        = "Buchholz"
	MedianBuchholz  = "Median Buchholz"
	RoundReached    = "Round reached"
)

// Standing is a player's line in the standings of their group.
type Standing struct {
	Group int // the group or division, from 1; 1 for the kinds without groups
	// Rank from 1; players equal in points and every tie-break share it.
	// In a ladder it is the place.
	Rank      int
	ID        string
	Withdrawn bool
	Points    float64
	// Played counts the games with a result, byes and forfeits among
	// them; Wins counts byes and forfeits won.
	Played, Wins, Draws, Losses int
	TieBreaks                   []TieBreak
}

// TieBreak is a named tie-break and its value.
type TieBreak struct {
	Name  string
	Value float64
}

// tally is what the standings count for a player.
type tally struct {
	points                      float64
	played, wins, draws, losses int
	opponents                   []string  // one per game with an opponent
	scored                      []float64 // against each of them
}

// Standings are the standings of each group in turn (of the season in
// play, in a league), each ordered by points then the kind's tie-breaks:
// Sonneborn-Berger for a round robin and a league; Buchholz then median
// Buchholz for a Swiss; for a knockout the round reached comes before
// the points, and a ladder is in the ladder's order. Left equal, the
// higher seed is listed first.
func (s *State) Standings() []Standing {
	t := make(map[string]*tally, len(s.Entrants))
	for _, e := range s.Entrants {
		t[e.ID] = &tally{}
	}
	for _, g := range s.Games {
		if g.Result == Pending || g.Season != s.Season {
			continue
		}
		w, b := g.Result.Points()
		add := func(id, opp string, p float64) {
			x := t[id]
			if x == nil {
				return
			}
			x.points += p
			x.played++
			switch {
			case g.Result == Draw:
				x.draws++
			case p == 1:
				x.wins++
			default:
				x.losses++
			}
			if opp != "" {
				x.opponents = append(x.opponents, opp)
				x.scored = append(x.scored, p)
			}
		}
		add(g.White, g.Black, w)
		if g.Black != "" {
			add(g.Black, g.White, b)
		}
	}
	var reached map[string]int
	if s.Settings.Kind == Knockout {
		reached = s.roundsReached()
	}
	var out []Standing
	for _, e := range s.Entrants {
		if s.Settings.Kind == League && e.Group == 0 {
			continue // joined during the season: placed at the next
		}
		x := t[e.ID]
		st := Standing{Group: max(e.Group, 1), ID: e.ID, Withdrawn: e.Withdrawn, Points: x.points,
			Played: x.played, Wins: x.wins, Draws: x.draws, Losses: x.losses}
		switch s.Settings.Kind {
		case RoundRobin, League:
			sb := 0.0
			for i, o := range x.opponents {
				sb += x.scored[i] * t[o].points
			}
			st.TieBreaks = []TieBreak{{SonnebornBerger, sb}}
		case Swiss:
			var opp []float64
			for _, o := range x.opponents {
				opp = append(opp, t[o].points)
			}
			bh := sum(opp)
			median := bh
			if len(opp) >= 3 {
				median -= slices.Max(opp) + slices.Min(opp)
			}
			st.TieBreaks = []TieBreak{{Buchholz, bh}, {MedianBuchholz, median}}
		case Knockout:
			st.TieBreaks = []TieBreak{{RoundReached, float64(reached[e.ID])}}
		}
		out = append(out, st)
	}
	seed := make(map[string]int, len(s.Entrants))
	for _, e := range s.Entrants {
		seed[e.ID] = e.Seed
	}
	place := make(map[string]int, len(s.Ladder))
	for i, id := range s.Ladder {
		place[id] = i + 1
	}
	slices.SortStableFunc(out, func(a, b Standing) int {
		if c := cmp.Compare(a.Group, b.Group); c != 0 {
			return c
		}
		if s.Settings.Kind == Ladder {
			return cmp.Compare(ladderPlace(place, a.ID), ladderPlace(place, b.ID))
		}
		if c := compareScore(a, b, s.Settings.Kind); c != 0 {
			return c
		}
		return cmp.Compare(seed[a.ID], seed[b.ID])
	})
	first := 0 // the first of the group
	for i := range out {
		if out[i].Group != out[first].Group {
			first = i
		}
		switch {
		case s.Settings.Kind == Ladder:
			out[i].Rank = ladderPlace(place, out[i].ID)
		case i > first && compareScore(out[i], out[i-1], s.Settings.Kind) == 0:
			out[i].Rank = out[i-1].Rank
		default:
			out[i].Rank = i - first + 1
		}
	}
	return out
}

// ladderPlace is the player's place on the ladder; those who withdrew,
// and so left it, come after its last.
func ladderPlace(place map[string]int, id string) int {
	if p, ok := place[id]; ok {
		return p
	}
	return len(place) + 1
}

// compareScore orders two standings best first: by the round reached in
// a knockout, then by points, then by the tie-breaks in turn.
func compareScore(a, b Standing, k Kind) int {
	if k == Knockout {
		if c := cmp.Compare(b.TieBreaks[0].Value, a.TieBreaks[0].Value); c != 0 {
			return c
		}
		return cmp.Compare(b.Points, a.Points)
	}
	if c := cmp.Compare(b.Points, a.Points); c != 0 {
		return c
	}
	for i := range a.TieBreaks {
		if c := cmp.Compare(b.TieBreaks[i].Value, a.TieBreaks[i].Value); c != 0 {
			return c
		}
	}
	return 0
}

func sum(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t
}
