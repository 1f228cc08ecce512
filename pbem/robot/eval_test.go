package robot

import (
	"fmt"
	"testing"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/rules/rulestest"
)

func parse(t *testing.T, game, text string, opts ...string) (rules.Position, *env) {
	t.Helper()
	g, _ := catalog.Lookup(game)
	o, err := rules.ParseOptions(g, opts)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := g.ParsePosition(text, o)
	if err != nil {
		t.Fatal(err)
	}
	return pos, &env{game: g, opts: o}
}

// TestEvaluations: each game's score prefers the side that is better off,
// seen from the side to move, and the same position scores the negative
// for the other side where the game allows it to move.
func TestEvaluations(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		game, better, worse string // the side to move is better off in better
	}{
		// Ultima: a long leaper more, or a piece frozen by the immobilizer.
		{"ultima", "k7/8/8/8/8/8/L7/K7 w", "k7/8/8/8/8/8/8/K7 w"},
		{"ultima", "k7/8/8/8/8/8/3P4/K2I4 w", "k7/8/8/8/3i4/3P4/8/K7 w"},
		// Tanbo: two roots against one; a stone with four liberties, not two.
		{"tanbo", "b4/5/5/5/w3b b", "b4/5/5/5/w4 b"},
		{"tanbo", "5/5/2b2/5/w4 b", "b4/5/5/5/w4 b"},
		// Taratibu: Black (to move) has taken White's Man and three fish.
		{"taratibu", "dmfabes/htc4/7/7/7/6H/SEBA3 b 2 0 -", "dmfabes/htc4/7/7/7/4CTH/SEBAFMD b 2 0 -"},
		// Tobit: a tobit against a hul; a hul nearer promotion.
		{"tobit", "W............................b........ w", "w............................b........ w"},
		{"tobit", "..........................w..........b w", "......w.......................b....... w"},
	} {
		better, e := parse(t, tt.game, tt.better)
		worse, _ := parse(t, tt.game, tt.worse)
		ev := evaluations[tt.game]
		if b, w := ev.score(better, e), ev.score(worse, e); b <= w {
			t.Errorf("%s: %s scores %d, %s scores %d; want the first higher", tt.game, tt.better, b, tt.worse, w)
		}
	}
}

// TestTanboCells: the scratch reader of Tanbo positions agrees with the
// rules' row reader on every position of a game.
func TestTanboCells(t *testing.T) {
	t.Parallel()
	g, opts := setup(t, testGame{name: "tanbo", opts: []string{"-size=13"}})
	pos, _ := g.Start(opts)
	r := &Robot{Game: g, Opts: opts, Level: 1}
	for ply := 0; !pos.Result().Over && ply < 300; ply++ {
		text := pos.String()
		board := text[:len(text)-2]
		rows := grid(board, 13, "bw")
		cell := make([]int8, 169)
		if !tanboCells(board, 13, cell) {
			t.Fatalf("tanboCells refused %s", text)
		}
		for i, v := range cell {
			if want := int8(map[byte]int8{'.': 0, 'b': 1, 'w': 2}[rows[i/13][i%13]]); v != want {
				t.Fatalf("%s: point %d is %d, want %d", text, i, v, want)
			}
		}
		r.Seed = uint64(ply)
		c, _ := r.Move(pos)
		pos.Play(c.Move)
	}
	if tanboCells("5/5/5/5/6 b", 5, make([]int8, 25)) {
		t.Error("a row of 6 points on a 5x5 board was read")
	}
}

// TestGenericEvaluation: a game robots know nothing of is played with
// material (as its drawing counts it) and mobility; one that does not draw
// itself with mobility alone, and still every level finds a legal move.
func TestGenericEvaluation(t *testing.T) {
	t.Parallel()
	tanbo, _ := catalog.Lookup("tanbo")
	fifth := rulestest.Renamed(tanbo, "fifth", "Fifth")
	if _, known := evaluations[fifth.Name()]; known {
		t.Fatal("the test's fifth game has an evaluation of its own")
	}
	ev := evaluationOf(fifth)
	better, _ := fifth.ParsePosition("b4/5/5/5/w3b b", nil)
	worse, _ := fifth.ParsePosition("b4/5/5/5/w4 b", nil)
	if n := ev.count(better); n != [2]int{2, 1} {
		t.Errorf("generic count of %s = %v; want 2 black stones, 1 white", better, n)
	}
	if b, w := ev.score(better, &env{game: fifth}), ev.score(worse, &env{game: fifth}); b <= w {
		t.Errorf("generic score: a stone more scores %d, a stone less %d; want the first higher", b, w)
	}
	for _, g := range []rules.Game{fifth, rulestest.Undrawn(tanbo, "plain", "Plain")} {
		opts, _ := rules.ParseOptions(g, []string{"-size=9"})
		pos, _ := g.Start(opts)
		if g.Name() == "plain" {
			if _, draws := pos.(rules.Drawer); draws {
				t.Fatal("an undrawn position draws itself")
			}
			if n := evaluationOf(g).count(pos); n != [2]int{} {
				t.Errorf("a position without a drawing counts %v pieces; want none", n)
			}
		}
		for level := 1; level <= MaxLevel; level++ {
			r := &Robot{Game: g, Opts: opts, Level: level, Budget: Budget{Nodes: testNodes}}
			turn, err := r.Turn(pos)
			if err != nil {
				t.Fatalf("%s level %d: %v", g.Name(), level, err)
			}
			if _, err := pos.Clone().Play(turn.Submission()); err != nil {
				t.Errorf("%s level %d chose %q: %v", g.Name(), level, turn.Submission(), err)
			}
		}
	}
}

// Every game robots know more of is a game of the catalog, under its
// name there: a renamed game would be played with the generic evaluation
// without a word.
func TestEvaluationsAreCatalogGames(t *testing.T) {
	t.Parallel()
	for name := range evaluations {
		if g, ok := catalog.Lookup(name); !ok || g.Name() != name {
			t.Errorf("robots know %q, which the catalog does not name", name)
		}
	}
	if fmt.Sprint(Games()) != fmt.Sprint(catalog.Names()) {
		t.Errorf("robots play %v; want every game of the catalog, %v", Games(), catalog.Names())
	}
}
