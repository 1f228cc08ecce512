package robot

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/rules"
)

// benchGames are the test games plus Tanbo on its default 19x19 board.
var benchGames = append([]testGame{{"tanbo", []string{"-size=19"}, 4000}}, testGames...)

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

// samplePositions are positions from a game between two level-1 robots, every
// few plies, so that the timings see openings, middle games and endings.
func samplePositions(b testing.TB, tg testGame, n int) []rules.Position {
	g, opts := setup(b, tg)
	pos, _ := g.Start(opts)
	var all []rules.Position
	for ply := 0; !pos.Result().Over && ply < 400; ply++ {
		all = append(all, pos.Clone())
		r := &Robot{Game: g, Opts: opts, Level: 1, Seed: uint64(ply)}
		c, err := r.Move(pos)
		if err != nil {
			b.Fatal(err)
		}
		pos.Play(c.Move)
	}
	var out []rules.Position
	for i := 0; i < n && len(all) > 0; i++ {
		out = append(out, all[i*len(all)/n])
	}
	return out
}

// BenchmarkMoveTime times one robot move (one single move in Taratibu) at
// each level with the daemon's default budget of DefaultTime, over ten
// positions of each game, and reports the median in milliseconds.
//
//	go test ./pbem/robot -run XXX -bench MoveTime -benchtime 1x
func BenchmarkMoveTime(b *testing.B) {
	for _, tg := range benchGames {
		positions := samplePositions(b, tg, 10)
		g, opts := setup(b, tg)
		for level := 1; level <= MaxLevel; level++ {
			b.Run(fmt.Sprintf("%s/level%d", benchLabel(tg), level), func(b *testing.B) {
				var times []time.Duration
				for b.Loop() {
					for i, pos := range positions {
						r := &Robot{Game: g, Opts: opts, Level: level, Seed: uint64(i)}
						start := time.Now()
						if _, err := r.Move(pos); err != nil {
							b.Fatal(err)
						}
						times = append(times, time.Since(start))
					}
				}
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
				b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "max-ms")
			})
		}
	}
}
