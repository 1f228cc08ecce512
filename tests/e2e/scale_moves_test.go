package e2e

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/tests/smtpsink"
)

// storeMoves plans total legal move mails on the running boards of the
// populated store in data, read before the daemon opens it: boards drawn
// at random among every game's running ones, each replayed to its
// position, then move after move for the side to move, sent by that
// board's player with populate's password. The mails are interleaved
// across boards, round after round, so that any run of them keeps each
// board's moves in order. Boards whose player to move waited more than a
// week are left out (the sweep may forfeit them while the benchmark
// runs), as are boards with a queued move (which would answer the move),
// a vote or an open seat, and a move that would end its game (a finished
// board answers the next one with an error).
func storeMoves(b *testing.B, data string, total int, rng *rand.Rand) []moveMail {
	b.Helper()
	db, err := store.Open(store.PathIn(data), &store.Options{ReadOnly: true})
	if err != nil {
		b.Fatalf("the populated store: %v", err)
	}
	defer db.Close()
	type chain struct {
		rec *store.Game
		pos rules.Position
	}
	var chains []*chain
	recent := time.Now().Add(-7 * 24 * time.Hour)
	// Some twenty moves a board: thousands of players, yet not each of a
	// store's, since a daemon checks each player's password once (bcrypt,
	// some 70 ms of CPU) before it caches it.
	want := total/20 + 1
	err = db.View(func(tx *store.Tx) error {
		var refs []store.GameRef
		for _, kind := range kinds {
			nums, err := tx.RunningBoards(kind)
			if err != nil {
				return err
			}
			for _, n := range nums {
				refs = append(refs, store.GameRef{Kind: kind, Board: n})
			}
		}
		rng.Shuffle(len(refs), func(i, j int) { refs[i], refs[j] = refs[j], refs[i] })
		for _, ref := range refs {
			if len(chains) == want {
				break
			}
			rec, err := tx.Game(ref.Kind, ref.Board)
			if err != nil {
				return err
			}
			if rec.Over || len(rec.Queue) > 0 || rec.Vote != nil || rec.TurnSince.Before(recent) ||
				rec.Extra[board.PendingKey] != "" || len(rec.Seats) != 2 || rec.Seats[0] == "" || rec.Seats[1] == "" {
				continue
			}
			_, pos, err := board.Replay(rec, len(rec.Moves))
			if err != nil {
				return err
			}
			chains = append(chains, &chain{rec, pos})
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	run := time.Now().UnixNano()
	var mails []moveMail
	for round := 0; len(mails) < total; round++ {
		moved := false
		for _, c := range chains {
			if len(mails) == total {
				break
			}
			if c.pos == nil {
				continue
			}
			legal := c.pos.Legal()
			if len(legal) == 0 {
				c.pos = nil
				continue
			}
			move := legal[rng.IntN(len(legal))]
			next := c.pos.Clone()
			if _, err := next.Play(move); err != nil {
				b.Fatalf("%s board %d: legal move %q: %v", c.rec.Kind, c.rec.Board, move, err)
			}
			if next.Result().Over {
				c.pos = nil // its last move would end it: the board rests
				continue
			}
			id := c.rec.Seats[c.pos.ToMove()]
			mails = append(mails, moveMail{board: c.rec.Board, player: id, move: move, kind: c.rec.Kind, from: id + "@example.org",
				msgID: fmt.Sprintf("%s%dm%d.%d@scale.test", c.rec.Kind, c.rec.Board, round, run)})
			c.pos = next
			moved = true
		}
		if !moved {
			b.Fatalf("%d move mails planned on %d running boards of %s; want %d: populate a larger store or lower PBEMD_SCALE_BACKLOG", len(mails), len(chains), data, total)
		}
	}
	return mails
}

// senders counts the players who send mails.
func senders(mails []moveMail) int {
	seen := map[string]bool{}
	for _, m := range mails {
		seen[m.player] = true
	}
	return len(seen)
}

// cpuTime is the CPU time (user and system) a process has used so far.
func cpuTime(b *testing.B, pid int) time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	// The fields after the command's name, which may hold spaces, in
	// parentheses: utime and stime are the 14th and 15th of the line.
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	user, _ := strconv.ParseInt(fields[11], 10, 64)
	sys, _ := strconv.ParseInt(fields[12], 10, 64)
	const tick = 10 * time.Millisecond // USER_HZ, 100 on Linux
	return time.Duration(user+sys) * tick
}

// memorySampler reads a process's resident memory every 10 ms and keeps
// the largest of all of it and of its anonymous part.
type memorySampler struct {
	stop, stopped chan struct{}
	mu            sync.Mutex
	rss, anon     int64
}

func sampleMemory(pid int) *memorySampler {
	s := &memorySampler{stop: make(chan struct{}), stopped: make(chan struct{})}
	go func() {
		defer close(s.stopped)
		for {
			rss, anon := residentMemory(pid)
			s.mu.Lock()
			s.rss, s.anon = max(s.rss, rss), max(s.anon, anon)
			s.mu.Unlock()
			select {
			case <-s.stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return s
}

// peak is the largest resident set and anonymous memory since the start
// or the last peak.
func (s *memorySampler) peak() (rss, anon int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rss, anon = s.rss, s.anon
	s.rss, s.anon = 0, 0
	return rss, anon
}

func (s *memorySampler) close() {
	close(s.stop)
	<-s.stopped
}

// A backlogRun is one backlog handed to a running daemon and its figures.
type backlogRun struct {
	name     string // lmtp-cold, imap-warm, ...
	mails    int
	handled  time.Duration // from the start to the last mail committed
	replied  time.Duration // to the last reply at the sink
	cpu      time.Duration // the daemon's, over the same span
	moves    int           // the moves the daemon played of them
	anon     int64         // the largest anonymous memory meanwhile
	refusals []string      // the first lines of some error replies
}

// refusals are the first lines of the first three error replies among
// msgs: why moves planned as legal were refused.
func refusals(b *testing.B, msgs []smtpsink.Message) []string {
	var out []string
	for _, m := range msgs {
		r := parseReply(b, m.Data)
		if strings.HasSuffix(r.Subject, " Error") {
			first, _, _ := strings.Cut(r.Body, "\n")
			if out = append(out, r.Subject+": "+first); len(out) == 3 {
				break
			}
		}
	}
	return out
}

// report reports r's figures under its name: mails/s to the last reply,
// handled/s to the last commit and as a share of the bare loop's values/s,
// the daemon's CPU a mail and its anonymous memory peak.
func (r backlogRun) report(b *testing.B, bareValues float64) {
	b.ReportMetric(float64(r.mails)/r.replied.Seconds(), r.name+"-mails/s")
	b.ReportMetric(float64(r.mails)/r.handled.Seconds(), r.name+"-handled/s")
	b.ReportMetric(float64(r.mails)/r.handled.Seconds()/bareValues, r.name+"-handled-per-bare")
	b.ReportMetric(float64(r.cpu.Microseconds())/float64(r.mails), r.name+"-cpu-µs/mail")
	b.ReportMetric(float64(r.anon)/(1<<20), r.name+"-anon-peak-MiB")
	// Moves the daemon refused although they were legal in the order
	// sent: reported, not failed, so that the other figures still show.
	b.ReportMetric(float64(r.mails-r.moves), r.name+"-refused")
	if r.moves < r.mails {
		b.Logf("%s: %d of %d move mails played; refused, e.g.: %q", r.name, r.moves, r.mails, r.refusals)
	}
}

// A daemon is pbemd serve on w's config with its memory sampled.
type daemon struct {
	p   *proc
	mem *memorySampler
}

func (d *daemon) start(b *testing.B, w *dovecotWorld) {
	d.p = startPbemd(b, []string{"PBEMD_IMAP_PASSWORD=" + serverPass}, "serve", "-config", w.config)
	d.mem = sampleMemory(d.p.cmd.Process.Pid)
}

func (d *daemon) stop() {
	d.mem.close()
	d.p.stop()
}

// signal sends sig to the daemon.
func (d *daemon) signal(b *testing.B, sig syscall.Signal) {
	if err := d.p.cmd.Process.Signal(sig); err != nil {
		b.Fatal(err)
	}
}

// runBacklog has the daemon d handle mails and waits for every reply at
// the sink: mails_in counting them all, no reply waiting, and the sink
// holding as many mails more as the daemon sent meanwhile. Untimed,
// prepare puts them where the daemon will find them; then the clock
// starts, launch starts or wakes the daemon and deliver, on a goroutine
// of its own, hands them over. A daemon not started yet has counted
// nothing.
func runBacklog(b *testing.B, w *dovecotWorld, d *daemon, name string, mails []moveMail, prepare, launch, deliver func()) backlogRun {
	b.Helper()
	before := map[string]int{}
	var cpu0 time.Duration
	if d.p != nil {
		before = waitCounters(b, w.metrics)
		cpu0 = cpuTime(b, d.p.cmd.Process.Pid)
		d.mem.peak()
	}
	sinkBefore := len(w.sink.Messages())
	if prepare != nil {
		prepare()
	}
	t0 := time.Now()
	if launch != nil {
		launch()
	}
	delivered := make(chan struct{})
	go func() {
		defer close(delivered)
		if deliver != nil {
			deliver()
		}
	}()
	profiled := make(chan struct{})
	go func() {
		defer close(profiled)
		if file := os.Getenv("PBEMD_BENCH_CPUPROFILE"); file != "" {
			cpuProfile(b, w.metrics, file+"."+name)
		}
	}()
	r := backlogRun{name: name, mails: len(mails)}
	for {
		// Every 100 ms: a read of the metrics costs the daemon some 0.3
		// ms of CPU (see benchBacklog).
		time.Sleep(100 * time.Millisecond)
		if time.Since(t0) > 15*time.Minute {
			b.Fatalf("%s: the backlog not handled in 15 minutes:\n%s", name, d.p.Output())
		}
		c := tryCounters(w.metrics)
		if c == nil || c["mails_in"]-before["mails_in"] < len(mails) {
			continue
		}
		if r.handled == 0 {
			r.handled = time.Since(t0)
		}
		if c["outbox_length"] > 0 {
			continue
		}
		sent := c["replies_sent"] - before["replies_sent"]
		msgs := w.sink.Wait(sinkBefore+sent, 5*time.Minute)
		if len(msgs) < sinkBefore+sent {
			b.Fatalf("%s: %d replies at the sink; the daemon sent %d", name, len(msgs)-sinkBefore, sent)
		}
		r.replied = msgs[len(msgs)-1].At.Sub(t0)
		r.refusals = refusals(b, msgs[sinkBefore:])
		r.cpu = cpuTime(b, d.p.cmd.Process.Pid) - cpu0
		r.moves = c["moves"] - before["moves"]
		break
	}
	<-delivered
	<-profiled
	_, r.anon = d.mem.peak()
	return r
}

// waitCounters reads the daemon's counters, waiting for it to serve them.
func waitCounters(b *testing.B, metrics string) map[string]int {
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if c := tryCounters(metrics); c != nil {
			return c
		}
		if time.Since(start) > time.Minute {
			b.Fatal("no metrics in a minute")
		}
	}
}

// backlogs runs backlogs of n of the mails each on the populated store of
// w, in two daemons: over IMAP, the mails waiting in Dovecot's mailbox
// (delivered over 8 connections, each board's moves in order) as the
// daemon starts (cold), then a second backlog put there while it is
// stopped (SIGSTOP), so that it finds them all at once as it goes on
// (warm); over LMTP at lmtpAddr, 8 connections handing mails over from the start
// (cold), then a second backlog (warm).
func backlogs(b *testing.B, w *dovecotWorld, lmtpAddr string, mails []moveMail, n int) []backlogRun {
	next := func() []moveMail {
		part := mails[:n]
		mails = mails[n:]
		return part
	}
	var runs []backlogRun
	// Into Dovecot's mailbox over one connection, in order: over eight at
	// once (each board's mails on one, each after the last was answered)
	// the mailbox's UIDs did not keep each board's order, and a fifth of
	// the boards had two of their moves read swapped, refused as out of
	// turn. Over pbemd's own LMTP, eight connections keep it.
	imap := &daemon{}
	cold := next()
	runs = append(runs, runBacklog(b, w, imap, "imap-cold", cold,
		func() { deliverAll(b, w, cold) }, func() { imap.start(b, w) }, nil))
	warm := next()
	runs = append(runs, runBacklog(b, w, imap, "imap-warm", warm, func() {
		imap.signal(b, syscall.SIGSTOP)
		deliverAll(b, w, warm)
	}, func() { imap.signal(b, syscall.SIGCONT) }, nil))
	imap.stop()

	lmtp := &daemon{}
	for _, name := range []string{"lmtp-cold", "lmtp-warm"} {
		part := next()
		launch := func() {}
		if lmtp.p == nil {
			launch = func() { lmtp.start(b, w) }
		}
		runs = append(runs, runBacklog(b, w, lmtp, name, part, nil, launch, func() { deliverLMTP(b, lmtpAddr, part) }))
	}
	lmtp.stop()
	return runs
}
