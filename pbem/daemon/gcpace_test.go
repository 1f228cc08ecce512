package daemon

import (
	"math"
	"runtime/debug"
	"testing"
)

// The daemon paces its collector for a mail backlog, and an operator's
// GOGC and GOMEMLIMIT still decide when set.
func TestPaceCollector(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
	PaceCollector()
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("GOGC unset: collector at %d%%; want %d%%", got, gcPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != memoryLimit {
		t.Errorf("GOMEMLIMIT unset: memory limit %d; want %d", got, memoryLimit)
	}

	t.Setenv("GOGC", "50")
	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetGCPercent(50)
	debug.SetMemoryLimit(1 << 30)
	PaceCollector()
	if got := debug.SetGCPercent(50); got != 50 {
		t.Errorf("GOGC=50: collector at %d%%; want the operator's 50%%", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<30 {
		t.Errorf("GOMEMLIMIT=1GiB: memory limit %d; want the operator's %d", got, 1<<30)
	}
}
