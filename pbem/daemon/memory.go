package daemon

import (
	"context"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/pbemd/pbemd/store"
)

// The store's file is read through a memory map, and the pages reads touch
// count in the daemon's resident memory until it gives them back: on a
// store of a million games that grew to gigabytes of file cache counted as
// the daemon's. Every memoryCheck the daemon looks at its file-backed
// resident memory and, when the store's pages may pass mappedBudget,
// releases them (they stay in the kernel's cache; the next read maps them
// again cheaply).
const (
	memoryCheck  = 20 * time.Millisecond
	mappedBudget = 32 << 20
)

// releaseLoop looks at the daemon's file-backed resident memory every
// interval until ctx ends, and keeps it under what it was at the start,
// once the store's pages were released (the program's own code, mostly),
// and budget.
func releaseLoop(ctx context.Context, db *store.DB, every time.Duration, budget int64, log *slog.Logger) {
	release := func() {
		if err := db.ReleasePages(); err != nil {
			log.Warn("releasing the store's mapped pages", "err", err)
		}
	}
	release() // opening a large store reads pages of it
	limit := residentFileBytes() + budget
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if residentFileBytes() > limit {
			release()
		}
	}
}

// residentFileBytes is the process's resident memory backed by files and
// shared memory, from /proc/self/statm; 0 where there is none to read.
func residentFileBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return 0
	}
	pages, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
