package e2e

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/populate"
	"github.com/pbemd/pbemd/store/storetest"
	"github.com/pbemd/pbemd/tests/dovecot"
	"github.com/pbemd/pbemd/tests/testenv"
)

// BenchmarkServeScale runs pbemd serve on a large store made by "pbemd
// populate" (its data directory in PBEMD_SCALE_DATA; the benchmark writes
// to it: run it on a copy) with Dovecot for IMAP, an SMTP sink for the
// replies and mail handed over by LMTP, one mail at a time, as a quiet
// server gets it. It reports the time from starting serve to the first
// mail committed and to its reply sent, then for mails of reading
// commands (show, games, history, standings, all show, list; 100 of each,
// or PBEMD_SCALE_MAILS in all) from players drawn among all the store's,
// the time from handing the mail over to its commit and to its reply at
// the sink, in all and for each command (its service time: to the
// commit), and the daemon's resident memory (all of it, and the part that
// is not file pages) at the first reply, after the last and at its
// largest between. A bare bbolt loop on the store's disk, run first, gives
// the floor to read them against (bare-commits/s, bare-values/s: see
// storetest.BareBolt). PBEMD_SCALE_PLAYERS is the store's number of
// players (populate -players; default 300, as for -games 3000). Run with
// -benchtime=1x:
//
//	pbemd populate -data /tmp/pop -games 100000
//	cp -r /tmp/pop /tmp/popcopy
//	PBEMD_SCALE_DATA=/tmp/popcopy PBEMD_SCALE_PLAYERS=10000 go test ./tests/e2e -run '^$' -bench ServeScale -benchtime 1x
func BenchmarkServeScale(b *testing.B) {
	data := os.Getenv("PBEMD_SCALE_DATA")
	if data == "" {
		b.Skip("PBEMD_SCALE_DATA is not set: make a store with pbemd populate and point it at a copy")
	}
	mails := 700
	if v := os.Getenv("PBEMD_SCALE_MAILS"); v != "" {
		var err error
		if mails, err = strconv.Atoi(v); err != nil || mails < 1 {
			b.Fatalf("PBEMD_SCALE_MAILS %q: want a number of mails, 1 or more", v)
		}
	}
	for range b.N {
		b.StopTimer()
		bare, err := storetest.BareBolt(filepath.Dir(filepath.Clean(data)), 200)
		if err != nil {
			b.Fatal(err)
		}
		lmtpAddr := testenv.FreeAddr(b)
		w := newDovecotWorld(b, "lmtp: "+lmtpAddr+"\n")
		cfg, err := os.ReadFile(w.config)
		if err != nil {
			b.Fatal(err)
		}
		cfg = regexp.MustCompile(`(?m)^data: .*$`).ReplaceAll(cfg, []byte("data: "+filepath.Clean(data)))
		if err := os.WriteFile(w.config, cfg, 0o600); err != nil {
			b.Fatal(err)
		}
		// The players of the store (populate's default: one for every 10
		// games) and so the boards of each of the four kinds.
		players := 300
		if v := os.Getenv("PBEMD_SCALE_PLAYERS"); v != "" {
			if players, err = strconv.Atoi(v); err != nil {
				b.Fatalf("PBEMD_SCALE_PLAYERS: %v", err)
			}
		}
		boards := players * 10 / 4
		rng := rand.New(rand.NewPCG(1, 2))
		// The store keeps the keys of mails handled: ids new to it.
		run := time.Now().UnixNano()
		seen := len(w.sink.Messages())

		start := time.Now()
		p := startPbemd(b, []string{"PBEMD_IMAP_PASSWORD=" + serverPass}, "serve", "-config", w.config)
		var first time.Duration
		var firstID string
		for i := 0; ; i++ {
			firstID = fmt.Sprintf("first%d.%d@scale.test", i, run)
			if at, err := lmtpSend(lmtpAddr, populate.PlayerID(1), "tanbo show 101", firstID); err == nil {
				first = at.Sub(start)
				break
			}
			if time.Since(start) > time.Minute {
				b.Fatalf("no mail taken in a minute:\n%s", p.Output())
			}
			time.Sleep(5 * time.Millisecond)
		}
		at, ok := replyTo(b, w, &seen, firstID)
		if !ok {
			b.Fatal("no reply to the first mail")
		}
		firstReply := at.Sub(start)
		rssFirst, anonFirst := residentMemory(p.cmd.Process.Pid)

		commands := []struct {
			name    string
			subject func() string
		}{
			{"show", func() string { return fmt.Sprintf("%s show %d", kinds[rng.IntN(4)], 101+rng.IntN(boards)) }},
			{"games", func() string { return kinds[rng.IntN(4)] + " games" }},
			{"games-user", func() string { return kinds[rng.IntN(4)] + " games " + populate.PlayerID(rng.IntN(players)) }},
			{"history", func() string { return kinds[rng.IntN(4)] + " history" }},
			{"standings", func() string { return kinds[rng.IntN(4)] + " standings" }},
			{"all-show", func() string { return "all show " + populate.PlayerID(rng.IntN(players)) }},
			{"list", func() string { return "list" }},
		}
		byCommand := make(map[string][]time.Duration)
		// The largest resident set while the mails are handled, read
		// every 10 ms.
		var peak int64
		stopSampling := make(chan struct{})
		sampled := make(chan struct{})
		go func() {
			defer close(sampled)
			for {
				rss, _ := residentMemory(p.cmd.Process.Pid)
				peak = max(peak, rss)
				select {
				case <-stopSampling:
					return
				case <-time.After(10 * time.Millisecond):
				}
			}
		}()
		var committed, replied []time.Duration
		b.StartTimer()
		for i := range mails {
			command := commands[i%len(commands)]
			subject := command.subject()
			t0 := time.Now()
			id := fmt.Sprintf("scale%d.%d@scale.test", i, run)
			at, err := lmtpSend(lmtpAddr, populate.PlayerID(rng.IntN(players)), subject, id)
			if err != nil {
				b.Fatalf("mail %q: %v", subject, err)
			}
			committed = append(committed, at.Sub(t0))
			byCommand[command.name] = append(byCommand[command.name], at.Sub(t0))
			at, ok := replyTo(b, w, &seen, id)
			if !ok {
				b.Fatalf("no reply to %q", subject)
			}
			replied = append(replied, at.Sub(t0))
		}
		b.StopTimer()
		close(stopSampling)
		<-sampled
		rssLast, anonLast := residentMemory(p.cmd.Process.Pid)
		p.stop()

		b.ReportMetric(first.Seconds(), "first-commit-s")
		b.ReportMetric(firstReply.Seconds(), "first-reply-s")
		type series struct {
			name  string
			times []time.Duration
		}
		times := []series{{"commit", committed}, {"reply", replied}}
		for _, c := range commands {
			times = append(times, series{c.name, byCommand[c.name]})
		}
		for _, m := range times {
			if len(m.times) == 0 {
				continue
			}
			slices.Sort(m.times)
			b.ReportMetric(ms(m.times[len(m.times)/2]), m.name+"-p50-ms")
			b.ReportMetric(ms(m.times[len(m.times)*99/100]), m.name+"-p99-ms")
		}
		b.ReportMetric(bare.Commits, "bare-commits/s")
		b.ReportMetric(bare.Values, "bare-values/s")
		b.ReportMetric(float64(rssFirst)/(1<<20), "RSS-first-MiB")
		b.ReportMetric(float64(anonFirst)/(1<<20), "anon-first-MiB")
		b.ReportMetric(float64(rssLast)/(1<<20), "RSS-last-MiB")
		b.ReportMetric(float64(anonLast)/(1<<20), "anon-last-MiB")
		b.ReportMetric(float64(peak)/(1<<20), "RSS-peak-MiB")
	}
}

// replyTo waits up to a minute for the reply to the mail msgID among the
// sink's messages from *seen on (the sweep's mails may come between), and
// returns when it arrived.
func replyTo(b *testing.B, w *dovecotWorld, seen *int, msgID string) (time.Time, bool) {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		msgs := w.sink.Wait(*seen+1, time.Until(deadline))
		for ; *seen < len(msgs); *seen++ {
			if parseReply(b, msgs[*seen].Data).InReplyTo == msgID {
				*seen++
				return msgs[*seen-1].At, true
			}
		}
	}
	return time.Time{}, false
}

var kinds = []string{"tanbo", "ultima", "taratibu", "tobit"}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// lmtpSend hands one mail from a populated player (his id) to the daemon
// over LMTP and returns when the daemon answered for it (after its commit).
func lmtpSend(addr, player, subject, msgID string) (time.Time, error) {
	l, err := dovecot.DialLMTPAt(addr)
	if err != nil {
		return time.Time{}, err
	}
	defer l.Close()
	from := player + "@example.org"
	if err := l.Deliver(from, server, mailText(from, subject, msgID)); err != nil {
		return time.Time{}, err
	}
	return time.Now(), nil
}

// residentMemory is a process's resident set and the part of it that is
// not file pages (RssAnon), in bytes; zero when it cannot be read.
func residentMemory(pid int) (rss, anon int64) {
	out, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	for line := range strings.Lines(string(out)) {
		name, v, _ := strings.Cut(line, ":")
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch name {
		case "VmRSS":
			rss = kb << 10
		case "RssAnon":
			anon = kb << 10
		}
	}
	return rss, anon
}
