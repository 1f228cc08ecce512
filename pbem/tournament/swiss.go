package tournament

import (
	"cmp"
	"fmt"
	"slices"
)

// The Swiss pairing, round by round:
//
//  1. The players still in are ranked by points, then rating (seed).
//  2. With an odd number, the bye goes to the lowest-ranked player who
//     has not had one (and without whom the rest can be paired).
//  3. From the top, each player is paired with an opponent they have
//     not met: first in their own score group, where the top half meets
//     the bottom half in order (1 v k/2+1, 2 v k/2+2, ...) as far as the
//     colours allow, then floating down to the next groups.
//  4. Colours: nobody more than two Whites ahead or behind, and nobody
//     three of one colour in a row. When no pairing keeps to that, the
//     colours give way, never the rule of no repeats. Within a pair the
//     one further behind in Whites gets White, then the one who had Black
//     last, then the higher-ranked player alternates with the board.
//
// It is a depth-first search that backtracks when a player is left with
// no one to meet, so for the sizes a tournament has it finds a pairing
// whenever one exists; its work is bounded (swissBudget), and a round it
// cannot pair is refused with an error.

// swissBudget bounds the work of pairing a round, in steps of the search
// times players: some 0.1 s.
const swissBudget = 20_000_000

// swissPlayer is what the pairing knows of a player.
type swissPlayer struct {
	id      string
	seed    int
	halves  int    // points, in halves
	colours []byte // 'W' and 'B', byes left out
	bye     bool   // has had a bye
	met     []int  // the indexes of those met, in the ranked players
	want    int    // wantWhite, kept
	mayW    bool   // may('W'), kept
	mayB    bool   // may('B'), kept
}

// wantWhite is how much the player wants White: positive for White,
// negative for Black, by how far behind in Whites, then by alternation.
func (p *swissPlayer) wantWhite() int {
	w := 0
	for _, c := range p.colours {
		if c == 'W' {
			w--
		} else {
			w++
		}
	}
	w *= 2
	if n := len(p.colours); n > 0 {
		if p.colours[n-1] == 'W' {
			w--
		} else {
			w++
		}
	}
	return w
}

// may says whether the player may have the colour by the hard rules:
// not more than two ahead or behind, not three in a row.
func (p *swissPlayer) may(c byte) bool {
	diff, n := 0, len(p.colours)
	for _, x := range p.colours {
		if x == c {
			diff++
		} else {
			diff--
		}
	}
	if diff+1 > 2 {
		return false
	}
	return n < 2 || p.colours[n-1] != c || p.colours[n-2] != c
}

func (s *State) nextSwiss() ([]Game, error) {
	if s.Round >= s.Settings.Rounds {
		return nil, fmt.Errorf("all %d rounds of the Swiss have been paired", s.Settings.Rounds)
	}
	players := s.swissPlayers()
	if len(players) < 2 {
		return nil, fmt.Errorf("a Swiss round needs 2 players still in, and %d are", len(players))
	}
	round := s.Round + 1
	pr := &swissPairing{players: players, budget: swissBudget / len(players)}
	// The bye to the lowest-ranked player who may take it, and the
	// colours kept if they can be with that bye.
	byes := []int{-1}
	if len(players)%2 == 1 {
		byes = nil
		for b := len(players) - 1; b >= 0; b-- {
			if !players[b].bye {
				byes = append(byes, b)
			}
		}
	}
	var pairs [][2]int
	bye := -1
	for _, bye = range byes {
		for _, strict := range []bool{true, false} {
			pr.strict = strict
			if pairs = pr.pair(bye); pairs != nil {
				break
			}
		}
		if pairs != nil {
			break
		}
	}
	if pairs == nil {
		return nil, fmt.Errorf("round %d of the Swiss cannot be paired: no pairing was found without a repeat or a second bye", round)
	}
	s.Round = round
	var games []Game
	for board, p := range pairs {
		a, b := &players[p[0]], &players[p[1]]
		if pr.whiteFirst(a, b, board) {
			games = append(games, Game{Round: round, White: a.id, Black: b.id})
		} else {
			games = append(games, Game{Round: round, White: b.id, Black: a.id})
		}
	}
	if len(players)%2 == 1 {
		games = append(games, Game{Round: round, White: players[bye].id, Result: Bye})
	}
	return games, nil
}

// swissPlayers are the players still in, ranked, each with whom they
// have met among them.
func (s *State) swissPlayers() []swissPlayer {
	byID := make(map[string]*swissPlayer, len(s.Entrants))
	all := make([]swissPlayer, len(s.Entrants))
	for i, e := range s.Entrants {
		all[i] = swissPlayer{id: e.ID, seed: e.Seed}
		byID[e.ID] = &all[i]
	}
	met := make(map[string][]string)
	for _, g := range s.Games {
		w, b := g.Result.Points()
		pw, pb := byID[g.White], byID[g.Black]
		if pw == nil {
			continue
		}
		pw.halves += int(2 * w)
		if g.Result == Bye {
			pw.bye = true
			continue
		}
		if pb == nil {
			continue
		}
		pb.halves += int(2 * b)
		pw.colours = append(pw.colours, 'W')
		pb.colours = append(pb.colours, 'B')
		met[g.White], met[g.Black] = append(met[g.White], g.Black), append(met[g.Black], g.White)
	}
	var players []swissPlayer
	for i, e := range s.Entrants {
		if !e.Withdrawn {
			players = append(players, all[i])
		}
	}
	slices.SortFunc(players, func(a, b swissPlayer) int {
		if c := cmp.Compare(b.halves, a.halves); c != 0 {
			return c
		}
		return cmp.Compare(a.seed, b.seed)
	})
	at := make(map[string]int, len(players))
	for i, p := range players {
		at[p.id] = i
	}
	for i := range players {
		p := &players[i]
		p.want, p.mayW, p.mayB = p.wantWhite(), p.may('W'), p.may('B')
		for _, o := range met[p.id] {
			if j, in := at[o]; in {
				p.met = append(p.met, j)
			}
		}
	}
	return players
}

// swissPairing is the search for one round's pairs.
type swissPairing struct {
	players []swissPlayer
	strict  bool // keep the colour rules
	budget  int  // steps left, across all tries

	n      int
	ok     []bool // ok[i*n+j]: i and j may meet
	deg    []int  // how many unpaired players each unpaired one may meet
	paired []bool
	pairs  [][2]int
}

// pair pairs every player but the one given the bye (-1: none), best
// first, or returns nil.
func (pr *swissPairing) pair(bye int) [][2]int {
	n := len(pr.players)
	pr.n = n
	// Each try costs n squared to set up: n steps of the budget.
	if pr.budget -= n; pr.budget <= 0 {
		return nil
	}
	if pr.ok == nil || len(pr.ok) != n*n {
		pr.ok = make([]bool, n*n)
	}
	pr.deg = make([]int, n)
	pr.paired = make([]bool, n)
	pr.pairs = pr.pairs[:0]
	for i := range n {
		for j := range n {
			pr.ok[i*n+j] = i != j && i != bye && j != bye && pr.mayMeet(i, j)
			if pr.ok[i*n+j] {
				pr.deg[i]++
			}
		}
	}
	if bye >= 0 {
		pr.paired[bye] = true
	}
	for i := range n {
		if !pr.paired[i] && pr.deg[i] == 0 {
			return nil
		}
	}
	if !pr.search() {
		return nil
	}
	return slices.Clone(pr.pairs)
}

// mayMeet says whether the two may be paired: never met, and in the
// strict search with colours that keep the rules.
func (pr *swissPairing) mayMeet(i, j int) bool {
	a, b := &pr.players[i], &pr.players[j]
	if slices.Contains(a.met, j) {
		return false
	}
	return !pr.strict || a.mayW && b.mayB || a.mayB && b.mayW
}

// search pairs the first unpaired player and the rest after it.
func (pr *swissPairing) search() bool {
	u := slices.Index(pr.paired, false)
	if u < 0 {
		return true
	}
	// The best candidate is tried first without sorting them all: it
	// is nearly always the one.
	keys := pr.candidates(u)
	if len(keys) == 0 {
		return false
	}
	best := 0
	for i, k := range keys {
		if k.compare(keys[best]) < 0 {
			best = i
		}
	}
	if pr.try(u, keys[best].v) {
		return true
	}
	keys = slices.Delete(keys, best, best+1)
	slices.SortFunc(keys, candidate.compare)
	for _, k := range keys {
		if pr.try(u, k.v) {
			return true
		}
	}
	return false
}

// try pairs u and v and the rest after them, within the budget, or
// leaves them unpaired.
func (pr *swissPairing) try(u, v int) bool {
	if pr.budget <= 0 {
		return false
	}
	pr.budget--
	if pr.take(u, v) && pr.search() {
		return true
	}
	pr.give(u, v)
	return false
}

// candidate is a possible opponent and the order of preference: the
// lowest tier, first and second first.
type candidate struct{ tier, first, second, v int }

func (a candidate) compare(b candidate) int {
	return cmp.Or(cmp.Compare(a.tier, b.tier), cmp.Compare(a.first, b.first),
		cmp.Compare(a.second, b.second), cmp.Compare(a.v, b.v))
}

// take pairs u and v, and says whether every other unpaired player is
// still left someone to meet.
func (pr *swissPairing) take(u, v int) bool {
	pr.paired[u], pr.paired[v] = true, true
	pr.pairs = append(pr.pairs, [2]int{u, v})
	fine := true
	for w := range pr.n {
		if pr.ok[u*pr.n+w] {
			pr.deg[w]--
		}
		if pr.ok[v*pr.n+w] {
			pr.deg[w]--
		}
		if !pr.paired[w] && pr.deg[w] == 0 {
			fine = false
		}
	}
	return fine
}

// give undoes take.
func (pr *swissPairing) give(u, v int) {
	pr.paired[u], pr.paired[v] = false, false
	pr.pairs = pr.pairs[:len(pr.pairs)-1]
	for w := range pr.n {
		if pr.ok[u*pr.n+w] {
			pr.deg[w]++
		}
		if pr.ok[v*pr.n+w] {
			pr.deg[w]++
		}
	}
}

// candidates are u's possible opponents, the best first: those of the
// lower half of u's score group, fewer colour clashes first, then the
// one half a group below u first; then the upper half alike; then those
// of the lower groups by score, colours and rank.
func (pr *swissPairing) candidates(u int) []candidate {
	pu := &pr.players[u]
	var group []int // u's unpaired score group, u first
	var cands []int
	for v := u; v < pr.n; v++ {
		if pr.paired[v] {
			continue
		}
		if pr.players[v].halves == pu.halves {
			group = append(group, v)
		}
		if v != u && pr.ok[u*pr.n+v] {
			cands = append(cands, v)
		}
	}
	at := make(map[int]int, len(group)) // place in the group
	for i, v := range group {
		at[v] = i
	}
	target := len(group) / 2
	clash := func(v int) int {
		a, b := pu.want, pr.players[v].want
		if a > 0 && b > 0 || a < 0 && b < 0 {
			return 1
		}
		return 0
	}
	keys := make([]candidate, len(cands))
	for i, v := range cands {
		if k, same := at[v]; same {
			upper := 0 // the upper half meets the lower first
			if k < target {
				upper = 1
			}
			keys[i] = candidate{upper, clash(v), abs(k - target), v}
		} else {
			keys[i] = candidate{2, pu.halves - pr.players[v].halves, clash(v), v}
		}
	}
	return keys
}

// whiteFirst says whether a, the higher-ranked of a pair on this board,
// gets White: the colour rules first, then who wants White more, then
// a's preference, then the board (the top player White on odd boards).
func (pr *swissPairing) whiteFirst(a, b *swissPlayer, board int) bool {
	aw, bw := a.mayW && b.mayB, a.mayB && b.mayW
	if aw != bw {
		return aw
	}
	wa, wb := a.want, b.want
	switch {
	case wa != wb:
		return wa > wb
	case wa != 0:
		return wa > 0
	}
	return board%2 == 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
