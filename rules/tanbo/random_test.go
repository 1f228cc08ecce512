package tanbo_test

import (
	"math/rand/v2"
	"testing"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/tanbo"
)

// BenchmarkRandomGames19 plays whole random 19x19 games from the start
// through the public interface alone, as a caller outside the package
// would: the position's rules.Mover, each game on a copy of the start made
// into the same memory. The goal (issue 33) is 5,000 games a second.
func BenchmarkRandomGames19(b *testing.B) {
	start, err := tanbo.Game.Start(rules.Options{})
	if err != nil {
		b.Fatal(err)
	}
	pos := start.Clone().(rules.Mover)
	rng := rand.New(rand.NewPCG(19, 93))
	var moves []rules.Move
	plies := 0
	for b.Loop() {
		start.(rules.Mover).CopyInto(pos)
		for {
			moves = pos.Moves(moves[:0])
			if len(moves) == 0 {
				break
			}
			pos.Apply(moves[rng.IntN(len(moves))])
			plies++
		}
	}
	b.ReportMetric(float64(plies)/float64(b.N), "moves/game")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkRandomGames19Text plays the same games by notation: Legal and
// Play on a new position each game, the one way before rules.Mover.
func BenchmarkRandomGames19Text(b *testing.B) {
	rng := rand.New(rand.NewPCG(19, 93))
	plies := 0
	for b.Loop() {
		pos, err := tanbo.Game.Start(rules.Options{})
		if err != nil {
			b.Fatal(err)
		}
		for !pos.Result().Over {
			legal := pos.Legal()
			if _, err := pos.Play(legal[rng.IntN(len(legal))]); err != nil {
				b.Fatal(err)
			}
			plies++
		}
	}
	b.ReportMetric(float64(plies)/float64(b.N), "moves/game")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
