package tournament

import (
	"fmt"
	"testing"
)

// TestBerger checks the circle method for every size a group may have:
// each pair meets exactly once per cycle, nobody plays twice in a round,
// and each player's Whites and Blacks differ by at most one (by exactly
// zero over a double round robin, where each pair meets once each way).
func TestBerger(t *testing.T) {
	for n := 2; n <= MaxGroupSize; n++ {
		for _, double := range []bool{false, true} {
			rounds := cycle(n)
			if double {
				rounds *= 2
			}
			met := make(map[[2]int]int)
			whites := make([]int, n)
			games := make([]int, n)
			for r := 1; r <= rounds; r++ {
				busy := make(map[int]bool)
				for _, p := range berger(n, r, double) {
					if p[0] == p[1] || p[0] < 0 || p[1] < 0 || p[0] >= n || p[1] >= n {
						t.Fatalf("n=%d round %d: pair %v", n, r, p)
					}
					if busy[p[0]] || busy[p[1]] {
						t.Fatalf("n=%d round %d: a player twice in %v", n, r, berger(n, r, double))
					}
					busy[p[0]], busy[p[1]] = true, true
					met[[2]int{p[0], p[1]}]++
					whites[p[0]]++
					games[p[0]]++
					games[p[1]]++
				}
				if len(busy) != n-n%2 {
					t.Fatalf("n=%d round %d: %d play, want %d", n, r, len(busy), n-n%2)
				}
			}
			for a := range n {
				for b := range n {
					if a == b {
						continue
					}
					got := met[[2]int{a, b}] + met[[2]int{b, a}]
					if want := map[bool]int{false: 1, true: 2}[double]; got != want {
						t.Fatalf("n=%d double=%v: %d and %d meet %d times", n, double, a, b, got)
					}
					if double && met[[2]int{a, b}] != 1 {
						t.Fatalf("n=%d double: %d has White against %d %d times", n, a, b, met[[2]int{a, b}])
					}
				}
				if d := 2*whites[a] - games[a]; d > 1 || d < -1 {
					t.Fatalf("n=%d double=%v: place %d has %d Whites in %d games", n, double, a, whites[a], games[a])
				}
			}
			if berger(n, rounds+1, double) != nil {
				t.Fatalf("n=%d: a round after the last", n)
			}
		}
	}
}

func entrants(s *State, n int) {
	for i := range n {
		if err := s.Join(Entrant{ID: fmt.Sprintf("p%02d", i+1), Rating: 2000 - 10*i}); err != nil {
			panic(err)
		}
	}
}

// TestRoundRobinGroups plays 11 players in groups of 4: three groups of
// 4, 4 and 3 dealt by rating in serpentine order, each group a full
// round robin, the rest of a group of three a rest and no game.
func TestRoundRobinGroups(t *testing.T) {
	s, err := New(Settings{Kind: RoundRobin, GroupSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	entrants(s, 11)
	if _, err := s.NextRound(); err != ErrNotStarted {
		t.Fatalf("NextRound before the start: %v", err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	wantGroup := []int{1, 2, 3, 3, 2, 1, 1, 2, 3, 3, 2}
	for i, e := range s.Entrants {
		if e.Group != wantGroup[i] || e.Seed != i+1 {
			t.Errorf("%s: group %d seed %d, want group %d seed %d", e.ID, e.Group, e.Seed, wantGroup[i], i+1)
		}
	}
	met := make(map[[2]string]bool)
	for r := 1; !s.Done(); r++ {
		games, err := s.NextRound()
		if err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		if len(games) != 2+2+1 {
			t.Fatalf("round %d: %d games, want 5", r, len(games))
		}
		if _, err := s.NextRound(); err == nil {
			t.Fatalf("round %d paired again before its games ended", r)
		}
		for _, g := range games {
			if g.Round != r || s.Entrants[s.entrant(g.White)].Group != g.Group || s.Entrants[s.entrant(g.Black)].Group != g.Group {
				t.Fatalf("round %d: game %+v", r, g)
			}
			k := [2]string{min(g.White, g.Black), max(g.White, g.Black)}
			if met[k] {
				t.Fatalf("%v meet twice", k)
			}
			met[k] = true
			if err := s.Record(r, g.White, g.Black, WhiteWins); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(met) != 6+6+3 || s.Round != 3 {
		t.Fatalf("%d pairs met in %d rounds, want 15 in 3", len(met), s.Round)
	}
	if _, err := s.NextRound(); err != ErrDone {
		t.Fatalf("NextRound after the end: %v", err)
	}
}

// TestRecordRefuses: a result for a game that is not there, a second
// result, a result that is no result.
func TestRecordRefuses(t *testing.T) {
	s, _ := New(Settings{Kind: RoundRobin})
	entrants(s, 4)
	s.Start()
	games, _ := s.NextRound()
	g := games[0]
	for _, c := range []struct {
		round        int
		white, black string
		r            Result
		want         string
	}{
		{1, g.Black, g.White, Draw, "no game of round 1 with " + g.Black + " as White"},
		{2, g.White, g.Black, Draw, "no game of round 2"},
		{1, g.White, g.Black, Pending, "pending is not a result to record"},
		{1, g.White, g.Black, Bye, "bye is not a result to record"},
		{1, g.White, g.Black, Result(99), "not a result to record"},
	} {
		if err := s.Record(c.round, c.white, c.black, c.r); err == nil || !contains(err.Error(), c.want) {
			t.Errorf("Record(%d, %s, %s, %s) = %v, want %q", c.round, c.white, c.black, c.r, err, c.want)
		}
	}
	if err := s.Record(1, g.White, g.Black, Draw); err != nil {
		t.Fatal(err)
	}
	if err := s.Record(1, g.White, g.Black, WhiteWins); err == nil || !contains(err.Error(), "already has its result (draw)") {
		t.Errorf("second result: %v", err)
	}
}
