package tanbo

import (
	"math/rand/v2"
	"testing"
)

// playout plays random placements from b to the end of the game and returns
// their number. It uses the board's liberty lists directly: no allocation,
// no notation.
func playout(b *board, rng *rand.Rand) int {
	n := 0
	for !b.over() {
		c := b.toMove
		b.place(int(b.libPts[c][rng.IntN(b.nlib[c])]))
		n++
	}
	return n
}

// BenchmarkPlayout19 plays one whole random 19x19 game per iteration from
// the start; the goal is 500 games a second on one core.
func BenchmarkPlayout19(b *testing.B) { benchPlayout(b, "19") }

func BenchmarkPlayout9(b *testing.B) { benchPlayout(b, "9") }

func benchPlayout(b *testing.B, size string) {
	startBoard := start(b, size).(*position).b
	rng := rand.New(rand.NewPCG(19, 93))
	var g board
	moves := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g = startBoard
		moves += playout(&g, rng)
	}
	b.StopTimer()
	b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

func BenchmarkPerft3At19(b *testing.B) {
	pos := start(b, "19")
	for i := 0; i < b.N; i++ {
		pos.Perft(3)
	}
}

// TestPlayoutEnds checks the playout the benchmark uses: it ends with one
// side out of stones and has taken some hundreds of placements on 19x19.
func TestPlayoutEnds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	b := start(t, "19").(*position).b
	n := playout(&b, rng)
	if !b.over() || n < 100 {
		t.Errorf("playout of %d placements ended with stones %v", n, b.stones)
	}
	first := start(t, "19").(*position).b
	if allocs := testing.AllocsPerRun(5, func() {
		b = first
		playout(&b, rng)
	}); allocs != 0 {
		t.Errorf("playout allocates %v times", allocs)
	}
}
