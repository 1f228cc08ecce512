package robot

import (
	"testing"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/ultima"
)

func ultimaPos(t *testing.T, text string) rules.Position {
	t.Helper()
	pos, err := ultima.Game.ParsePosition(text, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

// TestLevel1TakesFreeCapture: whatever its seed, level 1 takes a piece
// nothing can take back, and does not take one that is defended.
func TestLevel1TakesFreeCapture(t *testing.T) {
	t.Parallel()
	// The white king on a1 may take the black pawn on b2, which nothing guards.
	free := ultimaPos(t, "7k/8/8/8/8/8/1p6/K7 w")
	for seed := uint64(0); seed < 20; seed++ {
		r := &Robot{Game: ultima.Game, Level: 1, Seed: seed}
		c, err := r.Move(free)
		if err != nil {
			t.Fatal(err)
		}
		if c.Move != "Ka1-b2" {
			t.Errorf("seed %d: level 1 played %s; want the free capture Ka1-b2", seed, c.Move)
		}
	}
	// Nothing to take: level 1 plays a random move, not always the same.
	quiet := ultimaPos(t, "7k/8/8/8/8/8/3P4/K7 w")
	seen := map[string]bool{}
	for seed := uint64(0); seed < 20; seed++ {
		r := &Robot{Game: ultima.Game, Level: 1, Seed: seed}
		c, err := r.Move(quiet)
		if err != nil {
			t.Fatal(err)
		}
		seen[c.Move] = true
	}
	if len(seen) < 3 {
		t.Errorf("level 1 played only %v over 20 seeds; want a random choice", seen)
	}
}

// TestSearchFindsMate: levels 2 and 3 take a win in one move, and say the
// position is won.
func TestSearchFindsMate(t *testing.T) {
	t.Parallel()
	// The immobilizer to g7 freezes the lone black king, which then has no
	// move: Black loses.
	pos := ultimaPos(t, "7k/8/8/8/8/8/8/K5I1 w")
	for level := 2; level <= 3; level++ {
		r := &Robot{Game: ultima.Game, Level: level, Budget: Budget{Nodes: 5000}, Seed: 1}
		c, err := r.Move(pos)
		if err != nil {
			t.Fatal(err)
		}
		q := pos.Clone()
		if _, err := q.Play(c.Move); err != nil {
			t.Fatal(err)
		}
		if res := q.Result(); !res.Over || res.Winner != 0 {
			t.Errorf("level %d played %s (score %d); want a winning move", level, c.Move, c.Score)
		}
	}
}

// TestDeterministic: the same seed and node budget give the same move;
// the seed changes the choice among equals.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	for _, tg := range testGames {
		g, opts := setup(t, tg)
		pos, _ := g.Start(opts)
		for level := 1; level <= MaxLevel; level++ {
			r := &Robot{Game: g, Opts: opts, Level: level, Budget: Budget{Nodes: 2000}, Seed: 7}
			a, err := r.Move(pos)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := r.Move(pos)
			if a != b {
				t.Errorf("%s level %d: %+v then %+v from the same seed", tg.name, level, a, b)
			}
		}
	}
}

// TestRefusals: a level out of range and a game that is over are errors,
// not moves.
func TestRefusals(t *testing.T) {
	t.Parallel()
	pos := ultimaPos(t, "7k/8/8/8/8/8/1p6/K7 w")
	if _, err := (&Robot{Game: ultima.Game, Level: 4}).Move(pos); err == nil {
		t.Error("level 4 chose a move")
	}
	if _, err := (&Robot{Game: ultima.Game, Level: 0}).Move(pos); err == nil {
		t.Error("level 0 chose a move")
	}
	over := ultimaPos(t, "6Ik/8/8/8/8/8/8/K7 b")
	if _, err := (&Robot{Game: ultima.Game, Level: 3}).Move(over); err == nil {
		t.Error("a move was chosen in a game that is over")
	}
}

// TestAcceptsDraw: a robot accepts a draw when it is not ahead, whoever is
// to move, at every level; it refuses when it is clearly ahead.
func TestAcceptsDraw(t *testing.T) {
	t.Parallel()
	g, opts := setup(t, testGame{name: "tobit"})
	ahead, err := g.ParsePosition("W.W.W.......................b......... b", opts)
	if err != nil {
		t.Fatal(err)
	}
	behind, err := g.ParsePosition("B.B.B.......................w......... w", opts)
	if err != nil {
		t.Fatal(err)
	}
	for level := 1; level <= MaxLevel; level++ {
		r := &Robot{Game: g, Opts: opts, Level: level, Budget: Budget{Nodes: 2000}}
		if ok, err := r.AcceptsDraw(ahead, 0); err != nil || ok {
			t.Errorf("level %d, three tobits against a hul: accepts a draw %v (%v)", level, ok, err)
		}
		if ok, err := r.AcceptsDraw(behind, 0); err != nil || !ok {
			t.Errorf("level %d, a hul against three tobits: accepts a draw %v (%v)", level, ok, err)
		}
	}
}

// TestResigns: levels 2 and 3 resign when every move loses at once; level 1
// never does, and nobody resigns at the start.
func TestResigns(t *testing.T) {
	t.Parallel()
	// The lone black king cannot escape the immobilizer: wherever it goes,
	// the immobilizer steps next to it and Black has no move.
	lost := ultimaPos(t, "7k/8/5I2/8/8/8/8/K7 b")
	start := ultimaPos(t, ultima.StartText)
	for level := 1; level <= MaxLevel; level++ {
		r := &Robot{Game: ultima.Game, Level: level, Budget: Budget{Nodes: 3000}}
		turn, err := r.Turn(lost)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := r.Resigns(turn), level > 1; got != want {
			t.Errorf("level %d in a lost position: resigns %v, want %v (score %d)", level, got, want, turn.Score)
		}
		turn, err = r.Turn(start)
		if err != nil {
			t.Fatal(err)
		}
		if r.Resigns(turn) {
			t.Errorf("level %d resigns at the start", level)
		}
	}
}
