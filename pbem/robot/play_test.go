package robot

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
)

// A player chooses the submission for the side to move.
type player interface {
	name() string
	turn(pos rules.Position, seed uint64) (string, error)
}

// robotPlayer is a Robot at a level with a node budget.
type robotPlayer struct {
	game  rules.Game
	opts  rules.Options
	level int
	nodes int64
}

func (p robotPlayer) name() string { return fmt.Sprintf("level %d", p.level) }

func (p robotPlayer) turn(pos rules.Position, seed uint64) (string, error) {
	r := &Robot{Game: p.game, Opts: p.opts, Level: p.level, Budget: Budget{Nodes: p.nodes}, Seed: seed}
	t, err := r.Turn(pos)
	return t.Submission(), err
}

// randomPlayer plays uniformly random legal single moves.
type randomPlayer struct{}

func (randomPlayer) name() string { return "random" }

func (randomPlayer) turn(pos rules.Position, seed uint64) (string, error) {
	rng := rand.New(rand.NewPCG(seed, 99))
	legal := pos.Legal()
	return legal[rng.IntN(len(legal))], nil
}

// testGame is one game as the tests play it: options that keep games short
// enough (a 9x9 Tanbo) and a bound on plies, past which an Ultima game
// between weak players is called unfinished.
type testGame struct {
	name     string
	opts     []string
	maxPlies int
}

var testGames = []testGame{
	{"ultima", nil, 400},
	{"tanbo", []string{"-size=9"}, 2000},
	{"taratibu", nil, 200},
	{"tobit", nil, 600},
}

func setup(t testing.TB, tg testGame) (rules.Game, rules.Options) {
	t.Helper()
	g, ok := catalog.Lookup(tg.name)
	if !ok {
		t.Fatalf("no game %s", tg.name)
	}
	opts, err := rules.ParseOptions(g, tg.opts)
	if err != nil {
		t.Fatal(err)
	}
	return g, opts
}

// playGame plays one game between seats[0] and seats[1] and returns its
// end. Every submission is checked by the rules: an illegal one fails the
// test with the position it was made in.
func playGame(t testing.TB, g rules.Game, opts rules.Options, tg testGame, seats [2]player, seed uint64) (rules.Result, int) {
	t.Helper()
	pos, err := g.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	plies := 0
	for !pos.Result().Over && plies < tg.maxPlies {
		p := seats[pos.ToMove()]
		before := pos.String()
		sub, err := p.turn(pos, seed*1000+uint64(plies))
		if err != nil {
			t.Fatalf("%s: %s in %s: %v", g.Name(), p.name(), before, err)
		}
		if _, err := pos.Play(sub); err != nil {
			t.Fatalf("%s: %s played %q in %s, illegal: %v", g.Name(), p.name(), sub, before, err)
		}
		plies++
	}
	return pos.Result(), plies
}
