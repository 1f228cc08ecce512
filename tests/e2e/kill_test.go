package e2e

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/tests/dovecot"
	"github.com/pbemd/pbemd/tests/testenv"
)

// moveMail is one move command of the backlog.
type moveMail struct {
	board  int
	player string
	move   string
	msgID  string
	kind   string // the game
	from   string // the player's address
}

func (m moveMail) subject() string {
	return fmt.Sprintf("%s move %d %s secret %s", m.kind, m.board, m.player, m.move)
}

// mail is the move mail as the tests' trusted MTA hands it on.
func (m moveMail) mail() []byte { return mailText(m.from, m.subject(), m.msgID) }

// backlog sets up boards games between alice and bob through a running
// daemon, then returns perMove moves per board, interleaved across boards
// in the order they must be mailed, and the moves each board must end
// with.
func backlog(t testing.TB, w *dovecotWorld, boards, perBoard int) ([]moveMail, map[int][]string) {
	t.Helper()
	g := game(t)
	p := w.start(t)
	w.send(t, player("alice"), "signup alice secret", "signup-alice@e2e.test")
	w.send(t, player("bob"), "signup bob secret", "signup-bob@e2e.test")
	for b := 0; b < boards; b++ {
		w.send(t, player("alice"), g.Name()+" challenge alice bob", fmt.Sprintf("challenge%d@e2e.test", b))
	}
	waitReplies(t, w, 2+2*boards)
	p.stop()

	return planMoves(t, g, boards, perBoard)
}

// planMoves returns perBoard moves for each of the boards 101, 102, ...
// of g between alice (first) and bob, interleaved across boards in the
// order they must be mailed, and the moves each board must end with.
func planMoves(t testing.TB, g rules.Game, boards, perBoard int) ([]moveMail, map[int][]string) {
	t.Helper()
	ids := [2]string{"alice", "bob"}
	want := map[int][]string{}
	positions := map[int]rules.Position{}
	var mails []moveMail
	for n := 0; n < perBoard; n++ {
		for b := 101; b < 101+boards; b++ {
			pos := positions[b]
			if pos == nil {
				var err error
				if pos, err = g.Start(rules.Options{}); err != nil {
					t.Fatal(err)
				}
				positions[b] = pos
			}
			legal := pos.Legal()
			move := legal[(b*7+n*3)%len(legal)]
			next := pos.Clone()
			if _, err := next.Play(move); err != nil {
				t.Fatal(err)
			}
			if next.Result().Over {
				continue // keep every board running: a finished game answers differently
			}
			id := ids[pos.ToMove()]
			mails = append(mails, moveMail{b, id, move, fmt.Sprintf("b%dm%d@e2e.test", b, n), g.Name(), player(id)})
			positions[b] = next
			want[b] = append(want[b], move)
		}
	}
	return mails, want
}

// deliverAll puts the mails into the server's INBOX: over one LMTP
// connection to Dovecot, or through w.deliver when set.
func deliverAll(t testing.TB, w *dovecotWorld, mails []moveMail) {
	t.Helper()
	deliver := w.deliver
	if deliver == nil {
		l, err := w.dc.DialLMTP()
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		deliver = func(from string, data []byte) error { return l.Deliver(from, server, data) }
	}
	for _, m := range mails {
		if err := deliver(m.from, m.mail()); err != nil {
			t.Fatal(err)
		}
	}
}

// TestKilledDaemon kills pbemd with SIGKILL at random moments while it
// works through a backlog of move mails, over and over. In the end every
// move must have been applied exactly once, in order, and every reply
// sent at least once.
func TestKilledDaemon(t *testing.T) {
	w, mails, want, progress := interruptBacklog(t, 10, func(p *proc, round int) { p.kill() })
	// The kills must have hit the backlog, not an idle daemon.
	t.Logf("mails done after each kill: %v", progress)
	before, after := 2+20, 2+20+len(mails)
	mid := 0
	for _, n := range progress {
		if n > before && n < after {
			mid++
		}
	}
	if mid < 2 {
		t.Errorf("only %d kills hit the backlog half-done; the test shows little", mid)
	}
	finishBacklog(t, w)
	checkMoves(t, w, want)
	answered := repliesTo(t, w)
	for _, m := range mails {
		to := answered[m.msgID]
		if !slices.Contains(to, player("alice")) || !slices.Contains(to, player("bob")) {
			t.Errorf("move %s got replies to %q; want at least one to alice and one to bob", m.msgID, to)
		}
	}
}

// checkMoves checks that each board of the store holds exactly the moves
// want gives it, in order: none lost, none applied twice.
func checkMoves(t *testing.T, w *dovecotWorld, want map[int][]string) {
	t.Helper()
	db, err := store.Open(store.PathIn(w.data), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	checkMovesIn(t, db, want)
}

// checkMovesIn is checkMoves on the store db.
func checkMovesIn(t *testing.T, db *store.DB, want map[int][]string) {
	t.Helper()
	err := db.View(func(tx *store.Tx) error {
		for b, moves := range want {
			g, err := tx.Game(game(t).Name(), b)
			if err != nil {
				return err
			}
			var got []string
			for _, m := range g.Moves {
				got = append(got, m.Text)
			}
			if !slices.Equal(got, moves) {
				t.Errorf("board %d has moves %q; want %q", b, got, moves)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// repliesTo maps each player mail's Message-ID to the recipients of the
// replies that arrived for it.
func repliesTo(t *testing.T, w *dovecotWorld) map[string][]string {
	answered := map[string][]string{}
	for _, r := range w.replies(t) {
		answered[r.InReplyTo] = append(answered[r.InReplyTo], r.To)
	}
	return answered
}

// interruptBacklog fills Dovecot with 200 move mails (20 boards of 10) and
// runs pbemd over them rounds times, each time calling interrupt at a random
// moment soon after it has begun. It returns the mails, the moves each
// board must end with, and how many mails were done after each round.
func interruptBacklog(t *testing.T, rounds int, interrupt func(p *proc, round int)) (*dovecotWorld, []moveMail, map[int][]string, []int) {
	w := newDovecotWorld(t, "")
	w.setIMAP(t, "batch: 10") // mark done often, so interruptions land between fetch, commit and move
	mails, want := backlog(t, w, 20, 10)
	deliverAll(t, w, mails)
	seed := time.Now().UnixNano()
	t.Logf("%d move mails; random seed %d", len(mails), seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	var progress []int
	for round := 0; round < rounds; round++ {
		p := startPbemd(t, []string{"PBEMD_IMAP_PASSWORD=" + serverPass}, "serve", "-config", w.config)
		// Wait until it has begun on the backlog (or a while, if nothing is left).
		deadline := time.Now().Add(time.Second)
		for time.Now().Before(deadline) && tryCounters(w.metrics)["mails_in"] == 0 {
			time.Sleep(time.Millisecond)
		}
		// The daemon drains some 500 mails a second here, in batches of
		// 10: within 40 ms it is mid-backlog, between a fetch, its commit
		// and its move.
		time.Sleep(time.Duration(rng.IntN(40)) * time.Millisecond)
		interrupt(p, round)
		progress = append(progress, len(w.mailbox(t, "pbem-done")))
	}
	return w, mails, want, progress
}

// finishBacklog runs pbemd until the backlog is handled and every reply
// sent, with a moment more for a duplicate reply to show up.
func finishBacklog(t *testing.T, w *dovecotWorld) {
	p := w.start(t)
	waitUntil(t, "the backlog handled and every reply sent", 60*time.Second, func() bool {
		c := counters(t, w.metrics)
		return len(w.mailbox(t, "INBOX")) == 0 && c["outbox_length"] == 0
	})
	time.Sleep(200 * time.Millisecond)
	p.stop()
}

// TestSIGTERMMidBacklog stops pbemd with SIGTERM while it works through a
// backlog of move mails, over and over. Each stop must be clean (exit 0,
// soon), and since a clean stop finishes or keeps what it began, every
// move is applied exactly once and every reply sent exactly once.
func TestSIGTERMMidBacklog(t *testing.T) {
	w, mails, want, progress := interruptBacklog(t, 6, func(p *proc, round int) {
		start := time.Now()
		p.stop() // SIGTERM; fails unless pbemd exits 0
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("round %d: pbemd took %v to stop on SIGTERM", round, d)
		}
	})
	t.Logf("mails done after each stop: %v", progress)
	finishBacklog(t, w)
	checkMoves(t, w, want)
	answered := repliesTo(t, w)
	for _, m := range mails {
		to := answered[m.msgID]
		slices.Sort(to)
		if !slices.Equal(to, []string{player("alice"), player("bob")}) {
			t.Errorf("move %s got replies to %q; want exactly one to alice and one to bob", m.msgID, to)
		}
	}
}

// TestKilledDaemonLMTP kills pbemd with SIGKILL at random moments while an
// MTA hands it a backlog of move mails over LMTP, one connection, each
// mail after the last was answered, and hands a mail again that got no
// answer, as Postfix does. Every mail answered 250 is committed, or sits
// in pbemd's spool until handled, so in the end every move is applied
// exactly once, in order, and gets its replies.
func TestKilledDaemonLMTP(t *testing.T) {
	lmtpAddr := testenv.FreeAddr(t)
	w := newDovecotWorld(t, "lmtp: "+lmtpAddr+"\n")
	mails, want := backlog(t, w, 20, 10)
	seed := time.Now().UnixNano()
	t.Logf("%d move mails; random seed %d", len(mails), seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	next, kills, mid := 0, 0, 0
	for next < len(mails) {
		p := w.start(t)
		l := dialUntil(t, lmtpAddr)
		// The kill comes at a random moment once the first mail of the
		// round was taken (it waits for a commit: the server is quiet).
		killed, going := make(chan struct{}), make(chan struct{})
		go func() {
			select {
			case <-going:
			case <-time.After(5 * time.Second):
			}
			time.Sleep(time.Duration(rng.IntN(60)) * time.Millisecond)
			p.kill()
			close(killed)
		}()
		before := next
		for next < len(mails) {
			if err := l.Deliver(mails[next].from, server, mails[next].mail()); err != nil {
				break // no answer: the MTA keeps the mail, and tries again
			}
			if next == before {
				close(going)
			}
			next++
		}
		<-killed
		l.Close()
		kills++
		if next > before && next < len(mails) {
			mid++
		}
	}
	t.Logf("%d kills, %d of them mid-backlog", kills, mid)
	if mid < 2 {
		t.Errorf("only %d kills hit the backlog half-done; the test shows little", mid)
	}
	p := w.start(t)
	waitUntil(t, "the spool handled and every reply sent", 60*time.Second, func() bool {
		answered := repliesTo(t, w)
		for _, m := range mails {
			if to := answered[m.msgID]; !slices.Contains(to, player("alice")) || !slices.Contains(to, player("bob")) {
				return false
			}
		}
		return true
	})
	p.stop()
	checkMoves(t, w, want)
}

// dialUntil connects to pbemd's LMTP listener, waiting for it to listen.
func dialUntil(t *testing.T, addr string) *dovecot.LMTP {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		l, err := dovecot.DialLMTPAt(addr)
		if err == nil {
			return l
		}
		if time.Now().After(deadline) {
			t.Fatalf("pbemd's LMTP at %s: %v", addr, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
