package tournament

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// refLeague is the test's own, plain account of a league: the order of
// the players at the start of the season, from which the divisions are
// cut.
type refLeague struct {
	size, promote int
	order         []string
	rating        map[string]int
}

// divisions cuts the order into divisions of size, the last two
// sharing equally when the last would have under half of size.
func (r *refLeague) divisions() [][]string {
	var out [][]string
	for at := 0; at < len(r.order); at += r.size {
		out = append(out, r.order[at:min(at+r.size, len(r.order))])
	}
	if n := len(out); n >= 2 && len(out[n-1])*2 < r.size {
		both := slices.Concat(out[n-2], out[n-1])
		out[n-2], out[n-1] = both[:(len(both)+1)/2], both[(len(both)+1)/2:]
	}
	return out
}

type refLine struct {
	id         string
	points, sb float64
}

// standings ranks each division by points, then Sonneborn-Berger, then
// the place in the order, from the season's games.
func (r *refLeague) standings(games []Game) [][]refLine {
	points := make(map[string]float64)
	for _, g := range games {
		w, b := g.Result.Points()
		points[g.White] += w
		points[g.Black] += b
	}
	sb := make(map[string]float64)
	for _, g := range games {
		w, b := g.Result.Points()
		sb[g.White] += w * points[g.Black]
		sb[g.Black] += b * points[g.White]
	}
	var out [][]refLine
	for _, d := range r.divisions() {
		var lines []refLine
		for _, id := range d {
			lines = append(lines, refLine{id, points[id], sb[id]})
		}
		slices.SortStableFunc(lines, func(a, b refLine) int {
			return cmp.Or(cmp.Compare(b.points, a.points), cmp.Compare(b.sb, a.sb))
		})
		out = append(out, lines)
	}
	return out
}

// next is the order of the next season: withdrawn players out, the top
// and bottom swapped between neighbouring divisions, newcomers after
// the last player rated at least as high.
func (r *refLeague) next(lines [][]refLine, withdrawn map[string]bool, newcomers []string) {
	var divs [][]string
	for _, d := range lines {
		var ids []string
		for _, l := range d {
			if !withdrawn[l.id] {
				ids = append(ids, l.id)
			}
		}
		divs = append(divs, ids)
	}
	next := make([][]string, len(divs))
	for k := range divs {
		next[k] = slices.Clone(divs[k])
	}
	for k := 0; k+1 < len(divs); k++ {
		m := min(r.promote, len(divs[k])/2, len(divs[k+1])/2)
		down := divs[k][len(divs[k])-m:]
		up := divs[k+1][:m]
		next[k] = slices.DeleteFunc(next[k], func(id string) bool { return slices.Contains(down, id) })
		next[k] = append(next[k], up...)
		next[k+1] = slices.DeleteFunc(next[k+1], func(id string) bool { return slices.Contains(up, id) })
		next[k+1] = append(slices.Clone(down), next[k+1]...)
	}
	r.order = slices.Concat(next...)
	slices.SortFunc(newcomers, func(a, b string) int {
		return cmp.Or(cmp.Compare(r.rating[b], r.rating[a]), cmp.Compare(a, b))
	})
	for _, id := range newcomers {
		at := 0
		for i, o := range r.order {
			if r.rating[o] >= r.rating[id] {
				at = i + 1
			}
		}
		r.order = slices.Insert(r.order, at, id)
	}
}

// TestLeagueThreeSeasons runs a league of 200 players for three seasons
// with random results, forfeits, withdrawals and newcomers, and checks
// every season against the reference: the divisions, each pair of a
// division meeting exactly once (once each way when double) and no one
// else, the forfeits of those who withdrew, the standings with their
// Sonneborn-Berger, and the promotion and relegation between seasons.
func TestLeagueThreeSeasons(t *testing.T) {
	for _, c := range []struct {
		size, promote int
		double        bool
	}{{10, 2, false}, {12, 3, true}, {7, 1, false}, {9, 4, false}} {
		t.Run(fmt.Sprintf("%d-%d-%v", c.size, c.promote, c.double), func(t *testing.T) {
			playLeague(t, c.size, c.promote, c.double)
		})
	}
}

func playLeague(t *testing.T, size, promote int, double bool) {
	rng := rand.New(rand.NewPCG(uint64(size), 4))
	s, err := New(Settings{Kind: League, DivisionSize: size, Promote: promote, Double: double, Seasons: 3})
	if err != nil {
		t.Fatal(err)
	}
	ref := &refLeague{size: size, promote: promote, rating: map[string]int{}}
	join := func(id string) {
		ref.rating[id] = 1000 + rng.IntN(50)*20 // ties in rating on purpose
		if err := s.Join(Entrant{ID: id, Rating: ref.rating[id]}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 200 {
		join(fmt.Sprintf("p%03d", i))
	}
	for id := range ref.rating {
		ref.order = append(ref.order, id)
	}
	slices.SortFunc(ref.order, func(a, b string) int {
		return cmp.Or(cmp.Compare(ref.rating[b], ref.rating[a]), cmp.Compare(a, b))
	})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	withdrawn := make(map[string]bool)
	key := func(g Game) [4]any { return [4]any{g.Season, g.Round, g.White, g.Black} }
	recorded := make(map[[4]any]bool) // the games whose result the test gave
	// When each player withdrew and each game was paired, in steps of
	// the test: a game is decided by the first withdrawal of its players
	// after it is paired, or at its pairing by those before.
	step := 0
	withdrewAt := make(map[string]int)
	pairedAt := make(map[[4]any]int)
	joined := 200
	for season := 1; season <= 3; season++ {
		if season == 2 {
			// The service may end a season itself; in season 3 NextRound does.
			if err := s.NextSeason(); err != nil {
				t.Fatal(err)
			}
		}
		divs := ref.divisions()
		division := make(map[string]int)
		for k, d := range divs {
			for _, id := range d {
				division[id] = k + 1
			}
		}
		var newcomers []string
		for round := 1; round == 1 || !s.SeasonOver(); round++ {
			step++
			games, err := s.NextRound()
			for _, g := range games {
				pairedAt[key(g)] = step
			}
			if err != nil {
				t.Fatalf("season %d round %d: %v", season, round, err)
			}
			if games[0].Season != season || s.Season != season || s.Round != round {
				t.Fatalf("season %d round %d: a game of season %d, the state at %d.%d", season, round, games[0].Season, s.Season, s.Round)
			}
			if round == 1 {
				for _, e := range s.Entrants {
					if division[e.ID] != e.Group {
						t.Fatalf("season %d: %s in division %d, want %d", season, e.ID, e.Group, division[e.ID])
					}
				}
			}
			switch rng.IntN(4) {
			case 0:
				var in []string
				for _, id := range ref.order {
					if !withdrawn[id] {
						in = append(in, id)
					}
				}
				id := in[rng.IntN(len(in))]
				withdrawn[id] = true
				step++
				withdrewAt[id] = step
				s.Withdraw(id)
			case 1:
				id := fmt.Sprintf("p%03d", joined)
				joined++
				join(id)
				newcomers = append(newcomers, id)
			}
			for _, g := range s.Pending() {
				r := []Result{WhiteWins, BlackWins, Draw, WhiteWins, BlackWins, Draw, WhiteForfeits, BlackForfeits, DoubleForfeit}[rng.IntN(9)]
				if err := s.Record(g.Round, g.White, g.Black, r); err != nil {
					t.Fatal(err)
				}
				recorded[key(g)] = true
			}
		}
		var games []Game
		for _, g := range s.Games {
			if g.Season == season {
				games = append(games, g)
			}
		}
		// Each pair of a division meets once (once each way when
		// double), nobody twice in a round, nobody outside.
		met := make(map[[2]string]int)
		busy := make(map[[2]any]bool)
		for _, g := range games {
			if division[g.White] == 0 || division[g.White] != division[g.Black] || g.Group != division[g.White] {
				t.Fatalf("season %d: %+v across divisions %d and %d", season, g, division[g.White], division[g.Black])
			}
			met[[2]string{g.White, g.Black}]++
			for _, id := range []string{g.White, g.Black} {
				if busy[[2]any{g.Round, id}] {
					t.Fatalf("season %d round %d: %s plays twice", season, g.Round, id)
				}
				busy[[2]any{g.Round, id}] = true
			}
			if !recorded[key(g)] {
				decided := pairedAt[key(g)]
				out := func(id string) bool { return withdrawn[id] && withdrewAt[id] <= decided }
				if !out(g.White) && !out(g.Black) {
					// Pending at its pairing: decided by the first to withdraw.
					w, b := withdrewAt[g.White], withdrewAt[g.Black]
					decided = max(w, b)
					if w > 0 && b > 0 {
						decided = min(w, b)
					}
				}
				want := map[[2]bool]Result{{true, false}: WhiteForfeits, {false, true}: BlackForfeits, {true, true}: DoubleForfeit}[[2]bool{out(g.White), out(g.Black)}]
				if want == Pending || g.Result != want {
					t.Fatalf("season %d: %+v has result %s without the test giving it, want %s", season, g, g.Result, want)
				}
			}
		}
		for _, d := range divs {
			for _, a := range d {
				for _, b := range d {
					if a == b {
						continue
					}
					n, m := met[[2]string{a, b}], met[[2]string{b, a}]
					if double && (n != 1 || m != 1) || !double && n+m != 1 {
						t.Fatalf("season %d: %s and %s meet %d+%d times", season, a, b, n, m)
					}
				}
			}
		}
		// The standings, division by division.
		lines := ref.standings(games)
		got := s.Standings()
		at := 0
		for k, d := range lines {
			for i, l := range d {
				st := got[at]
				at++
				if st.Group != k+1 || st.ID != l.id || st.Points != l.points || st.TieBreaks[0] != (TieBreak{SonnebornBerger, l.sb}) {
					t.Fatalf("season %d division %d line %d: %+v, want %+v", season, k+1, i+1, st, l)
				}
			}
		}
		if at != len(got) {
			t.Fatalf("season %d: %d standings, want %d", season, len(got), at)
		}
		if season == 3 {
			if !s.Done() || s.Winner() != lines[0][0].id {
				t.Fatalf("after three seasons: done %v, winner %q, want %q", s.Done(), s.Winner(), lines[0][0].id)
			}
			if _, err := s.NextRound(); err != ErrDone {
				t.Fatalf("a fourth season: %v", err)
			}
			break
		}
		ref.next(lines, withdrawn, newcomers)
	}
}

// TestLeaguePromotion: two divisions of four, P 1, by hand: the winner
// of the lower division goes up, the last of the upper down.
func TestLeaguePromotion(t *testing.T) {
	s, _ := New(Settings{Kind: League, DivisionSize: 4, Promote: 1})
	entrants(s, 8) // p01..p04 in division 1, p05..p08 in division 2
	s.Start()
	for !s.SeasonOver() || s.Round == 0 {
		for _, g := range must(s.NextRound()) {
			r := BlackWins // the lower-rated (higher number) wins
			if g.White > g.Black {
				r = WhiteWins
			}
			s.Record(g.Round, g.White, g.Black, r)
		}
	}
	if _, err := s.NextRound(); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"p01": 2, "p02": 1, "p03": 1, "p04": 1, "p05": 2, "p06": 2, "p07": 2, "p08": 1}
	for _, e := range s.Entrants {
		if e.Group != want[e.ID] || s.Season != 2 || s.Round != 1 {
			t.Errorf("season %d round %d: %s in division %d, want %d", s.Season, s.Round, e.ID, e.Group, want[e.ID])
		}
	}
}

// TestLeagueKeepsTwoSeasons: a league without end keeps the games of the
// season in play and the one before, no more.
func TestLeagueKeepsTwoSeasons(t *testing.T) {
	s, _ := New(Settings{Kind: League, DivisionSize: 4, Promote: 1})
	entrants(s, 8)
	s.Start()
	for season := 1; season <= 4; season++ {
		for round := 1; round == 1 || !s.SeasonOver(); round++ {
			for _, g := range must(s.NextRound()) {
				s.Record(g.Round, g.White, g.Black, Draw)
			}
		}
		seasons := make(map[int]int)
		for _, g := range s.Games {
			seasons[g.Season]++
		}
		if season > 1 && (len(seasons) != 2 || seasons[season] != 12 || seasons[season-1] != 12) {
			t.Fatalf("season %d: games by season %v", season, seasons)
		}
	}
}
