package tournament

import (
	"fmt"
	"testing"
)

// play records the game between a and b, wherever it stands and
// whoever has White, as a's score: 1, 0.5, 0, or -1 for a forfeit by a.
func play(t *testing.T, s *State, a, b string, score float64) {
	t.Helper()
	for _, g := range s.Pending() {
		if g.White != a && g.White != b || g.Black != a && g.Black != b {
			continue
		}
		aWhite := g.White == a
		r := map[float64][2]Result{1: {WhiteWins, BlackWins}, 0.5: {Draw, Draw}, 0: {BlackWins, WhiteWins},
			-1: {WhiteForfeits, BlackForfeits}}[score]
		res := r[0]
		if !aWhite {
			res = r[1]
		}
		if err := s.Record(g.Round, g.White, g.Black, res); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("no pending game between %s and %s", a, b)
}

func line(st Standing) string {
	s := fmt.Sprintf("%d %s %g %d/%d/%d/%d", st.Rank, st.ID, st.Points, st.Played, st.Wins, st.Draws, st.Losses)
	for _, tb := range st.TieBreaks {
		s += fmt.Sprintf(" %s=%g", tb.Name, tb.Value)
	}
	return s
}

func checkStandings(t *testing.T, s *State, want []string) {
	t.Helper()
	got := s.Standings()
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
	for i := range want {
		if line(got[i]) != want[i] {
			t.Errorf("line %d: %q, want %q", i+1, line(got[i]), want[i])
		}
	}
}

// TestStandingsRoundRobin: four players, by hand. p04 beats p01 by
// forfeit, which counts as a win in points and in Sonneborn-Berger;
// p01 and p04 are level on 2 points and p04 is first on
// Sonneborn-Berger (2 for beating p01, 0.75 and 0.25 for the draws).
func TestStandingsRoundRobin(t *testing.T) {
	s, _ := New(Settings{Kind: RoundRobin})
	entrants(s, 4)
	s.Start()
	for r := 1; r <= 3; r++ {
		must(s.NextRound())
		for _, g := range s.Pending() {
			x := map[[2]string]float64{{"p01", "p02"}: 1, {"p01", "p03"}: 1, {"p01", "p04"}: -1,
				{"p02", "p03"}: 1, {"p02", "p04"}: 0.5, {"p03", "p04"}: 0.5}
			a, b := min(g.White, g.Black), max(g.White, g.Black)
			play(t, s, a, b, x[[2]string{a, b}])
		}
	}
	checkStandings(t, s, []string{
		"1 p04 2 3/1/2/0 Sonneborn-Berger=3",
		"2 p01 2 3/2/0/1 Sonneborn-Berger=2",
		"3 p02 1.5 3/1/1/1 Sonneborn-Berger=1.5",
		"4 p03 0.5 3/0/1/2 Sonneborn-Berger=1",
	})
	if !s.Done() || s.Winner() != "p04" {
		t.Errorf("done %v, winner %q", s.Done(), s.Winner())
	}
}

// TestStandingsSharedRank: equal in points and tie-breaks, equal in
// rank, and the next rank counts them both.
func TestStandingsSharedRank(t *testing.T) {
	s, _ := New(Settings{Kind: RoundRobin})
	entrants(s, 3)
	s.Start()
	for !s.Done() {
		must(s.NextRound())
		for _, g := range s.Pending() {
			x := map[string]float64{"p01p02": 0.5, "p01p03": 1, "p02p03": 1}
			a, b := min(g.White, g.Black), max(g.White, g.Black)
			play(t, s, a, b, x[a+b])
		}
	}
	checkStandings(t, s, []string{
		"1 p01 1.5 2/1/1/0 Sonneborn-Berger=0.75",
		"1 p02 1.5 2/1/1/0 Sonneborn-Berger=0.75",
		"3 p03 0 2/0/0/2 Sonneborn-Berger=0",
	})
}

// TestStandingsSwiss: five players over three rounds, set by hand. A bye
// is a win of 1 point with no opponent, adding nothing to Buchholz;
// median Buchholz drops the best and worst opponent of those who had
// three.
func TestStandingsSwiss(t *testing.T) {
	s := &State{Settings: Settings{Kind: Swiss, Rounds: 3}, Started: true, Round: 3}
	for i, id := range []string{"A", "B", "C", "D", "E"} {
		s.Entrants = append(s.Entrants, Entrant{ID: id, Seed: i + 1})
	}
	s.Games = []Game{
		{Round: 1, White: "A", Black: "B", Result: WhiteWins},
		{Round: 1, White: "C", Black: "D", Result: Draw},
		{Round: 1, White: "E", Result: Bye},
		{Round: 2, White: "A", Black: "C", Result: WhiteWins},
		{Round: 2, White: "B", Black: "E", Result: WhiteWins},
		{Round: 2, White: "D", Result: Bye},
		{Round: 3, White: "A", Black: "D", Result: Draw},
		{Round: 3, White: "B", Black: "C", Result: BlackWins},
		{Round: 3, White: "E", Result: Bye},
	}
	checkStandings(t, s, []string{
		"1 A 2.5 3/2/1/0 Buchholz=4.5 Median Buchholz=1.5",
		"2 D 2 3/1/2/0 Buchholz=4 Median Buchholz=4",
		"3 E 2 3/2/0/1 Buchholz=1 Median Buchholz=1",
		"4 C 1.5 3/1/1/1 Buchholz=5.5 Median Buchholz=2",
		"5 B 1 3/1/0/2 Buchholz=6 Median Buchholz=2",
	})
}
