package tournament

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func pairsOf(games []Game) []string {
	var out []string
	for _, g := range games {
		out = append(out, g.White+"-"+g.Black)
	}
	return out
}

// TestSwissByHand: eight players, the higher seed winning. Round 1 is
// the top half against the bottom half, colours alternating by board;
// in round 2 each score group pairs its halves again, swapping within
// the lower half so that everyone gets the colour they are due.
func TestSwissByHand(t *testing.T) {
	s, _ := New(Settings{Kind: Swiss, Rounds: 3})
	entrants(s, 8)
	s.Start()
	r1 := must(s.NextRound())
	if got, want := pairsOf(r1), []string{"p01-p05", "p06-p02", "p03-p07", "p08-p04"}; !slices.Equal(got, want) {
		t.Fatalf("round 1: %v, want %v", got, want)
	}
	for _, g := range r1 {
		r := WhiteWins
		if g.White > g.Black {
			r = BlackWins
		}
		s.Record(1, g.White, g.Black, r)
	}
	r2 := must(s.NextRound())
	if got, want := pairsOf(r2), []string{"p04-p01", "p02-p03", "p05-p08", "p07-p06"}; !slices.Equal(got, want) {
		t.Fatalf("round 2: %v, want %v", got, want)
	}
}

// swissRef is the test's own account of a Swiss: points, colours, byes,
// who met whom, from the games alone.
type swissRef struct {
	points  map[string]float64
	colours map[string]string
	byes    map[string]int
	met     map[[2]string]int
}

func refSwiss(games []Game) swissRef {
	r := swissRef{map[string]float64{}, map[string]string{}, map[string]int{}, map[[2]string]int{}}
	for _, g := range games {
		w, b := g.Result.Points()
		r.points[g.White] += w
		if g.Black == "" {
			r.byes[g.White]++
			continue
		}
		r.points[g.Black] += b
		r.colours[g.White] += "W"
		r.colours[g.Black] += "B"
		r.met[[2]string{min(g.White, g.Black), max(g.White, g.Black)}]++
	}
	return r
}

// pairable says, by brute force, whether the players can all be paired
// without a repeat (byes and colours aside).
func pairable(ids []string, met map[[2]string]int) bool {
	return pairableBy(ids, func(a, b string) bool { return met[[2]string{min(a, b), max(a, b)}] == 0 })
}

// pairableBy says, by brute force, whether the players can all be paired
// in pairs that may meet.
func pairableBy(ids []string, may func(a, b string) bool) bool {
	if len(ids) == 0 {
		return true
	}
	for i := 1; i < len(ids); i++ {
		if may(ids[0], ids[i]) && pairableBy(slices.Concat(ids[1:i], ids[i+1:]), may) {
			return true
		}
	}
	return false
}

// colourBreak says whether the colours break the rules: more than two
// of one colour ahead, or three in a row.
func colourBreak(c string) bool {
	d := strings.Count(c, "W") - strings.Count(c, "B")
	return d > 2 || d < -2 || strings.HasSuffix(c, "WWW") || strings.HasSuffix(c, "BBB")
}

// TestSwissProperties plays many random Swiss tournaments and checks
// each round against the test's own account: nobody paired twice in a
// round or left out, no pair meets twice, nobody has two byes, the bye
// goes to the lowest-ranked player who can take it, and the colours keep
// their rules. A round the package cannot pair must be one that brute
// force cannot pair either.
func TestSwissProperties(t *testing.T) {
	colourBreaks, rounds := 0, 0 // rounds where the colours had to give way
	for seed := range uint64(400) {
		rng := rand.New(rand.NewPCG(seed, 2))
		n := 2 + rng.IntN(30)
		if seed%4 == 0 {
			n = 2 + rng.IntN(11)
		}
		most := n + 1 // small: play on to where pairing fails
		if n > 16 {
			most = min(n/2, 12)
		}
		s, _ := New(Settings{Kind: Swiss, Rounds: 1 + rng.IntN(most)})
		for i := range n {
			s.Join(Entrant{ID: fmt.Sprintf("p%02d", i+1), Rating: 1200 + rng.IntN(1000)})
		}
		s.Start()
		seedOf := make(map[string]int)
		for _, e := range s.Entrants {
			seedOf[e.ID] = e.Seed
		}
		for !s.Done() {
			before := refSwiss(s.Games)
			var in []string
			for _, e := range s.Entrants {
				if !e.Withdrawn {
					in = append(in, e.ID)
				}
			}
			games, err := s.NextRound()
			if err != nil {
				if n > 16 {
					t.Fatalf("seed %d: %d players, round %d: %v", seed, n, s.Round+1, err)
				}
				for _, b := range append(slices.Clone(in), "") {
					rest := slices.DeleteFunc(slices.Clone(in), func(x string) bool { return x == b })
					if (len(in)%2 == 0) == (b == "") && before.byes[b] == 0 && pairable(rest, before.met) {
						t.Fatalf("seed %d: round %d refused (%v) but it pairs with bye %q", seed, s.Round+1, err, b)
					}
				}
				break
			}
			rounds++
			after := refSwiss(s.Games)
			seen := make(map[string]bool)
			for _, g := range games {
				for _, id := range []string{g.White, g.Black} {
					if id != "" && seen[id] {
						t.Fatalf("seed %d round %d: %s paired twice", seed, s.Round, id)
					}
					seen[id] = true
				}
				if g.Black == "" {
					if after.byes[g.White] > 1 {
						t.Fatalf("seed %d round %d: a second bye for %s", seed, s.Round, g.White)
					}
					// Lower-ranked players without a bye could not have taken it.
					for _, id := range in {
						lower := before.points[id] < before.points[g.White] ||
							before.points[id] == before.points[g.White] && seedOf[id] > seedOf[g.White]
						if lower && before.byes[id] == 0 && n <= 16 {
							rest := slices.DeleteFunc(slices.Clone(in), func(x string) bool { return x == id })
							if pairable(rest, before.met) {
								t.Fatalf("seed %d round %d: the bye to %s, not %s below", seed, s.Round, g.White, id)
							}
						}
					}
				} else if after.met[[2]string{min(g.White, g.Black), max(g.White, g.Black)}] > 1 {
					t.Fatalf("seed %d round %d: %s and %s meet again", seed, s.Round, g.White, g.Black)
				}
			}
			for _, id := range in {
				if !seen[id] {
					t.Fatalf("seed %d round %d: %s is left out", seed, s.Round, id)
				}
			}
			broken, bye := false, ""
			for _, g := range games {
				if g.Black == "" {
					bye = g.White // no colour this round
					continue
				}
				broken = broken || colourBreak(after.colours[g.White]) || colourBreak(after.colours[g.Black])
			}
			if broken {
				// Allowed only when no pairing with that bye keeps the rules.
				colourBreaks++
				rest := slices.DeleteFunc(slices.Clone(in), func(x string) bool { return x == bye })
				kept := n <= 16 && !pairableBy(rest, func(a, b string) bool {
					ca, cb := before.colours[a], before.colours[b]
					return before.met[[2]string{min(a, b), max(a, b)}] == 0 &&
						(!colourBreak(ca+"W") && !colourBreak(cb+"B") || !colourBreak(ca+"B") && !colourBreak(cb+"W"))
				})
				if !kept {
					t.Fatalf("seed %d round %d: the colours break their rules in %v, and need not (%v)", seed, s.Round, pairsOf(games), after.colours)
				}
			}
			for _, g := range games {
				if g.Result != Pending {
					continue
				}
				x := rng.IntN(40)
				switch {
				case x == 0:
					s.Withdraw(g.Black)
				case x < 3:
					s.Record(g.Round, g.White, g.Black, WhiteForfeits)
				case x < 12:
					s.Record(g.Round, g.White, g.Black, Draw)
				case x < 26:
					s.Record(g.Round, g.White, g.Black, WhiteWins)
				default:
					s.Record(g.Round, g.White, g.Black, BlackWins)
				}
			}
		}
	}
	t.Logf("%d rounds, %d colour breaks", rounds, colourBreaks)
}

// TestSwissLarge: 1,001 players over nine rounds pair every round, with
// no repeat, one bye each at most, and the colour rules kept.
func TestSwissLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("1,001 players")
	}
	rng := rand.New(rand.NewPCG(5, 5))
	s, _ := New(Settings{Kind: Swiss, Rounds: 9})
	for i := range 1001 {
		s.Join(Entrant{ID: fmt.Sprintf("p%04d", i), Rating: 1000 + rng.IntN(1500)})
	}
	s.Start()
	for !s.Done() {
		games, err := s.NextRound()
		if err != nil {
			t.Fatalf("round %d: %v", s.Round+1, err)
		}
		if len(games) != 501 || games[500].Result != Bye {
			t.Fatalf("round %d: %d games, the last %+v", s.Round, len(games), games[len(games)-1])
		}
		for _, g := range games[:500] {
			s.Record(g.Round, g.White, g.Black, []Result{WhiteWins, BlackWins, Draw}[rng.IntN(3)])
		}
	}
	r := refSwiss(s.Games)
	for pair, n := range r.met {
		if n > 1 {
			t.Errorf("%v met %d times", pair, n)
		}
	}
	for id, n := range r.byes {
		if n > 1 {
			t.Errorf("%s had %d byes", id, n)
		}
	}
	for id, c := range r.colours {
		for i := 1; i <= len(c); i++ {
			if colourBreak(c[:i]) {
				t.Errorf("%s's colours %s break the rules", id, c)
				break
			}
		}
	}
}

// TestSwissNoPairing: three players meet each other and take one bye
// each in three rounds; a fourth round has no pairing, and says so.
func TestSwissNoPairing(t *testing.T) {
	s, _ := New(Settings{Kind: Swiss, Rounds: 4})
	entrants(s, 3)
	s.Start()
	for r := 1; r <= 3; r++ {
		for _, g := range must(s.NextRound()) {
			if g.Result == Pending {
				s.Record(r, g.White, g.Black, Draw)
			}
		}
	}
	if _, err := s.NextRound(); err == nil || !contains(err.Error(), "round 4 of the Swiss cannot be paired") {
		t.Fatalf("round 4: %v", err)
	}
	if s.Round != 3 || s.Done() {
		t.Errorf("after the refusal: round %d, done %v", s.Round, s.Done())
	}
}
