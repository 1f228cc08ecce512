package e2e

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/populate"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
	"github.com/pbemd/pbemd/tests/dovecot"
	"github.com/pbemd/pbemd/tests/testenv"
)

// BenchmarkServeScale runs pbemd serve on a large store made by "pbemd
// populate" (its data directory in PBEMD_SCALE_DATA; the benchmark writes
// to it: run it on a copy) with Dovecot for IMAP, an SMTP sink for the
// replies and mail handed over by LMTP. A bare bbolt loop on the store's
// disk, run first, gives the floor to read the rest against
// (bare-commits/s, bare-values/s: see storetest.BareBolt). Then, in three
// daemons started one after the other:
//
//   - one mail at a time, as a quiet server gets it: the time from
//     starting serve to the first mail committed and to its reply sent,
//     and to the end of the first sweep with its mails sent (caught-up-s),
//     then for mails of reading commands (show, games, history,
//     standings, all show, list) from players drawn among all the
//     store's and of legal moves on the store's running boards (100 of
//     each, or PBEMD_SCALE_MAILS in all), the time from handing the mail
//     over to its LMTP answer (commit-*: once spooled) and to its reply
//     at the sink, in all and for each command (its service time: to the
//     reply, as the answer no longer waits for the commit);
//   - backlogs of PBEMD_SCALE_BACKLOG (10,000) move mails, each board's
//     moves in order, from thousands of players (players-moving): over
//     IMAP, waiting in Dovecot's mailbox as the daemon starts (cold), then
//     as many put there while it is stopped (warm); over LMTP on 8
//     connections from the start (cold), then as many again (warm). For
//     each, mails/s to the last reply at the sink, handled/s to the last
//     commit and over the bare loop's values/s, the daemon's CPU a mail
//     (user and system, replies included) and its anonymous memory peak;
//   - the daemon's memory: all of it and the part that is not file pages
//     at the first reply and after the last command, and the largest
//     anonymous memory of any daemon (anon-peak-MiB).
//
// The store's players and boards are read from it, and the boards due for
// the sweep (due-at-start): populate leaves none due, as on a live server,
// but sets clocks as of its own time, so a store populated hours before
// holds the reminders, forfeits and lapses of those hours (some 2,000 an
// hour at 1,000,000 games, each mailed to up to 52, and some 1,000 by the
// end of a populate of 25 minutes), which the first daemon sweeps at its
// start, before the timed commands. Those of the time between the
// daemons go out during the backlogs and count in their time and CPU.
// Populate shortly before. Run with
// -benchtime=1x (docs/scaling.md, "Measuring it"):
//
//	pbemd populate -data /tmp/pop -games 100000
//	cp -r /tmp/pop /tmp/popcopy
//	PBEMD_SCALE_DATA=/tmp/popcopy go test ./tests/e2e -run '^$' -bench ServeScale -benchtime 1x -timeout 2h
func BenchmarkServeScale(b *testing.B) {
	data := os.Getenv("PBEMD_SCALE_DATA")
	if data == "" {
		b.Skip("PBEMD_SCALE_DATA is not set: make a store with pbemd populate and point it at a copy")
	}
	mails := envCount(b, "PBEMD_SCALE_MAILS", 800)
	backlog := envCount(b, "PBEMD_SCALE_BACKLOG", 10000)
	for range b.N {
		b.StopTimer()
		bare, err := storetest.BareBolt(filepath.Dir(filepath.Clean(data)), 200)
		if err != nil {
			b.Fatal(err)
		}
		lmtpAddr := testenv.FreeAddr(b)
		extra := "lmtp: " + lmtpAddr + "\n"
		if os.Getenv("PBEMD_BENCH_CPUPROFILE") != "" {
			extra += "pprof: true\n"
		}
		w := newDovecotWorld(b, extra)
		cfg, err := os.ReadFile(w.config)
		if err != nil {
			b.Fatal(err)
		}
		cfg = regexp.MustCompile(`(?m)^data: .*$`).ReplaceAll(cfg, []byte("data: "+filepath.Clean(data)))
		if err := os.WriteFile(w.config, cfg, 0o600); err != nil {
			b.Fatal(err)
		}
		players, boards, due := populated(b, data)
		// A store populated long before holds the reminders and
		// forfeits of the time since, which the first daemon sweeps
		// (and mails) before the timed commands.
		b.ReportMetric(float64(due), "due-at-start")
		if due > 1000 {
			b.Logf("%d boards are due for the sweep at the start: the first daemon sweeps them before the timed commands, and those due later go out with the backlogs (was the store populated long before?)", due)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		// The move mails: one command's share, then four backlogs.
		moves := storeMoves(b, data, mails/8+4*backlog, rng)
		b.ReportMetric(float64(senders(moves[mails/8:])), "players-moving")
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
		// The timed commands begin once the first sweep has run and its
		// mails are sent, as on a live server, whose sweep is never far
		// behind: the boards a store populated a while ago holds due
		// (due-at-start) are not the commands' cost.
		for c := waitCounters(b, w.metrics); c["sweep_ticks"] < 1 || c["outbox_length"] > 0; c = waitCounters(b, w.metrics) {
			if time.Since(start) > 5*time.Minute {
				b.Fatalf("the first sweep not done and its mails not sent in 5 minutes:\n%s", p.Output())
			}
			time.Sleep(50 * time.Millisecond)
		}
		caughtUp := time.Since(start)
		seen = len(w.sink.Messages())

		kind := func() string { return kinds[rng.IntN(len(kinds))] }
		anyone := func() string { return populate.PlayerID(rng.IntN(players)) }
		read := func(subject func() string) func() (string, string) {
			return func() (string, string) { return anyone(), subject() }
		}
		// Each command's mail: its sender and its subject.
		commands := []struct {
			name string
			mail func() (player, subject string)
		}{
			{"show", read(func() string { k := kind(); return fmt.Sprintf("%s show %d", k, 101+rng.IntN(boards[k])) })},
			{"games", read(func() string { return kind() + " games" })},
			{"games-user", read(func() string { return kind() + " games " + anyone() })},
			{"history", read(func() string { return kind() + " history" })},
			{"standings", read(func() string { return kind() + " standings" })},
			{"all-show", read(func() string { return "all show " + anyone() })},
			{"list", read(func() string { return "list" })},
			{"move", func() (string, string) {
				m := moves[0]
				moves = moves[1:]
				return m.player, m.subject()
			}},
		}
		byCommand := make(map[string][]time.Duration)
		// The largest resident set while the mails are handled.
		mem := sampleMemory(p.cmd.Process.Pid)
		var committed, replied []time.Duration
		b.StartTimer()
		for i := range mails {
			command := commands[i%len(commands)]
			sender, subject := command.mail()
			t0 := time.Now()
			id := fmt.Sprintf("scale%d.%d@scale.test", i, run)
			at, err := lmtpSend(lmtpAddr, sender, subject, id)
			if err != nil {
				b.Fatalf("mail %q: %v", subject, err)
			}
			committed = append(committed, at.Sub(t0))
			at, ok := replyTo(b, w, &seen, id)
			if !ok {
				b.Fatalf("no reply to %q", subject)
			}
			replied = append(replied, at.Sub(t0))
			byCommand[command.name] = append(byCommand[command.name], at.Sub(t0))
		}
		b.StopTimer()
		peak, anonPeak := mem.peak()
		mem.close()
		rssLast, anonLast := residentMemory(p.cmd.Process.Pid)
		p.stop()
		for _, r := range backlogs(b, w, lmtpAddr, moves, backlog) {
			r.report(b, bare.Values)
			anonPeak = max(anonPeak, r.anon)
		}

		b.ReportMetric(first.Seconds(), "first-commit-s")
		b.ReportMetric(firstReply.Seconds(), "first-reply-s")
		b.ReportMetric(caughtUp.Seconds(), "caught-up-s")
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
		b.ReportMetric(float64(anonPeak)/(1<<20), "anon-peak-MiB")
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

// envCount is the count the environment variable name sets, or def.
func envCount(b *testing.B, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		b.Fatalf("%s %q: want a count, 1 or more", name, v)
	}
	return n
}

// populated reads the number of players populate made in the store in
// data (their ids are numbered from 0) and the last board of each game.
func populated(b *testing.B, data string) (players int, boards map[string]int, due int) {
	db, err := store.Open(store.PathIn(data), &store.Options{ReadOnly: true})
	if err != nil {
		b.Fatalf("the populated store: %v", err)
	}
	defer db.Close()
	boards = map[string]int{}
	err = db.View(func(tx *store.Tx) error {
		for _, k := range kinds {
			boards[k] = tx.LastBoard(k) - 100
		}
		// The first id that is not a player's, by halves.
		players = sort.Search(1<<31-1, func(i int) bool {
			_, err := tx.User(populate.PlayerID(i))
			return err != nil
		})
		due = len(tx.DueBoards(time.Now(), nil, math.MaxInt))
		return nil
	})
	if err != nil || players < 2 || boards[kinds[0]] < 1 {
		b.Fatalf("the populated store %s: %d players, boards %v, %v; want a store of pbemd populate", data, players, boards, err)
	}
	return players, boards, due
}

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
