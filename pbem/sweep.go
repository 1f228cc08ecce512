package pbem

import (
	"errors"
	"fmt"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/clock"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

// keepProcessed is how long the keys of handled mails are kept. A mail
// delivered again after that is handled again; moves are still safe from
// replays by their "#n" and by the turn order.
const keepProcessed = 90 * 24 * time.Hour

// pruneBatch is the most records one transaction of the sweep reads to
// forget old ones, so that it holds the mail path for milliseconds.
const pruneBatch = 1000

// Sweep does the periodic work due at now: reminders to players who have
// not moved for their board's nag time, forfeits at its forfeit time, and
// forgetting the keys of mails handled long ago. The daemon runs it every
// 20 seconds (sweep_interval).
//
// One Sweep makes about tickMails mails for each tickTime since the last
// (one tickTime's worth for the first), and leaves the boards still due
// for the next: after a stop of hours, the reminders and forfeits that
// piled up (tens of thousands of mails at a million games) go out over
// some minutes, and the replies to players' mails are not queued behind
// them all; sweeps an hour apart may still make an hour's mails.
func (s *Service) Sweep(now time.Time) error {
	s.mu.Lock()
	since := now.Sub(s.swept)
	if s.swept.IsZero() || since < tickTime {
		since = tickTime
	}
	s.swept = now
	s.mu.Unlock()
	_, err := s.sweep(now, tickMails*int(min(since/tickTime, 1000)))
	return err
}

// tickMails is about the most mails (recipients) a Sweep makes for each
// tickTime since the last; a Sweep stops at the first transaction that
// reaches its bound. A 20-second tick at a million games makes some 200.
// (A variable for the tests.)
var tickMails = 1000

// tickTime is the default sweep_interval.
const tickTime = 20 * time.Second

// SweepIDs does all that is due at now, however much, and returns the
// outbox ids of the mails it queued, for "pbemd sweep".
func (s *Service) SweepIDs(now time.Time) ([]uint64, error) {
	return s.sweep(now, 0)
}

// sweep does what is due at now, stopping once it has made most mails
// (no bound when most is 0), and returns the ids of the mails it queued.
//
// The sweep reads the store's deadline index, not the boards, and works in
// short transactions of a few boards each, taking the mail path's lock for
// one transaction at a time: mail is answered while a long sweep runs.
func (s *Service) sweep(now time.Time, most int) ([]uint64, error) {
	var ids []uint64
	// Expired limit counters (the counts of failed tries among them),
	// reply tokens, old mail keys and quarantined mails go a part of each
	// a transaction, each read in order of time: a flood of senders can
	// leave millions of counters. One transaction takes all the parts, so
	// that a tick pays one commit for them.
	prune := []struct {
		what string
		fn   func(*store.Tx) (int, error)
		done bool
		n    int
	}{
		{what: "expired limit counters", fn: func(tx *store.Tx) (int, error) { return tx.PruneCounters(now, pruneBatch) }},
		{what: "expired reply tokens", fn: func(tx *store.Tx) (int, error) { return tx.PruneReplyTokens(now, pruneBatch) }},
		{what: "old mail keys", fn: func(tx *store.Tx) (int, error) { return tx.PruneProcessed(now.Add(-keepProcessed), pruneBatch) }},
		{what: "accounts never used", fn: func(tx *store.Tx) (int, error) { return pruneUnused(tx, now, pruneBatch) }},
		{what: "old quarantined mails", fn: func(tx *store.Tx) (int, error) { return s.pruneQuarantine(tx, now) }},
		// An older pbemd kept the counts of failed tries as notes, for
		// ever: they are forgotten (a mail still failing counts afresh).
		{what: "notes of failed tries", fn: func(tx *store.Tx) (int, error) { return tx.DeleteNotes("failures:", pruneBatch) }},
	}
	s.mu.Lock()
	prunes := now.Sub(s.pruned) >= pruneEvery || now.Before(s.pruned)
	if prunes {
		s.pruned = now
	}
	s.mu.Unlock()
	for left := prunes; left; {
		_, err := s.sweepStep(now, &ids, func(tx *store.Tx, _ *request) (int, error) {
			left = false
			for i := range prune {
				p := &prune[i]
				if p.done {
					continue
				}
				n, err := p.fn(tx)
				if err != nil {
					return 0, err
				}
				p.n += n
				p.done = n < pruneBatch
				left = left || !p.done
			}
			return 0, nil
		})
		if err != nil {
			return ids, err
		}
	}
	for _, p := range prune {
		if p.n > 0 {
			s.log.Debug("sweep: forgot "+p.what, "count", p.n) // every few minutes: not worth a line at info
		}
	}
	if err := s.sweepDigests(now, &ids); err != nil {
		return ids, err
	}
	s.sweepTournaments(now, &ids)
	// Boards due that stay due (their player is away) are passed over,
	// and not read again until they wake. A board that cannot be swept
	// (its record unreadable, a panic) is logged and passed over too, so
	// that it stops no other board.
	s.mu.Lock()
	s.snoozed.forget(now)
	s.mu.Unlock()
	var after []byte // the index mark of the last board passed
	made := 0        // recipients of the mails made
	for {
		var more bool
		var failed *store.Due
		from := after
		n, err := s.sweepStep(now, &ids, func(tx *store.Tx, r *request) (int, error) {
			// A store may run the step again (etcd, after a conflict):
			// from where this step began, not where the first run ended.
			after, failed = from, nil
			began := time.Now()
			due := tx.DueBoards(now, after, sweepKeys)
			more = len(due) == sweepKeys
			read := 0
			for _, d := range due {
				if s.snoozed.asleep(d.GameRef, now) {
					after = d.Mark
					continue
				}
				if read == sweepBatch || len(r.parts) >= sweepMails || read > 0 && time.Since(began) > sweepStep {
					// The boards left are still due: the next step
					// finds them first.
					more = true
					break
				}
				read++
				replies := len(r.parts)
				var wake time.Time
				err := safely(func() (err error) {
					wake, err = r.remindBoard(d.Kind, d.Board)
					return err
				})
				if err != nil {
					failed = &d
					return 0, err
				}
				if len(r.parts) == replies {
					// Nothing was due after all: the board stays due.
					after = d.Mark
					s.snoozed.snooze(d.GameRef, now, wake)
				}
			}
			return len(r.parts), nil
		})
		if failed != nil {
			// The step is rolled back; the next one passes the board.
			s.mu.Lock()
			ok := s.snoozed.snooze(failed.GameRef, now, time.Time{})
			s.mu.Unlock()
			if ok {
				s.log.Error("sweep: board not swept; tried again in an hour", "game", failed.Kind, "board", failed.Board, "err", err)
				continue
			}
		}
		if err != nil {
			return ids, err
		}
		made += n
		if !more {
			return ids, nil
		}
		if most > 0 && made >= most {
			s.log.Info("sweep: the rest of what is due waits for the next sweep", "mails", made)
			return ids, nil
		}
	}
}

// snoozeFor is how long at most the sweep leaves a board that it found
// due with nothing to do: its player is away (the index cannot know his
// vacation), or a vacation held his clock back. Such a board is read again
// when its next reminder, forfeit or the player's return is due, and at
// least once an hour: a vacation ended early makes a reminder or forfeit at
// most that much late.
const snoozeFor = time.Hour

// maxSnoozed bounds the boards the service remembers as snoozed; past it,
// more boards are read at every tick instead, and a board that cannot be
// swept stops the tick.
const maxSnoozed = 100000

// snoozed are the boards the sweep leaves until a time.
type snoozed map[store.GameRef]time.Time

func (z snoozed) asleep(ref store.GameRef, now time.Time) bool {
	until, ok := z[ref]
	return ok && now.Before(until)
}

// snooze leaves the board until wake (zero: unknown), an hour at most,
// and reports false when too many boards sleep already.
func (z snoozed) snooze(ref store.GameRef, now, wake time.Time) bool {
	d := snoozeFor
	if !wake.IsZero() {
		d = min(d, wake.Sub(now))
	}
	if len(z) >= maxSnoozed {
		return false
	}
	z[ref] = now.Add(d) // now's monotonic clock: a step back of the wall clock sleeps no longer
	return true
}

// forget drops the boards awake at now, so that a board that moved on
// leaves no entry behind.
func (z snoozed) forget(now time.Time) {
	for ref, until := range z {
		if !now.Before(until) {
			delete(z, ref)
		}
	}
}

// pruneEvery is how often the sweep forgets what expired: what reads an
// expired record checks its time itself, so it need not go at once, and a
// tick that prunes pays a commit more.
const pruneEvery = 10 * time.Minute

// errUnchanged rolls back a step of the sweep that changed nothing: a
// tick with nothing due costs no commit and no disk sync.
var errUnchanged = errors.New("nothing changed")

// sweepStep runs one short transaction of the sweep under the mail path's
// lock and queues the mails it made.
func (s *Service) sweepStep(now time.Time, ids *[]uint64, fn func(*store.Tx, *request) (int, error)) (int, error) {
	s.yieldToMail()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stepped != nil {
		s.stepped()
	}
	var n int
	var after []func()
	var queued []uint64
	err := s.db.Update(func(tx *store.Tx) error {
		queued, after = nil, nil
		r := &request{s: s, tx: tx, now: now}
		var err error
		if n, err = fn(tx, r); err != nil {
			return err
		}
		if err := r.compose(); err != nil {
			return err
		}
		for _, out := range r.out {
			if err := tx.Enqueue(out); err != nil {
				return err
			}
			queued = append(queued, out.ID)
		}
		after = r.after
		if !tx.Changed() {
			return errUnchanged
		}
		return nil
	})
	if err != nil && !errors.Is(err, errUnchanged) {
		return 0, err
	}
	*ids = append(*ids, queued...)
	for _, f := range after {
		f()
	}
	return n, nil
}

// yieldMost is how long at most a step of the sweep waits for the mails
// before it: under a flood of mail the sweep still goes on, a step at
// least this often.
const yieldMost = 250 * time.Millisecond

// yieldToMail waits, before a step of the sweep, while mails wait for the
// mail path's lock, up to yieldMost. The sweep's work can wait some
// milliseconds and a player's mail is answered first: after a start, the
// reminders and forfeits due meanwhile go out in a burst of steps, and
// without this a mail arriving then waited for several of them (a mutex
// lets the goroutine that unlocks it take it again first).
func (s *Service) yieldToMail() {
	for deadline := time.Now().Add(yieldMost); s.waiting.Load() > 0 && time.Now().Before(deadline); {
		time.Sleep(200 * time.Microsecond)
	}
}

// A wait is how long a player has kept a board waiting, with the board's
// reminder and forfeit times.
type wait struct {
	waited, nag, forfeit time.Duration
	forfeitDays          int
	back                 time.Time // set when the player is away now: his return
	user                 *store.User
	since                time.Time
}

// wake is when this clock may next have something due, once nothing was
// at now: its reminder (repeated a nag time after the last, nagged) or its
// forfeit, or the player's return from his vacation.
func (w *wait) wake(now, nagged time.Time) time.Time {
	if !w.back.IsZero() {
		return w.back
	}
	at := now.Add(w.forfeit - w.waited)
	nag := now.Add(w.nag - w.waited)
	if w.waited >= w.nag {
		nag = nagged.Add(w.nag)
	}
	if nag.Before(at) {
		at = nag
	}
	return at
}

// silence is how long user id has kept board b waiting since a time, less
// his vacations; nil when he has gone. A player away now has only back
// set: no reminder, no forfeit meanwhile.
func (r *request) silence(b *board, id string, since time.Time) (*wait, error) {
	u, err := r.tx.User(id)
	if errNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if b.rec.Extra[noVacationKey] != "" {
		// A tournament that allows no vacation: its clocks run through
		// them, and no day of the pool is taken (remindBoard).
		away := *u
		away.Vacations = nil
		u = &away
	} else if v, away := onVacation(u, r.now); away {
		return &wait{back: v.Until}, nil
	}
	days := model.DaysOf(b.rec)
	return &wait{
		waited:      used(b.rec, u, since, r.now),
		nag:         time.Duration(days.Nag) * day,
		forfeit:     time.Duration(days.Forfeit) * day,
		forfeitDays: days.Forfeit,
		user:        u,
		since:       since,
	}, nil
}

// remindBoard sends the reminders (of a move, of an unanswered proposal)
// and the forfeit due on a board. When nothing was due, it returns when
// something may be (zero when it cannot tell): the deadline index counts
// no vacation, so a board it finds due can have nothing due.
//
// The clock of a board counts the time since its player to move got the
// turn, less the time he was on vacation. A player on vacation now is not
// reminded and does not forfeit. Reminders go at most once per nag time:
// after 7 and 14 days with the defaults, then the forfeit at 21.
func (r *request) remindBoard(kind string, num int) (time.Time, error) {
	b, err := r.loadBoard(kind, num)
	if err != nil {
		return time.Time{}, err
	}
	if at := b.lapses(); !b.rec.Over && !at.IsZero() {
		if r.now.Before(at) {
			return at, nil
		}
		return time.Time{}, r.lapse(b)
	}
	if b.rec.Over || b.open() {
		return time.Time{}, nil
	}
	vote, accepted, err := r.remindVote(b)
	if accepted || err != nil {
		return time.Time{}, err
	}
	if v := b.rec.Vote; v != nil && v.Seat == b.pos.ToMove() {
		// The proposer's clock stands while his proposal is open.
		return vote, nil
	}
	id := b.toMove()
	since := model.TurnSince(b.rec)
	w, err := r.silence(b, id, since)
	if w == nil || err != nil {
		return time.Time{}, err
	}
	if !w.back.IsZero() {
		return earliest(vote, w.back), nil
	}
	// A Fischer clock forfeits when the mover's bank is spent, and
	// reminds him once a turn, when two days of it are left (or half).
	c := boardClock(b.rec)
	fischer := c.Kind == clock.Fischer
	outOfTime := fmt.Sprintf("%s did not move for %d days", id, w.forfeitDays)
	if fischer {
		w.forfeit = bankOf(b.rec, c, id)
		w.nag = fischerNag(w.forfeit)
		outOfTime = fmt.Sprintf("%s ran out of time (a bank of %s)", id, clock.FormatDuration(w.forfeit))
	}
	waited, nag, forfeit := w.waited, w.nag, w.forfeit
	switch {
	case waited >= forfeit:
		if b.rec.Extra[noVacationKey] == "" { // a tournament may allow no vacation, the pool's neither
			if until, err := r.autoVacation(b, w.user); err != nil || !until.IsZero() {
				return until, err
			}
		}
		if b.rec.Vote != nil {
			// The other's proposal is open: the silent player accepts it.
			return time.Time{}, r.acceptSilently(b, id, w.forfeitDays)
		}
		seat := b.pos.ToMove()
		if !b.hasMoved(seat) {
			return time.Time{}, r.withdraw(b, seat, nil, outOfTime+".")
		}
		b.end(r.now, rules.Win(1-seat, outOfTime))
		if fischer {
			return time.Time{}, r.saveAndAnnounce(b, nil, r.say("%s forfeits: out of time, a bank of %s spent.", id, clock.FormatDuration(w.forfeit)))
		}
		return time.Time{}, r.saveAndAnnounce(b, nil, r.say("%s forfeits: no move for %d days.", id, w.forfeitDays))
	case waited >= nag && (b.rec.Nagged.Before(since) || !fischer && r.now.Sub(b.rec.Nagged) >= nag):
		b.rec.Nagged = r.now
		if err := r.tx.PutGame(b.rec); err != nil {
			return time.Time{}, err
		}
		then := templates.Text{Format: "%s forfeits the game", Args: []any{id}}
		if !b.hasMoved(b.pos.ToMove()) {
			then = templates.Text{Format: "the board is withdrawn, unrated, as %s has not played on it yet", Args: []any{id}}
		}
		kept := templates.Text{Format: "for %d days", Args: []any{int(waited / day)}}
		if fischer {
			kept = templates.Text{Format: "and %s of %s's bank is left", Args: []any{clock.FormatDuration(forfeit - waited), id}}
		}
		notice := r.say("Reminder: it has been %s's turn on %s board %d %s. Without a move by %s, %s. Away? Send \"vacation %s PASSWORD DAYS\".",
			id, b.game.Title(), b.rec.Board, kept, runsOut(b.rec, w.user, w.since).UTC().Format(timeFormat), then, id)
		return time.Time{}, r.nag(b, id, notice)
	}
	if fischer && !b.rec.Nagged.Before(since) {
		return earliest(vote, runsOut(b.rec, w.user, w.since)), nil
	}
	return earliest(vote, w.wake(r.now, b.rec.Nagged)), nil
}

// fischerNag is how much of a Fischer bank a turn spends before its
// reminder: all but two days, or half of a bank under four days.
func fischerNag(bank time.Duration) time.Duration {
	return bank - min(2*day, bank/2)
}

// earliest is the earlier of two times, a zero time counting as none.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}
