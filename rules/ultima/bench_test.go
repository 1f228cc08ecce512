package ultima

import (
	"fmt"
	"testing"
)

// BenchmarkPerft counts the start position to depths 3 and 4. Allocations
// per operation stay the same at both depths: Perft allocates its scratch
// boards and move buffers once per call, never per node.
func BenchmarkPerft(b *testing.B) {
	pos, _ := Game.Start(defaults)
	for _, depth := range []int{3, 4} {
		b.Run(fmt.Sprintf("depth%d", depth), func(b *testing.B) {
			b.ReportAllocs()
			var nodes uint64
			for b.Loop() {
				nodes += pos.Perft(depth)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkPerftMiddle counts a crowded middle-game position, where
// freezing, leaps and every capture are in play.
func BenchmarkPerftMiddle(b *testing.B) {
	pos := mustParse(b, "c1xwk1li/pp1l1ppp/2p1x3/3pP3/2P2I2/1L3W2/PP1P1PPP/2X1KX1C b", defaults)
	b.ReportAllocs()
	var nodes uint64
	for b.Loop() {
		nodes += pos.Perft(3)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// TestPerftAllocations: the allocations of Perft are its per-call buffers,
// the same at every depth, none per node.
func TestPerftAllocations(t *testing.T) {
	pos, _ := Game.Start(defaults)
	shallow := testing.AllocsPerRun(3, func() { pos.Perft(1) })
	deep := testing.AllocsPerRun(3, func() { pos.Perft(3) })
	if deep != shallow || deep > 2 {
		t.Errorf("Perft(1) allocates %v times, Perft(3) %v times; want the same few", shallow, deep)
	}
}
