package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkSwissPairing1000 pairs the nine rounds of a Swiss of 1,000
// players with random results; the figure to read is ns/round.
func BenchmarkSwissPairing1000(b *testing.B) {
	rounds := 0
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		rng := rand.New(rand.NewPCG(uint64(i), 3))
		s, _ := New(Settings{Kind: Swiss, Rounds: 9})
		for p := range 1000 {
			s.Join(Entrant{ID: fmt.Sprintf("p%04d", p), Rating: 1000 + rng.IntN(1500)})
		}
		s.Start()
		for !s.Done() {
			b.StartTimer()
			games, err := s.NextRound()
			b.StopTimer()
			if err != nil {
				b.Fatal(err)
			}
			rounds++
			for _, g := range games {
				if g.Result == Pending {
					s.Record(g.Round, g.White, g.Black, []Result{WhiteWins, BlackWins, Draw}[rng.IntN(3)])
				}
			}
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(rounds), "ns/round")
}
