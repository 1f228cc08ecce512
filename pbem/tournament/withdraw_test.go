package tournament

import (
	"slices"
	"testing"
)

// TestWithdrawRoundRobin: a player who withdraws after round 1 forfeits
// the game in play and every game paired for them later; the opponents
// score them as wins.
func TestWithdrawRoundRobin(t *testing.T) {
	s, _ := New(Settings{Kind: RoundRobin})
	entrants(s, 4)
	s.Start()
	r1 := must(s.NextRound())
	play(t, s, r1[0].White, r1[0].Black, 0.5)
	if err := s.Withdraw("p02"); err != nil {
		t.Fatal(err)
	}
	if err := s.Withdraw("p02"); err == nil {
		t.Error("withdrew twice")
	}
	if err := s.Withdraw("nobody"); err == nil {
		t.Error("a stranger withdrew")
	}
	for !s.Done() {
		for _, g := range must(s.NextRound()) {
			if (g.White == "p02" || g.Black == "p02") != (g.Result != Pending) {
				t.Fatalf("%+v", g)
			}
		}
		for _, g := range s.Pending() {
			play(t, s, g.White, g.Black, 1)
		}
	}
	for _, g := range s.Games {
		if g.White == "p02" && g.Result != WhiteForfeits && g.Result != Draw || g.Black == "p02" && g.Result != BlackForfeits && g.Result != Draw {
			t.Errorf("p02's game %+v", g)
		}
	}
	for _, st := range s.Standings() {
		if st.ID == "p02" && (!st.Withdrawn || st.Losses < 2 || st.Played != 3) {
			t.Errorf("p02's standing %+v", st)
		}
	}
}

// TestWithdrawSwiss: a withdrawn player is paired no more; the rest of
// seven get a bye.
func TestWithdrawSwiss(t *testing.T) {
	s, _ := New(Settings{Kind: Swiss, Rounds: 3})
	entrants(s, 8)
	s.Start()
	must(s.NextRound())
	s.Withdraw("p01")
	for _, g := range s.Pending() {
		play(t, s, g.White, g.Black, 1)
	}
	r2 := must(s.NextRound())
	if len(r2) != 4 || r2[3].Result != Bye {
		t.Fatalf("round 2: %+v", r2)
	}
	for _, g := range r2 {
		if slices.Contains([]string{g.White, g.Black}, "p01") {
			t.Fatalf("p01 paired after withdrawing: %+v", g)
		}
	}
}

// TestLeave: before the start a player leaves the entries (Withdraw too);
// after it, leaving is refused and withdrawing is the way out.
func TestLeave(t *testing.T) {
	s, _ := New(Settings{Kind: RoundRobin})
	entrants(s, 4)
	if err := s.Leave("p02"); err != nil {
		t.Fatal(err)
	}
	if err := s.Withdraw("p03"); err != nil {
		t.Fatal(err)
	}
	if err := s.Leave("p02"); err == nil || !contains(err.Error(), "p02 is not in the tournament") {
		t.Errorf("a second leave: %v", err)
	}
	if len(s.Entrants) != 2 || s.Entrants[0].ID != "p01" || s.Entrants[1].ID != "p04" {
		t.Fatalf("entrants %+v", s.Entrants)
	}
	s.Start()
	if err := s.Leave("p01"); err == nil || !contains(err.Error(), "withdrawing forfeits the games left") {
		t.Errorf("leave after the start: %v", err)
	}
}
