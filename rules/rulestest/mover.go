package rulestest

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pbemd/pbemd/rules"
)

// CheckMover plays games random games from start, which must be a
// rules.Mover, each of at most maxPlies moves, through the Mover and, on a
// twin, through Legal and Play: at every ply Moves must name the moves
// Legal lists, in its order once sorted by number; Apply must capture as
// many as Play's steps name and leave the position Play leaves; and a copy
// made by CopyInto must be the same position and stay independent of the
// one it was made from.
func CheckMover(t *testing.T, start rules.Position, games, maxPlies int, seed uint64) {
	t.Helper()
	if _, ok := start.(rules.Mover); !ok {
		t.Fatalf("%T is not a rules.Mover", start)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	// copies is where CopyInto writes, kept from ply to ply, so that each
	// copy must overwrite all of the position before it.
	copies := start.Clone().(rules.Mover)
	// mark stands before the moves in Moves' dst: they must be appended.
	const mark = rules.Move(-1 << 30)
	var buf []rules.Move
	for game := 0; game < games; game++ {
		pos := start.Clone().(rules.Mover)
		twin := start.Clone()
		for ply := 0; ply < maxPlies; ply++ {
			before := pos.String()
			buf = pos.Moves(append(buf[:0], mark))
			if buf[0] != mark {
				t.Fatalf("game %d ply %d, %s: Moves overwrote its dst instead of appending to it", game, ply, before)
			}
			moves := buf[1:]
			slices.Sort(moves) // in Legal's order, as Mover promises
			legal := twin.Legal()
			texts := make([]string, len(moves))
			for i, m := range moves {
				texts[i] = pos.MoveText(m)
			}
			if !slices.Equal(texts, legal) {
				t.Fatalf("game %d ply %d, %s: Moves names %v, Legal lists %v", game, ply, before, texts, legal)
			}
			if len(moves) == 0 {
				break
			}
			if ply == 0 {
				checkUnlisted(t, pos, moves)
			}
			pos.CopyInto(copies)
			i := rng.IntN(len(moves))
			captured := pos.Apply(moves[i])
			steps, err := twin.Play(legal[i])
			if err != nil {
				t.Fatalf("game %d ply %d, %s: Play(%q) of a legal move: %v", game, ply, before, legal[i], err)
			}
			named := 0
			for _, s := range steps {
				named += len(s.Captured)
			}
			if captured != named {
				t.Fatalf("game %d ply %d, %s: Apply(%s) captured %d, Play named %d: %v", game, ply, before, legal[i], captured, named, steps)
			}
			if got, want := pos.String(), twin.String(); got != want {
				t.Fatalf("game %d ply %d, %s: after %s Apply gives %s, Play %s", game, ply, before, legal[i], got, want)
			}
			if pos.ToMove() != twin.ToMove() || pos.Result() != twin.Result() {
				t.Fatalf("game %d ply %d, %s: after %s Apply gives %d to move, %+v; Play %d, %+v",
					game, ply, before, legal[i], pos.ToMove(), pos.Result(), twin.ToMove(), twin.Result())
			}
			if got := copies.String(); got != before {
				t.Fatalf("game %d ply %d: a copy of %s reads %s after the original moved", game, ply, before, got)
			}
			copies.Apply(moves[i])
			if got, want := copies.String(), pos.String(); got != want {
				t.Fatalf("game %d ply %d, %s: %s on a copy gives %s, on the original %s", game, ply, before, legal[i], got, want)
			}
		}
	}
}

// checkUnlisted: Apply of a number Moves did not list (below all, above
// all) is a caller's mistake; it must panic and leave the position as it
// was, never play something else.
func checkUnlisted(t *testing.T, pos rules.Mover, moves []rules.Move) {
	t.Helper()
	before := pos.String()
	for _, m := range []rules.Move{-1, slices.Max(moves) + 1, 1 << 30} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Apply(%d), a move Moves did not list, did not panic", before, m)
				}
			}()
			pos.Apply(m)
		}()
		if got := pos.String(); got != before {
			t.Fatalf("%s: Apply(%d) of a move Moves did not list left %s", before, m, got)
		}
	}
}
