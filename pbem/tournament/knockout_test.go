package tournament

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestBracket(t *testing.T) {
	if got, want := bracket(8), []int{1, 8, 4, 5, 2, 7, 3, 6}; !slices.Equal(got, want) {
		t.Errorf("bracket(8) = %v, want %v", got, want)
	}
	// In a bracket of 64 each pair of the first round sums to 65, and
	// seeds 1 and 2 are in different halves, 1 to 4 in different
	// quarters.
	b := bracket(64)
	for i := 0; i < 64; i += 2 {
		if b[i]+b[i+1] != 65 {
			t.Fatalf("bracket(64) pairs %d with %d", b[i], b[i+1])
		}
	}
	for seed := 1; seed <= 4; seed++ {
		at := slices.Index(b, seed)
		for other := seed + 1; other <= 4; other++ {
			if at/16 == slices.Index(b, other)/16 {
				t.Errorf("seeds %d and %d in one quarter: %v", seed, other, b)
			}
		}
	}
}

// playKnockout plays a knockout of n players out with random results
// (draws and forfeits among them, and a withdrawal now and then) and
// checks each round against a plain model: the players of a round are
// exactly those still in, and a match's loser is out.
func playKnockout(t *testing.T, n int, rule DrawRule, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	s, _ := New(Settings{Kind: Knockout, DrawRule: rule})
	for i := range n {
		s.Join(Entrant{ID: fmt.Sprintf("p%02d", i+1), Rating: 1500 + rng.IntN(600)})
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	in := make(map[string]bool)
	seedOf := make(map[string]int)
	for _, e := range s.Entrants {
		in[e.ID] = true
		seedOf[e.ID] = e.Seed
	}
	size := 1
	for size < n {
		size *= 2
	}
	for round := 1; !s.Done(); round++ {
		games, err := s.NextRound()
		if err != nil {
			t.Fatalf("n=%d round %d: %v", n, round, err)
		}
		seen := make(map[string]bool)
		for _, g := range games {
			for _, id := range []string{g.White, g.Black} {
				if id == "" {
					continue
				}
				if !in[id] || seen[id] {
					t.Fatalf("n=%d round %d: %s paired (in %v, twice %v)", n, round, id, in[id], seen[id])
				}
				seen[id] = true
			}
			if g.Result == Bye && round == 1 && seedOf[g.White] > size-n {
				t.Fatalf("n=%d: seed %d has a bye; the byes are for the top %d", n, seedOf[g.White], size-n)
			}
		}
		for id := range in {
			if !seen[id] && !s.withdrawn(id) {
				t.Fatalf("n=%d round %d: %s is still in but not paired", n, round, id)
			}
		}
		if round == 1 && len(games) != size/2 {
			t.Fatalf("n=%d: %d games in round 1, want %d", n, len(games), size/2)
		}
		for {
			pending := s.Pending()
			if len(pending) == 0 {
				break
			}
			g := pending[0]
			var r Result
			switch x := rng.IntN(20); {
			case x == 0:
				s.Withdraw(g.White)
				continue
			case x == 1:
				r = BlackForfeits
			case x < 6:
				r = Draw
			case x < 13:
				r = WhiteWins
			default:
				r = BlackWins
			}
			if err := s.Record(g.Round, g.White, g.Black, r); err != nil {
				t.Fatal(err)
			}
		}
		// The model: a match's last game decides it.
		for _, g := range games {
			var last Game
			for _, x := range s.Games {
				if x.Round == round && x.Group == g.Group {
					last = x
				}
			}
			loser := map[Result][]string{WhiteWins: {last.Black}, BlackForfeits: {last.Black},
				BlackWins: {last.White}, WhiteForfeits: {last.White}, DoubleForfeit: {last.White, last.Black}}[last.Result]
			if last.Result == Draw {
				if rule == Replay {
					t.Fatalf("n=%d round %d: a drawn match without a replay: %+v", n, round, last)
				}
				loser = []string{last.White}
				if seedOf[last.White] < seedOf[last.Black] {
					loser = []string{last.Black}
				}
			}
			for _, id := range loser {
				delete(in, id)
			}
		}
		for id := range in {
			if s.withdrawn(id) && !seen[id] {
				delete(in, id)
			}
		}
	}
	w := s.Winner()
	if len(in) > 1 || len(in) == 1 && !in[w] || len(in) == 0 && w != "" {
		t.Fatalf("n=%d: winner %q, still in %v", n, w, in)
	}
	if want := map[int]int{64: 6, 37: 6, 2: 1, 3: 2}[n]; want != 0 && s.Round != want {
		t.Errorf("n=%d: %d rounds, want %d", n, s.Round, want)
	}
	if w != "" {
		st := s.Standings()
		if st[0].ID != w || st[0].Rank != 1 || st[0].TieBreaks[0].Value != float64(s.Round+1) {
			t.Errorf("n=%d: the standings start %+v, want the winner %s", n, st[0], w)
		}
	}
}

func TestKnockout(t *testing.T) {
	for _, n := range []int{64, 37, 2, 3} {
		for _, rule := range []DrawRule{Replay, HigherSeed} {
			for seed := range uint64(20) {
				t.Run(fmt.Sprintf("%d/%s/%d", n, rule, seed), func(t *testing.T) { playKnockout(t, n, rule, seed) })
			}
		}
	}
}

// TestKnockoutDrawRules: a draw between seeds 1 and 2 in the final.
func TestKnockoutDrawRules(t *testing.T) {
	for _, rule := range []DrawRule{Replay, HigherSeed} {
		s, _ := New(Settings{Kind: Knockout, DrawRule: rule})
		entrants(s, 2)
		s.Start()
		games, _ := s.NextRound()
		if len(games) != 1 || games[0].White != "p01" || games[0].Black != "p02" {
			t.Fatalf("%s: the final is %+v, want p01 (the higher seed) White against p02", rule, games)
		}
		s.Record(1, "p01", "p02", Draw)
		if rule == HigherSeed {
			if !s.Done() || s.Winner() != "p01" {
				t.Errorf("seed: done %v, winner %q; want p01, the higher seed", s.Done(), s.Winner())
			}
			continue
		}
		p := s.Pending()
		if s.Done() || len(p) != 1 || p[0] != (Game{Round: 1, Group: 1, White: "p02", Black: "p01"}) {
			t.Fatalf("replay: done %v, pending %+v; want the replay with colours swapped", s.Done(), p)
		}
		if _, err := s.NextRound(); err == nil {
			t.Error("a round after the final")
		}
		s.Record(1, "p02", "p01", WhiteWins)
		if !s.Done() || s.Winner() != "p02" {
			t.Errorf("replay: done %v, winner %q; want p02", s.Done(), s.Winner())
		}
	}
}
