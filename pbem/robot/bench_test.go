package robot

import (
	"strings"
	"testing"
	"time"
)

// benchGames are the test games plus Tanbo on its default 19x19 board.
var benchGames = append([]testGame{{"tanbo", []string{"-size=19"}, 0}}, testGames...)

func benchLabel(tg testGame) string { return strings.Join(append([]string{tg.name}, tg.opts...), "") }

// BenchmarkSearch searches each game's start position with level 3 for
// 20,000 nodes (moves played) and reports the nodes per second.
func BenchmarkSearch(b *testing.B) {
	for _, tg := range benchGames {
		b.Run(benchLabel(tg), func(b *testing.B) {
			g, opts := setup(b, tg)
			pos, _ := g.Start(opts)
			var nodes int64
			start := time.Now()
			for b.Loop() {
				r := &Robot{Game: g, Opts: opts, Level: 3, Budget: Budget{Nodes: 20000}, Seed: 1}
				c, err := r.Move(pos)
				if err != nil {
					b.Fatal(err)
				}
				nodes += c.Nodes
			}
			b.ReportMetric(float64(nodes)/time.Since(start).Seconds(), "nodes/s")
		})
	}
}
