package e2e

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/devmail"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store/storetest"
	"github.com/pbemd/pbemd/tests/dovecot"
	"github.com/pbemd/pbemd/tests/testenv"
)

// BenchmarkBacklog: 10,000 move mails (500 boards, 20 moves each)
// waiting in the mailbox when pbemd starts; handled/s is from starting
// pbemd to the last mail committed, mails/s to the last reply accepted by
// the SMTP sink (over smtp.connections, 4, or PBEMD_BENCH_SMTP_CONNECTIONS),
// and pbemd-cpu-µs/mail the CPU time pbemd used for it all; a bare bbolt
// loop on the same disk, run first (storetest.BareBolt), gives the floor
// (bare-commits/s, bare-values/s) and handled-per-bare, handled/s over
// bare-values/s. PBEMD_BENCH_CPUPROFILE=FILE writes a CPU profile of
// pbemd's first 20 s of the backlog there (its pprof setting), and
// PBEMD_BENCH_ALLOCPROFILE=FILE its allocations from the start to the
// last reply. "dovecot" reads Dovecot, "go-imap" go-imap's server (the
// embedded default's); "lmtp" hands the mails to pbemd's LMTP listener
// once it has started, as an MTA with a queue does, over 8 connections (or
// PBEMD_BENCH_LMTP_CONNECTIONS), each a mail at a time, the moves of a
// board on one connection in their order. Run with -benchtime=1x: the
// set-up takes longer than the run.
func BenchmarkBacklog(b *testing.B) {
	b.Run("dovecot", func(b *testing.B) {
		benchBacklog(b, func(w *dovecotWorld) {}, "")
	})
	b.Run("go-imap", func(b *testing.B) {
		benchBacklog(b, func(w *dovecotWorld) { useDevmail(b, w) }, "")
	})
	b.Run("lmtp", func(b *testing.B) {
		benchBacklog(b, func(w *dovecotWorld) {}, testenv.FreeAddr(b))
	})
}

// benchBacklog runs the backlog from the mailbox, or over LMTP at lmtpAddr
// when it is given.
func benchBacklog(b *testing.B, setup func(w *dovecotWorld), lmtpAddr string) {
	for range b.N {
		b.StopTimer()
		extra := ""
		if lmtpAddr != "" {
			extra = "lmtp: " + lmtpAddr + "\n"
		}
		profile := os.Getenv("PBEMD_BENCH_CPUPROFILE")
		allocs := os.Getenv("PBEMD_BENCH_ALLOCPROFILE")
		if profile != "" || allocs != "" {
			extra += "pprof: true\n"
		}
		w := newDovecotWorld(b, extra)
		setup(w)
		if v := os.Getenv("PBEMD_BENCH_SMTP_CONNECTIONS"); v != "" {
			// To compare with other counts (1: one connection, as before smtp.connections).
			cfg, _ := os.ReadFile(w.config)
			os.WriteFile(w.config, []byte(strings.Replace(string(cfg), "  retry_max: 500ms\n", "  retry_max: 500ms\n  connections: "+v+"\n", 1)), 0o600)
		}
		bare, err := storetest.BareBolt(filepath.Dir(w.data), 200)
		if err != nil {
			b.Fatal(err)
		}
		mails, _ := backlog(b, w, 500, 20)
		if lmtpAddr == "" {
			deliverAll(b, w, mails)
		}
		before := len(w.sink.Messages())
		want := before + 2*len(mails)
		b.StartTimer()
		start := time.Now()
		p := startPbemd(b, []string{"PBEMD_IMAP_PASSWORD=" + serverPass}, "serve", "-config", w.config)
		profiled := make(chan struct{})
		go func() {
			defer close(profiled)
			if profile != "" {
				cpuProfile(b, w.metrics, profile)
			}
		}()
		delivered := make(chan struct{})
		go func() {
			defer close(delivered)
			if lmtpAddr != "" {
				deliverLMTP(b, lmtpAddr, mails)
			}
		}()
		var handled time.Duration
		for handled == 0 {
			// Every 100 ms: a read of the metrics costs the daemon some
			// 0.3 ms of CPU (the process collector reads /proc, the
			// answer is gzipped), which every 20 ms was a tenth of its
			// CPU in the backlog's profile.
			time.Sleep(100 * time.Millisecond)
			if time.Since(start) > 10*time.Minute {
				b.Fatalf("the backlog not handled in 10 minutes:\n%s", p.Output())
			}
			if c := tryCounters(w.metrics); c["mails_in"] >= len(mails) {
				handled = time.Since(start)
			}
		}
		msgs := w.sink.Wait(want, 5*time.Minute)
		b.StopTimer()
		<-delivered
		<-profiled
		if allocs != "" {
			pprofTo(b, w.metrics, "allocs", allocs)
		}
		b.ReportMetric(float64(len(mails))/handled.Seconds(), "handled/s")
		b.ReportMetric(bare.Commits, "bare-commits/s")
		b.ReportMetric(bare.Values, "bare-values/s")
		b.ReportMetric(float64(len(mails))/handled.Seconds()/bare.Values, "handled-per-bare")
		if len(msgs) < want {
			b.Fatalf("%d replies; want %d", len(msgs)-before, want-before)
		}
		elapsed := msgs[want-1].At.Sub(start)
		b.ReportMetric(float64(len(mails))/elapsed.Seconds(), "mails/s")
		b.ReportMetric(float64(len(mails)), "mails")
		p.stop()
		// pbemd's CPU time, handling and sending: what a mail costs it,
		// whatever else the machine runs meanwhile.
		cpu := p.cmd.ProcessState.UserTime() + p.cmd.ProcessState.SystemTime()
		b.ReportMetric(float64(cpu.Microseconds())/float64(len(mails)), "pbemd-cpu-µs/mail")
	}
}

// cpuProfile writes a CPU profile of the daemon's next 20 s, from its
// profiler on the metrics listener at addr, to file.
func cpuProfile(b *testing.B, addr, file string) {
	pprofTo(b, addr, "profile?seconds=20", file)
}

// deliverLMTP hands the mails to pbemd over LMTP as an MTA with a queue
// does (or to Dovecot's LMTP at addr, to fill the mailbox sooner than one
// connection does): on PBEMD_BENCH_LMTP_CONNECTIONS connections (8), each a mail at a
// time, the mails of one board on one connection, in their order. It
// waits for pbemd to listen, and gives up on a mail refused.
func deliverLMTP(b *testing.B, addr string, mails []moveMail) {
	conns := 8
	if v := os.Getenv("PBEMD_BENCH_LMTP_CONNECTIONS"); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			conns = n
		}
	}
	var wg sync.WaitGroup
	for c := range conns {
		wg.Go(func() {
			var l *dovecot.LMTP
			for start := time.Now(); l == nil; {
				var err error
				if l, err = dovecot.DialLMTPAt(addr); err != nil {
					if time.Since(start) > time.Minute {
						b.Errorf("LMTP: %v", err)
						return
					}
					time.Sleep(5 * time.Millisecond)
				}
			}
			defer l.Close()
			for _, m := range mails {
				if m.board%conns != c {
					continue
				}
				if err := l.Deliver(m.from, server, m.mail()); err != nil {
					b.Errorf("LMTP, mail %s: %v", m.msgID, err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// useDevmail points w's pbemd at go-imap's server (the embedded
// default's) instead of Dovecot, and delivers the players' mail there.
func useDevmail(b *testing.B, w *dovecotWorld) {
	dm, err := devmail.Start(devmail.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { dm.Close() })
	dm.AddAccount(server, serverPass)
	_, port, _ := net.SplitHostPort(dm.IMAPAddr)
	_, oldPort, _ := net.SplitHostPort(w.dc.IMAPAddr)
	cfg, _ := os.ReadFile(w.config)
	os.WriteFile(w.config, []byte(strings.Replace(string(cfg), "port: "+oldPort, "port: "+port, 1)), 0o600)
	w.deliver = func(from string, data []byte) error { return dm.Deliver(from, []string{server}, data) }
}

// BenchmarkLatency: a move mail delivered while pbemd idles (into its
// mailbox, or over LMTP), to its two replies at the SMTP sink; reports the
// 50th and 99th percentiles.
func BenchmarkLatency(b *testing.B) {
	b.Run("dovecot", func(b *testing.B) {
		w := newDovecotWorld(b, "")
		latency(b, w, func(from string, data []byte) error { return w.dc.Deliver(from, server, data) })
	})
	b.Run("go-imap", func(b *testing.B) {
		// The same, with go-imap's server (the embedded default's) as
		// the IMAP server.
		w := newDovecotWorld(b, "")
		useDevmail(b, w)
		latency(b, w, w.deliver)
	})
	b.Run("lmtp", func(b *testing.B) {
		// Handed to pbemd's LMTP listener directly, one mail a
		// connection, as an MTA does.
		lmtpAddr := testenv.FreeAddr(b)
		w := newDovecotWorld(b, "lmtp: "+lmtpAddr+"\n")
		latency(b, w, func(from string, data []byte) error { return dovecot.DeliverAt(lmtpAddr, from, server, data) })
	})
	b.Run("postfix", func(b *testing.B) {
		// Mailed to Postfix, which hands it to pbemd's LMTP listener.
		w, _, _ := newPostfixWorld(b)
		latency(b, w, w.deliver)
	})
}

func latency(b *testing.B, w *dovecotWorld, deliver func(from string, data []byte) error) {
	b.StopTimer()
	b.ResetTimer() // the servers' start is no part of it
	w.deliver = deliver
	// Boards enough that none ends: each takes at most 20 of the moves,
	// in turn.
	boards := 1 + (b.N-1)/20
	backlog(b, w, boards, 0)
	p := w.start(b)
	defer p.stop()
	g := game(b)
	positions := make([]rules.Position, boards)
	for i := range positions {
		var err error
		if positions[i], err = g.Start(rules.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	ids := [2]string{"alice", "bob"}
	var times []time.Duration
	seen := len(w.sink.Messages())
	for i := range b.N {
		board, pos := 101+i%boards, positions[i%boards]
		if pos.Result().Over {
			b.Fatalf("board %d: game over", board)
		}
		time.Sleep(100 * time.Millisecond) // idle again
		id := ids[pos.ToMove()]
		move := pos.Legal()[0]
		if _, err := pos.Play(move); err != nil {
			b.Fatal(err)
		}
		data := mailText(player(id), fmt.Sprintf("%s move %d %s secret %s", g.Name(), board, id, move), fmt.Sprintf("lat%d@e2e.test", i))
		b.StartTimer()
		start := time.Now()
		if err := deliver(player(id), data); err != nil {
			b.Fatal(err)
		}
		msgs := w.sink.Wait(seen+2, 30*time.Second)
		b.StopTimer()
		if len(msgs) < seen+2 {
			b.Fatalf("move %d: no replies", i)
		}
		seen += 2
		times = append(times, msgs[seen-1].At.Sub(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "max-ms")
}

// tryCounters reads the counters, or returns nil while pbemd is starting.
func tryCounters(metrics string) map[string]int {
	c, err := readCounters(metrics)
	if err != nil {
		return nil
	}
	return c
}
