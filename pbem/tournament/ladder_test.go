package tournament

import (
	"slices"
	"testing"
)

func TestLadder(t *testing.T) {
	s, _ := New(Settings{Kind: Ladder, Reach: 2})
	entrants(s, 5)
	if _, err := s.Challenge("p05", "p04"); err != ErrNotStarted {
		t.Errorf("a challenge before the start: %v", err)
	}
	s.Start()
	ladder := func(want ...string) {
		t.Helper()
		if !slices.Equal(s.Ladder, want) {
			t.Fatalf("ladder %v, want %v", s.Ladder, want)
		}
		for i, st := range s.Standings() {
			if i < len(want) && (st.ID != want[i] || st.Rank != i+1) {
				t.Fatalf("standings line %d: %+v, want %s", i+1, st, want[i])
			}
		}
	}
	ladder("p01", "p02", "p03", "p04", "p05")
	for _, c := range []struct{ c, d, want string }{
		{"p05", "p02", "p05 (place 5) may challenge up to 2 places above, not p02 (place 2)"},
		{"p03", "p04", "may challenge only those above"},
		{"p03", "p03", "may challenge only those above"},
		{"p03", "nobody", "nobody is not on the ladder"},
		{"forger", "p01", "forger is not on the ladder"},
	} {
		if _, err := s.Challenge(c.c, c.d); err == nil || !contains(err.Error(), c.want) {
			t.Errorf("Challenge(%s, %s) = %v, want %q", c.c, c.d, err, c.want)
		}
	}
	g := must(s.Challenge("p05", "p03"))
	if g.White != "p05" || g.Black != "p03" || g.Round != 1 {
		t.Fatalf("challenge: %+v", g)
	}
	if _, err := s.Challenge("p04", "p03"); err == nil || !contains(err.Error(), "p03 is already in a challenge") {
		t.Errorf("a second challenge of p03: %v", err)
	}
	if _, err := s.NextRound(); err == nil {
		t.Error("a ladder paired a round")
	}
	s.Record(1, "p05", "p03", WhiteWins)
	ladder("p01", "p02", "p05", "p03", "p04")
	s.Record(must(s.Challenge("p04", "p05")).Round, "p04", "p05", Draw)
	ladder("p01", "p02", "p05", "p03", "p04")
	s.Record(must(s.Challenge("p03", "p02")).Round, "p03", "p02", BlackWins)
	ladder("p01", "p02", "p05", "p03", "p04")
	// The defender withdraws: a forfeit, the challenger moves up, the
	// defender leaves the ladder.
	must(s.Challenge("p05", "p01"))
	s.Withdraw("p01")
	ladder("p05", "p02", "p03", "p04")
	if s.Winner() != "p05" || s.Done() {
		t.Errorf("winner %q, done %v; want p05 at the top of a ladder that does not end", s.Winner(), s.Done())
	}
	// A newcomer joins at the bottom.
	if err := s.Join(Entrant{ID: "p06", Rating: 3000}); err != nil {
		t.Fatal(err)
	}
	ladder("p05", "p02", "p03", "p04", "p06")
}

// TestLadderHistory: a ladder, which never ends, keeps its last
// MaxLadderHistory decided challenges, and numbers challenges on.
func TestLadderHistory(t *testing.T) {
	s, _ := New(Settings{Kind: Ladder, Reach: 1})
	entrants(s, 2)
	s.Start()
	for i := 1; i <= MaxLadderHistory+100; i++ {
		g := must(s.Challenge("p02", "p01"))
		if g.Round != i {
			t.Fatalf("challenge %d numbered %d", i, g.Round)
		}
		if err := s.Record(g.Round, "p02", "p01", Draw); err != nil {
			t.Fatal(err)
		}
	}
	if len(s.Games) != MaxLadderHistory || s.Games[0].Round != 101 {
		t.Errorf("%d challenges kept, the first %d; want %d from 101", len(s.Games), s.Games[0].Round, MaxLadderHistory)
	}
}
