package e2e

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkLargeBacklog: 100 mails of 10 MB each (under the 10 MiB
// limit, so each is read whole) waiting in Dovecot when pbemd starts;
// reports the daemon's peak RSS (VmHWM) once it has handled them all. The
// fetches are bounded in bytes, so the peak is about one large mail's
// cost, not a batch of 100. Run with -benchtime=1x.
func BenchmarkLargeBacklog(b *testing.B) {
	const mails, size = 100, 10_000_000
	for range b.N {
		b.StopTimer()
		w := newDovecotWorld(b, "")
		if v := os.Getenv("PBEMD_BENCH_BATCH_BYTES"); v != "" {
			w.setIMAP(b, "batch_bytes: "+v) // to compare with other bounds
		}
		body := strings.Repeat("a line of a large mail, read whole by the daemon\r\n", size/50)
		for i := range mails {
			from := player(fmt.Sprintf("p%d", i))
			data := append(mailText(from, "help", fmt.Sprintf("large%d@localhost", i)), body...)
			if err := w.dc.Deliver(from, server, data); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		p := startPbemd(b, []string{"PBEMD_IMAP_PASSWORD=" + serverPass}, "serve", "-config", w.config)
		deadline := time.Now().Add(10 * time.Minute)
		for tryCounters(w.metrics)["mails_in"] < mails {
			if time.Now().After(deadline) {
				b.Fatalf("%d of %d mails handled in 10 minutes", tryCounters(w.metrics)["mails_in"], mails)
			}
			time.Sleep(100 * time.Millisecond)
		}
		b.StopTimer()
		b.ReportMetric(float64(peakRSS(b, p.cmd.Process.Pid))/(1<<20), "peak-RSS-MiB")
		p.stop()
	}
}

// peakRSS is the largest resident set of the process so far, in bytes.
func peakRSS(b *testing.B, pid int) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatal("no VmHWM in /proc/PID/status")
	return 0
}
