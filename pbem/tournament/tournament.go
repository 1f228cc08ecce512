// Package tournament is the rules of a tournament: who meets whom in
// which round, what a result does, and the standings. The kinds are a
// round robin (in groups, once or twice around), a Swiss (so many rounds,
// pairing by score then rating), a knockout (single elimination, seeded
// by rating), a ladder (challenges up the order) and a league (seasons of
// a round robin in each division, with promotion and relegation).
//
// It is pure: no store, no mail, no clock, no randomness. A State is
// plain data (exported fields, kept as JSON by the service); the same
// State always gives the same pairings. Every pairing is bounded in work
// by the number of entrants, which is at most MaxEntrants.
//
// Conventions, the same for every kind:
//   - A win is 1 point, a draw 1/2, a loss 0.
//   - A forfeit counts as a loss for the one who forfeits and a win for
//     the opponent, in points and in the tie-breaks; a double forfeit is
//     a loss for both.
//   - A bye (Swiss, knockout) is a game without an opponent worth a win
//     (1 point). It adds nothing to the tie-breaks, which are sums over
//     opponents. In a round robin with an odd number of players one
//     player sits out each round: that is no game and no points.
//   - A withdrawn player's pending games become forfeits, and a game
//     paired for them later (a round robin, a league season) is paired
//     already forfeited. A Swiss pairs them no more.
//   - A game counts as a meeting whatever its result, a forfeit too: a
//     Swiss does not pair the two again.
//   - Ties in the order of entrants (same rating) are broken by ID, so
//     nothing depends on the order in which players joined.
package tournament

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Bounds on what a tournament may ask for: each pairing costs at most
// some MaxEntrants squared steps.
const (
	MaxEntrants  = 2048
	MaxGroupSize = 64  // round robin groups and league divisions
	MaxRounds    = 64  // Swiss rounds
	MaxSeasons   = 100 // league seasons; 0 is a league without end
	MaxIDLength  = 64
)

// Kind is the kind of a tournament.
type Kind uint8

// The kinds. The zero Kind is none, so that a Settings left empty is
// refused rather than taken for a round robin.
const (
	RoundRobin Kind = iota + 1
	Swiss
	Knockout
	Ladder
	League
)

var kindNames = []struct {
	k     Kind
	words []string // the first is the name
}{
	{RoundRobin, []string{"roundrobin", "rr"}},
	{Swiss, []string{"swiss"}},
	{Knockout, []string{"knockout", "ko"}},
	{Ladder, []string{"ladder"}},
	{League, []string{"league"}},
}

// ParseKind reads the word a player writes for a kind: roundrobin or
// rr, swiss, knockout or ko, ladder, league; in any case.
func ParseKind(word string) (Kind, error) {
	w := strings.ToLower(strings.TrimSpace(word))
	for _, n := range kindNames {
		if slices.Contains(n.words, w) {
			return n.k, nil
		}
	}
	return 0, fmt.Errorf("%q is not a kind of tournament: expected roundrobin (rr), swiss, knockout (ko), ladder or league", shorten(word))
}

// String is the kind's name, as ParseKind reads it.
func (k Kind) String() string {
	for _, n := range kindNames {
		if n.k == k {
			return n.words[0]
		}
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// MarshalText writes the kind's name, so that stored states read plainly.
func (k Kind) MarshalText() ([]byte, error) {
	if k < RoundRobin || k > League {
		return nil, fmt.Errorf("tournament kind %d is none of roundrobin, swiss, knockout, ladder, league", uint8(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText reads what MarshalText wrote.
func (k *Kind) UnmarshalText(b []byte) error {
	v, err := ParseKind(string(b))
	*k = v
	return err
}

// DrawRule is what decides a drawn knockout game.
type DrawRule uint8

const (
	// Replay: the pair plays again in the same round, colours swapped,
	// until one wins.
	Replay DrawRule = iota
	// HigherSeed: the higher seed goes through.
	HigherSeed
)

// String is the rule's word: replay or seed.
func (d DrawRule) String() string {
	if d == HigherSeed {
		return "seed"
	}
	return "replay"
}

// Settings are what the organiser chose. Fields that do not apply to the
// kind are ignored; Check says what is wrong with those that do.
type Settings struct {
	Kind Kind
	// Round robin: players per group (0: one group of all). League: see
	// DivisionSize.
	GroupSize int
	// Round robin and league: each pair meets twice, with colours
	// swapped.
	Double bool
	// Swiss: the number of rounds.
	Rounds int
	// Knockout: what decides a draw.
	DrawRule DrawRule
	// Ladder: how many places above themselves a player may challenge.
	Reach int
	// League: players per division, the most promoted from and relegated
	// to each division each season, and the number of seasons (0: no
	// end).
	DivisionSize int
	Promote      int
	Seasons      int
}

// Check says what is wrong with the settings, or nil.
func (st Settings) Check() error {
	switch st.Kind {
	case RoundRobin:
		if st.GroupSize != 0 && (st.GroupSize < 2 || st.GroupSize > MaxGroupSize) {
			return fmt.Errorf("a round robin group is from 2 to %d players (or 0 for one group), not %d", MaxGroupSize, st.GroupSize)
		}
	case Swiss:
		if st.Rounds < 1 || st.Rounds > MaxRounds {
			return fmt.Errorf("a Swiss is from 1 to %d rounds, not %d", MaxRounds, st.Rounds)
		}
	case Knockout:
		if st.DrawRule != Replay && st.DrawRule != HigherSeed {
			return fmt.Errorf("a knockout draw is decided by replay or seed, not rule %d", st.DrawRule)
		}
	case Ladder:
		if st.Reach < 1 || st.Reach > MaxEntrants {
			return fmt.Errorf("a ladder's reach is from 1 to %d places, not %d", MaxEntrants, st.Reach)
		}
	case League:
		if st.DivisionSize < 2 || st.DivisionSize > MaxGroupSize {
			return fmt.Errorf("a league division is from 2 to %d players, not %d", MaxGroupSize, st.DivisionSize)
		}
		if st.Promote < 0 || 2*st.Promote > st.DivisionSize {
			return fmt.Errorf("a league promotes from 0 to half a division (%d), not %d", st.DivisionSize/2, st.Promote)
		}
		if st.Seasons < 0 || st.Seasons > MaxSeasons {
			return fmt.Errorf("a league runs from 1 to %d seasons (or 0 for no end), not %d", MaxSeasons, st.Seasons)
		}
	default:
		return fmt.Errorf("tournament kind %d is none of roundrobin, swiss, knockout, ladder, league", uint8(st.Kind))
	}
	return nil
}

// Entrant is a player in a tournament.
type Entrant struct {
	ID        string
	Rating    int
	Withdrawn bool `json:",omitempty"`
	// Group is the round robin group or the league division the player
	// is in, from 1; 0 before the start, and in a league for a player
	// who joined during the season (until the next places them) or who
	// withdrew in an earlier season.
	Group int `json:",omitempty"`
	// Seed is the player's place by rating at the start, from 1; in a
	// league, the place in the league's order at the season's start.
	Seed int `json:",omitempty"`
}

// Result is the result of a game.
type Result uint8

// The results. A forfeit names who forfeits.
const (
	Pending Result = iota
	WhiteWins
	BlackWins
	Draw
	WhiteForfeits
	BlackForfeits
	DoubleForfeit
	Bye // White alone, Black empty: a win for White
)

var resultNames = [...]string{"pending", "1-0", "0-1", "draw", "white forfeits", "black forfeits", "double forfeit", "bye"}

// String is the result as the standings mails print it.
func (r Result) String() string {
	if int(r) < len(resultNames) {
		return resultNames[r]
	}
	return fmt.Sprintf("result(%d)", uint8(r))
}

// Points are what White and Black score for the result.
func (r Result) Points() (white, black float64) {
	switch r {
	case WhiteWins, BlackForfeits, Bye:
		return 1, 0
	case BlackWins, WhiteForfeits:
		return 0, 1
	case Draw:
		return 0.5, 0.5
	}
	return 0, 0
}

// Game is one game of a tournament.
type Game struct {
	Season int `json:",omitempty"` // league: the season, from 1
	Round  int // from 1 (a ladder numbers its challenges)
	// Group is the round robin group or the league division, from 1; in a
	// knockout, the match in the round's bracket, from 1.
	Group  int `json:",omitempty"`
	White  string
	Black  string `json:",omitempty"` // empty for a bye
	Result Result `json:",omitempty"`
	// Board is the service's board for the game, 0 until it is made.
	Board int `json:",omitempty"`
}

// State is a tournament: its settings, entrants and games, and where it
// is. Change it through its methods; the fields are exported to be
// stored.
type State struct {
	Settings Settings
	Started  bool `json:",omitempty"`
	Entrants []Entrant
	// Games are the games paired, in order; a league keeps those of the
	// season in play and the one before, a ladder its last
	// MaxLadderHistory decided challenges and those pending.
	Games []Game `json:",omitempty"`
	// Round is the round in play, from 1; 0 before the first. In a league
	// it counts within the season.
	Round int `json:",omitempty"`
	// Season is the league's season in play, from 1.
	Season int `json:",omitempty"`
	// Ladder is the ladder's order, the top first.
	Ladder []string `json:",omitempty"`
	// Groups is the number of round robin groups or league divisions.
	Groups int `json:",omitempty"`
}

// New is a tournament with those settings and no entrants yet.
func New(st Settings) (*State, error) {
	if err := st.Check(); err != nil {
		return nil, err
	}
	return &State{Settings: st}, nil
}

// Errors a caller may test for.
var (
	ErrNotStarted = errors.New("the tournament has not started")
	ErrDone       = errors.New("the tournament is over")
)

// Join adds a player. Before the start anyone may join; after it only a
// ladder (at the bottom) and a league (placed at the next season) take
// new players.
func (s *State) Join(e Entrant) error {
	if e.ID == "" || len(e.ID) > MaxIDLength || strings.ContainsAny(e.ID, " \t\r\n") {
		return fmt.Errorf("%q is not a player: expected a name of 1 to %d characters without spaces", shorten(e.ID), MaxIDLength)
	}
	if s.entrant(e.ID) >= 0 {
		return fmt.Errorf("%s has already joined", e.ID)
	}
	if len(s.Entrants) >= MaxEntrants {
		return fmt.Errorf("a tournament takes at most %d players", MaxEntrants)
	}
	if s.Started && s.Settings.Kind != Ladder && s.Settings.Kind != League {
		return fmt.Errorf("the %s has started: it takes no new players", s.Settings.Kind)
	}
	if s.Done() {
		return ErrDone
	}
	e.Withdrawn, e.Group, e.Seed = false, 0, len(s.Entrants)+1
	s.Entrants = append(s.Entrants, e)
	if s.Started && s.Settings.Kind == Ladder {
		s.Ladder = append(s.Ladder, e.ID)
	}
	return nil
}

// Start closes the entries, seeds the players by rating and places them
// in their groups, divisions or ladder places. NextRound then pairs the
// first round.
func (s *State) Start() error {
	if s.Started {
		return errors.New("the tournament has already started")
	}
	if err := s.Settings.Check(); err != nil {
		return err
	}
	if len(s.Entrants) < 2 {
		return fmt.Errorf("a tournament needs at least 2 players, it has %d", len(s.Entrants))
	}
	order := s.byRating(func(Entrant) bool { return true })
	for i, k := range order {
		s.Entrants[k].Seed = i + 1
	}
	switch s.Settings.Kind {
	case RoundRobin:
		size := s.Settings.GroupSize
		if size == 0 {
			size = len(order)
		}
		s.Groups = snake(s, order, size)
	case League:
		s.Season = 1
		s.Groups = divide(s, order, s.Settings.DivisionSize)
	case Ladder:
		for _, k := range order {
			s.Ladder = append(s.Ladder, s.Entrants[k].ID)
		}
	}
	s.Started = true
	return nil
}

// NextRound pairs the next round when every game of the one in play has
// a result, and returns its games (a bye or a forfeit already decided
// among them). In a league the round after a season's last is the first
// of the next season.
func (s *State) NextRound() ([]Game, error) {
	if !s.Started {
		return nil, ErrNotStarted
	}
	if s.Done() {
		return nil, ErrDone
	}
	if n := s.pendingIn(s.Round); n > 0 {
		return nil, fmt.Errorf("round %d still has %d game(s) to finish", s.Round, n)
	}
	var games []Game
	var err error
	switch s.Settings.Kind {
	case RoundRobin:
		games, err = s.nextRoundRobin()
	case League:
		games, err = s.nextLeague()
	case Swiss:
		games, err = s.nextSwiss()
	case Knockout:
		games, err = s.nextKnockout()
	case Ladder:
		return nil, errors.New("a ladder has no rounds: players challenge those above them")
	}
	if err != nil {
		return nil, err
	}
	first := len(s.Games)
	for _, g := range games {
		s.Games = append(s.Games, s.forfeited(g))
	}
	return slices.Clone(s.Games[first:]), nil
}

// Record sets the result of the pending game of the round in play (or,
// in a ladder, of the challenge) between white and black. A result
// already recorded is not changed.
func (s *State) Record(round int, white, black string, r Result) error {
	if r == Pending || r == Bye || r > Bye {
		return fmt.Errorf("%s is not a result to record: expected a win, a draw or a forfeit", r)
	}
	i := s.game(round, white, black)
	if i < 0 {
		return fmt.Errorf("there is no game of round %d with %s as White and %s as Black", round, shorten(white), shorten(black))
	}
	if s.Games[i].Result != Pending {
		return fmt.Errorf("the game of round %d between %s and %s already has its result (%s)", round, white, black, s.Games[i].Result)
	}
	s.Games[i].Result = r
	s.decided(i)
	s.trimLadder()
	return nil
}

// Leave takes a player off the entries before the start.
func (s *State) Leave(id string) error {
	k := s.entrant(id)
	if k < 0 {
		return fmt.Errorf("%s is not in the tournament", shorten(id))
	}
	if s.Started {
		return fmt.Errorf("the tournament has started, so %s cannot leave it; withdrawing forfeits the games left", id)
	}
	s.Entrants = slices.Delete(s.Entrants, k, k+1)
	return nil
}

// Withdraw takes a player out: their pending games become forfeits, and
// no game is paired for them again but as a forfeit. Before the start
// it is Leave.
func (s *State) Withdraw(id string) error {
	if !s.Started {
		return s.Leave(id)
	}
	k := s.entrant(id)
	if k < 0 {
		return fmt.Errorf("%s is not in the tournament", shorten(id))
	}
	if s.Entrants[k].Withdrawn {
		return fmt.Errorf("%s has already withdrawn", id)
	}
	s.Entrants[k].Withdrawn = true
	for i := range s.Games {
		g := &s.Games[i]
		if g.Result == Pending && (g.White == id || g.Black == id) {
			*g = s.forfeited(*g)
			s.decided(i)
		}
	}
	if s.Settings.Kind == Ladder {
		s.Ladder = slices.DeleteFunc(s.Ladder, func(x string) bool { return x == id })
		s.trimLadder()
	}
	return nil
}

// SetBoard notes the service's board for the pending game of the round
// between white and black.
func (s *State) SetBoard(round int, white, black string, board int) error {
	i := s.game(round, white, black)
	if i < 0 || s.Games[i].Result != Pending {
		return fmt.Errorf("there is no pending game of round %d with %s as White and %s as Black", round, shorten(white), shorten(black))
	}
	s.Games[i].Board = board
	return nil
}

// ByBoard is the game played on the service's board.
func (s *State) ByBoard(board int) (Game, bool) {
	for _, g := range s.Games {
		if board != 0 && g.Board == board {
			return g, true
		}
	}
	return Game{}, false
}

// Pending is the games without a result yet.
func (s *State) Pending() []Game {
	var out []Game
	for _, g := range s.Games {
		if g.Result == Pending {
			out = append(out, g)
		}
	}
	return out
}

// Done says whether the tournament is over: every round played (round
// robin, Swiss), one player left (knockout), the last season over
// (league of so many seasons). A ladder never ends.
func (s *State) Done() bool {
	if !s.Started {
		return false
	}
	switch s.Settings.Kind {
	case RoundRobin:
		return s.Round == s.roundRobinRounds() && s.pendingIn(s.Round) == 0
	case League:
		return s.Settings.Seasons > 0 && s.Season == s.Settings.Seasons &&
			s.Round == s.roundRobinRounds() && s.pendingIn(s.Round) == 0
	case Swiss:
		return s.pendingIn(s.Round) == 0 && (s.Round == s.Settings.Rounds || s.Round > 0 && s.active() < 2)
	case Knockout:
		_, over := s.knockoutWinner()
		return over
	}
	return false
}

// Winner is the winner of a tournament that is over: the first of the
// standings (of the first group, or the top division of the last
// season), the last player standing of a knockout, the top of a ladder.
// It is "" while the tournament runs, and for a knockout whose last
// players all forfeited.
func (s *State) Winner() string {
	if s.Settings.Kind == Ladder && s.Started && len(s.Ladder) > 0 {
		return s.Ladder[0]
	}
	if !s.Done() {
		return ""
	}
	if s.Settings.Kind == Knockout {
		w, _ := s.knockoutWinner()
		return w
	}
	for _, st := range s.Standings() {
		if st.Rank == 1 && st.Group <= 1 {
			return st.ID
		}
	}
	return ""
}

// entrant is the index of the player in Entrants, or -1.
func (s *State) entrant(id string) int {
	return slices.IndexFunc(s.Entrants, func(e Entrant) bool { return e.ID == id })
}

// byRating is the indexes of the entrants that keep, highest rating
// first, then by ID.
func (s *State) byRating(keep func(Entrant) bool) []int {
	var order []int
	for k, e := range s.Entrants {
		if keep(e) {
			order = append(order, k)
		}
	}
	slices.SortFunc(order, func(a, b int) int {
		ea, eb := s.Entrants[a], s.Entrants[b]
		return cmp.Or(cmp.Compare(eb.Rating, ea.Rating), strings.Compare(ea.ID, eb.ID))
	})
	return order
}

// game is the index of the game of this round (this season) between
// white and black, the pending one first, or -1.
func (s *State) game(round int, white, black string) int {
	found := -1
	for i, g := range s.Games {
		if g.Round == round && g.Season == s.Season && g.White == white && g.Black == black {
			if g.Result == Pending {
				return i
			}
			found = i
		}
	}
	return found
}

// pendingIn counts the games of the round (this season) without a
// result.
func (s *State) pendingIn(round int) int {
	n := 0
	for _, g := range s.Games {
		if g.Round == round && g.Season == s.Season && g.Result == Pending {
			n++
		}
	}
	return n
}

// withdrawn says whether the player has withdrawn.
func (s *State) withdrawn(id string) bool {
	k := s.entrant(id)
	return k >= 0 && s.Entrants[k].Withdrawn
}

// forfeited is the game with the forfeit of whoever of its players has
// withdrawn, if it is pending.
func (s *State) forfeited(g Game) Game {
	if g.Result != Pending || g.Black == "" {
		return g
	}
	w, b := s.withdrawn(g.White), s.withdrawn(g.Black)
	switch {
	case w && b:
		g.Result = DoubleForfeit
	case w:
		g.Result = WhiteForfeits
	case b:
		g.Result = BlackForfeits
	}
	return g
}

// decided is what a result does beyond itself: a knockout replay, a
// ladder move.
func (s *State) decided(i int) {
	switch s.Settings.Kind {
	case Knockout:
		s.knockoutDecided(i)
	case Ladder:
		s.ladderDecided(i)
	}
}

// active counts the players who have not withdrawn.
func (s *State) active() int {
	n := 0
	for _, e := range s.Entrants {
		if !e.Withdrawn {
			n++
		}
	}
	return n
}

// shorten keeps a player's word short enough to quote back.
func shorten(s string) string {
	if len(s) > MaxIDLength {
		return s[:MaxIDLength] + "..."
	}
	return s
}
