package pbem

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/populate"
)

// populate fills the harness's new store with the generator of "pbemd
// populate", at the harness's time and password cost.
func (h *harness) populate(o populate.Options) populate.Stats {
	h.t.Helper()
	o.HashCost, o.Now = h.svc.hashCost, h.svc.cfg.Now
	st, err := populate.Fill(h.db, h.svc, o)
	if err != nil {
		h.t.Fatal(err)
	}
	return st
}

// Long lists come a page at a time, each page saying how to ask for the
// next, and the pages together show every row once.
func TestPagedLists(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	st := h.populate(populate.Options{Games: 800, Players: 6, Seed: 3})
	rows := func(body string) []string {
		var out []string
		for _, l := range strings.Split(body, "\n") {
			if f := strings.Fields(l); len(f) > 2 && strings.Trim(f[0], "0123456789") == "" {
				out = append(out, f[0])
			}
		}
		return out
	}
	// every pages through a list and returns all its rows.
	every := func(subject string) []string {
		t.Helper()
		var all []string
		for p := 1; ; p++ {
			cmd := subject
			if p > 1 {
				cmd = fmt.Sprintf("%s page %d", subject, p)
			}
			r := one(t, h.send("carol@example.org", cmd, ""), "carol@example.org")
			got := rows(r.Body)
			if len(got) > pageRows {
				t.Fatalf("%s shows %d rows; want at most %d", cmd, len(got), pageRows)
			}
			all = append(all, got...)
			if !strings.Contains(r.Body, "More follow. For the next page send: ") {
				return all
			}
			if p > 100 {
				t.Fatalf("%s: no last page", subject)
			}
		}
	}
	unique := func(what string, rows []string, want int) {
		t.Helper()
		seen := map[string]bool{}
		for _, r := range rows {
			if seen[r] {
				t.Errorf("%s: %s shown twice", what, r)
			}
			seen[r] = true
		}
		if want >= 0 && len(rows) != want {
			t.Errorf("%s: %d rows in all; want %d", what, len(rows), want)
		}
	}
	finished, running := 0, 0
	for _, kind := range []string{"ultima", "tanbo", "taratibu", "tobit"} {
		fin := every(kind + " history")
		unique(kind+" history", fin, -1)
		finished += len(fin)
		act := every(kind + " games")
		unique(kind+" games", act, -1)
		running += len(act)
		if ranked := every(kind + " standings"); len(ranked) < 6 {
			t.Errorf("%s standings list %d players; want the 6 populated and any robot", kind, len(ranked))
		}
	}
	if finished != st.Finished || running != st.Running+st.Open {
		t.Errorf("history shows %d finished boards, games %d active; want %d and %d", finished, running, st.Finished, st.Running+st.Open)
	}
	mine := every("tanbo history p0000001")
	unique("a player's history", mine, -1)

	out := h.send("carol@example.org", "all show p0000001 all", "")
	if len(out) == 0 || !strings.Contains(out[len(out)-1].Body, "For the next page send: all show p0000001 all page 2") {
		t.Errorf("all show of a player with many boards does not page:\n%v", subjects(out))
	}
	n := 0
	for _, r := range out {
		n += strings.Count(r.Body, "Summary of ")
	}
	if n != allBoards || len(out) != allBoards+1 {
		t.Errorf("all show sends %d boards in %d mails a page; want %d, one a mail, and the note", n, len(out), allBoards)
	}
	errorReply(t, h.send("carol@example.org", "tanbo games page two", ""), "carol@example.org",
		`"two" is not a page number; write page 2 for the second page, and so on.`)
}

// The sweep works through the deadline index in short transactions: weeks
// later, every running board has forfeited, however many there are, and a
// second sweep finds nothing due.
func TestSweepReadsDeadlines(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	st := h.populate(populate.Options{Games: 300, Players: 30, Seed: 5})
	later := h.now.Add(60 * day)
	ids, err := h.svc.SweepIDs(later)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) < st.Running {
		t.Errorf("the sweep queued %d mails for %d running boards", len(ids), st.Running)
	}
	h.outbox()
	running := 0
	for _, kind := range []string{"ultima", "tanbo", "taratibu", "tobit"} {
		r := one(t, h.send("carol@example.org", kind+" games active page 1", ""), "carol@example.org")
		running += strings.Count(r.Body, "to move: ")
	}
	if running != 0 {
		t.Errorf("%d boards still running after 60 days", running)
	}
	if ids, err := h.svc.SweepIDs(later); err != nil || len(ids) != 0 {
		t.Errorf("a second sweep queued %d mails (err %v); want none", len(ids), err)
	}
}

// overdueBoards populates 300 games and returns the time 60 days later,
// when every running board has forfeited, with a Sweep bounded to 40
// mails a tick for the test.
func overdueBoards(t *testing.T) (*harness, time.Time) {
	t.Helper()
	n := tickMails
	t.Cleanup(func() { tickMails = n })
	tickMails = 40
	h := newHarness(t)
	h.populate(populate.Options{Games: 300, Players: 30, Seed: 5})
	return h, h.now.Add(60 * day)
}

// After a long stop the daemon's sweeps catch up a part at a time: each
// makes about tickMails mails, so that replies to players are not queued
// behind all of them; the sweeps that follow finish the work.
func TestSweepCatchesUpInParts(t *testing.T) {
	h, later := overdueBoards(t)
	var made []int // the mails of each sweep
	total := 0
	for len(made) < 100 {
		if err := h.svc.Sweep(later); err != nil {
			t.Fatal(err)
		}
		n := len(h.outbox())
		if n == 0 {
			break
		}
		made = append(made, n)
		total += n
	}
	if len(made) < 3 || made[0] > total/2 {
		t.Errorf("the sweeps made %v mails; want the work in parts, the first under half of it", made)
	}
	for _, kind := range []string{"ultima", "tanbo", "taratibu", "tobit"} {
		r := one(t, h.send("carol@example.org", kind+" games active page 1", ""), "carol@example.org")
		if n := strings.Count(r.Body, "to move: "); n != 0 {
			t.Errorf("%d %s boards still running after the sweeps", n, kind)
		}
	}
}

// Sweeps further apart may make more: one an hour after the last makes
// an hour's worth, so that a long sweep_interval does not fall behind.
func TestSweepBoundGrowsWithTheInterval(t *testing.T) {
	h, later := overdueBoards(t)
	if err := h.svc.Sweep(later); err != nil {
		t.Fatal(err)
	}
	first := len(h.outbox())
	if err := h.svc.Sweep(later.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	second := len(h.outbox())
	if ids, err := h.svc.SweepIDs(later.Add(time.Hour)); err != nil || len(ids) != 0 {
		t.Errorf("after a sweep an hour on, %d mails were still due (%v); the sweeps made %d and %d", len(ids), err, first, second)
	}
	if first > second {
		t.Errorf("the first sweep made %d mails, the one an hour later %d; want the first bounded", first, second)
	}
}

// A player's mail that comes while a sweep works through a backlog of
// reminders and forfeits waits for the sweep's step under way, not for
// the steps after it.
func TestSweepLetsMailGoFirst(t *testing.T) {
	h, later := overdueBoards(t)
	tickMails = 1000 // one sweep, many steps
	var steps, stepsAtMail atomic.Int32
	mailed := make(chan struct{})
	mail := h.mail("carol@example.org", "tanbo games", "")
	h.svc.stepped = func() {
		if steps.Add(1) != 1 {
			return
		}
		// In the first step: a mail comes and waits for the lock.
		go func() {
			defer close(mailed)
			if err := h.svc.Deliver(mail); err != nil {
				t.Error(err)
			}
			stepsAtMail.Store(steps.Load())
		}()
		for h.svc.waiting.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	if err := h.svc.Sweep(later); err != nil {
		t.Fatal(err)
	}
	<-mailed
	if n := steps.Load(); n < 3 {
		t.Fatalf("the sweep took %d steps; the test wants several", n)
	}
	if n := stepsAtMail.Load(); n != 1 {
		t.Errorf("the mail was answered after %d steps of the sweep; want after the one under way as it came", n)
	}
}
