package daemon

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/pbemd/pbemd/store"
)

// The store's file is read through a memory map, and the pages reads touch
// count in the daemon's resident memory: on a store of a million games
// gigabytes of the kernel's file cache show as the daemon's. They are clean
// pages of a file, which the kernel drops by itself when it needs the
// memory, and releasing them by hand made every read that followed fault
// them in again: about half the service time of a command at a million
// games. So the daemon leaves them to the kernel, and releases them only
// when memory is short (memoryShort), keeping them then under what they
// were at the start plus mappedBudget. What the daemon owns is its
// anonymous memory (RssAnon), which these pages are not.
const (
	memoryCheck  = 250 * time.Millisecond
	mappedBudget = 32 << 20
)

// The collector's pace. At Go's default (GOGC=100) a backlog spent a tenth
// of the daemon's CPU collecting a heap of some 15 MiB live, since each
// mail allocates some 200 KiB; letting the heap grow to five times what
// is live collects a quarter as often. The limit keeps what the daemon
// owns under the 150 MB it promises however large the live heap grows: the
// collector runs more often as the heap nears it. GOGC and GOMEMLIMIT in
// the environment, when set, decide instead (the runtime reads them).
const (
	gcPercent   = 400
	memoryLimit = 120 << 20
)

// PaceCollector sets the collector's pace unless the environment does:
// the daemon's, and that of the batch jobs that allocate as it does
// ("pbemd populate").
func PaceCollector() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}

// releaseLoop looks every interval until ctx ends whether short says memory
// is short, and if so keeps the daemon's file-backed resident memory under
// what it was at the start, once the store's pages were released (the
// program's own code, mostly), and budget.
func releaseLoop(ctx context.Context, db *store.DB, every time.Duration, budget int64, short func() bool, log *slog.Logger) {
	release := func() {
		if err := db.ReleasePages(); err != nil {
			log.Warn("releasing the store's mapped pages", "err", err)
		}
	}
	release() // to measure the program's own pages
	limit := residentFileBytes() + budget
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if residentFileBytes() > limit && short() {
			release()
		}
	}
}

// memoryShort reports whether the system has less than a tenth of its
// memory available, or the daemon's control group (cgroup v2, as systemd's
// MemoryMax sets) uses more than nine tenths of its limit.
func memoryShort() bool {
	if avail, total := meminfo("MemAvailable"), meminfo("MemTotal"); total > 0 && avail < total/10 {
		return true
	}
	current, max := cgroupMemory()
	return max > 0 && current > max/10*9
}

// meminfo is a field of /proc/meminfo, in bytes; 0 when it cannot be read.
func meminfo(field string) int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		name, rest, ok := strings.Cut(line, ":")
		if !ok || name != field {
			continue
		}
		f := strings.Fields(rest) // "123456 kB"
		if len(f) == 0 {
			return 0
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}

// cgroupMemory is the memory the process's cgroup uses and its limit, in
// bytes, from cgroup v2's files or else v1's memory controller; a limit of
// 0 when there is none or it cannot be read.
func cgroupMemory() (current, max int64) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0, 0
	}
	var dir, usage, limit string
	for line := range strings.Lines(string(b)) {
		f := strings.SplitN(strings.TrimSpace(line), ":", 3)
		switch {
		case len(f) != 3:
		case f[1] == "memory": // v1
			dir, usage, limit = filepath.Join("/sys/fs/cgroup/memory", f[2]), "memory.usage_in_bytes", "memory.limit_in_bytes"
		case f[0] == "0" && f[1] == "" && dir == "": // v2
			dir, usage, limit = filepath.Join("/sys/fs/cgroup", f[2]), "memory.current", "memory.max"
		}
	}
	if dir == "" {
		return 0, 0
	}
	read := func(name string) int64 {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return 0
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64) // v2's "max" reads as 0
		if err != nil || n >= 1<<62 {
			return 0 // v1 writes no limit as a huge number
		}
		return n
	}
	return read(usage), read(limit)
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
