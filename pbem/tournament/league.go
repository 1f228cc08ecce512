package tournament

import (
	"errors"
	"fmt"
	"slices"
)

// A league plays seasons. Each season is a round robin in each division
// (twice round when Double). When a season's last game ends, NextRound
// starts the next season itself (NextSeason):
//
//  1. Players who withdrew leave the league.
//  2. Between each division and the one below, the top P of the lower
//     division change places with the bottom P of the upper (fewer when
//     either division has fewer than 2P players left).
//  3. The league's order is then the divisions in turn, each as the
//     relegated from above, those who stayed by their final rank, and
//     the promoted from below.
//  4. Players who joined during the season enter the order by rating:
//     each after the last player rated at least as high.
//  5. The order is cut again into divisions of DivisionSize from the
//     top, as at the start (the last two sharing their players when the
//     last would have fewer than half): so a place left by a player who
//     withdrew goes to the next below, and a newcomer pushes those below
//     down one place.

func (s *State) nextLeague() ([]Game, error) {
	if s.Round >= s.roundRobinRounds() {
		if err := s.NextSeason(); err != nil {
			return nil, err
		}
	}
	return s.nextRoundRobin()
}

// SeasonOver says whether every game of the league's season has ended.
func (s *State) SeasonOver() bool {
	return s.Settings.Kind == League && s.Started &&
		s.Round == s.roundRobinRounds() && s.pendingIn(s.Round) == 0
}

// NextSeason ends the league's season that is over and places the
// players in the divisions of the next, by promotion and relegation;
// NextRound then pairs its first round. NextRound calls it itself after
// a season's last round. Games keeps the season that ended and drops
// the ones before it.
func (s *State) NextSeason() error {
	if s.Settings.Kind != League {
		return fmt.Errorf("seasons are for a league, and this is a %s", s.Settings.Kind)
	}
	if !s.SeasonOver() {
		return fmt.Errorf("season %d is not over", s.Season)
	}
	if s.Settings.Seasons > 0 && s.Season >= s.Settings.Seasons {
		return ErrDone
	}
	// The divisions in their final order, without those who withdrew.
	divisions := make([][]string, s.Groups)
	for _, st := range s.Standings() {
		if !st.Withdrawn {
			divisions[st.Group-1] = append(divisions[st.Group-1], st.ID)
		}
	}
	moves := make([]int, s.Groups) // moves[k]: up from k+1, down from k
	for k := 0; k+1 < s.Groups; k++ {
		moves[k] = min(s.Settings.Promote, len(divisions[k])/2, len(divisions[k+1])/2)
	}
	var order []string
	for k, d := range divisions {
		if k > 0 {
			up := divisions[k-1]
			order = append(order, up[len(up)-moves[k-1]:]...)
		}
		top, bottom := 0, len(d)
		if k > 0 {
			top = moves[k-1]
		}
		if k+1 < s.Groups {
			bottom -= moves[k]
		}
		order = append(order, d[top:bottom]...)
		if k+1 < s.Groups {
			order = append(order, divisions[k+1][:moves[k]]...)
		}
	}
	rating := make(map[string]int, len(s.Entrants))
	for _, e := range s.Entrants {
		rating[e.ID] = e.Rating
	}
	for _, k := range s.byRating(func(e Entrant) bool { return e.Group == 0 && !e.Withdrawn }) {
		e := s.Entrants[k]
		at := 0
		for i, id := range order {
			if rating[id] >= e.Rating {
				at = i + 1
			}
		}
		order = slices.Insert(order, at, e.ID)
	}
	if len(order) < 2 {
		return errors.New("a league season needs at least 2 players")
	}
	place := make([]int, len(order))
	for i, id := range order {
		place[i] = s.entrant(id)
	}
	for k := range s.Entrants {
		s.Entrants[k].Group = 0
	}
	for i, k := range place {
		s.Entrants[k].Seed = i + 1
	}
	s.Groups = divide(s, place, s.Settings.DivisionSize)
	// The season that ended stays for the record; those before it go, so
	// that a league without end keeps a bounded state. Their boards are
	// the service's.
	s.Games = slices.DeleteFunc(s.Games, func(g Game) bool { return g.Season < s.Season })
	s.Season++
	s.Round = 0
	return nil
}
