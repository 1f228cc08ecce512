package pbem

import (
	"fmt"
	"strconv"
	"time"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// keepProcessed is how long the keys of handled mails are kept. A mail
// delivered again after that is handled again; moves are still safe from
// replays by their "#n" and by the turn order.
const keepProcessed = 90 * 24 * time.Hour

// Default days without a move before a reminder and before a forfeit; a
// board's --nagtime and --forfeittime override them.
const (
	defaultNagDays     = 7
	defaultForfeitDays = 21
)

// Sweep does the periodic work due at now: reminders to players who have
// not moved for their board's nag time, forfeits at its forfeit time, and
// forgetting the keys of mails handled long ago. The daemon runs it hourly;
// "pbemd sweep" runs it by hand.
func (s *Service) Sweep(now time.Time) error {
	_, err := s.SweepIDs(now)
	return err
}

// SweepIDs is Sweep that also returns the outbox ids of the mails it queued,
// for "pbemd sweep -print".
func (s *Service) SweepIDs(now time.Time) ([]uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []uint64
	var after []func()
	err := s.db.Update(func(tx *store.Tx) error {
		ids, after = nil, nil
		n, err := tx.PruneProcessed(now.Add(-keepProcessed))
		if err != nil {
			return err
		}
		if n > 0 {
			s.log.Info("sweep: forgot old mail keys", "count", n)
		}
		if n, err := tx.PruneCounters(now); err != nil {
			return err
		} else if n > 0 {
			s.log.Info("sweep: forgot expired limit counters", "count", n)
		}
		if n, err := tx.PruneReplyTokens(now); err != nil {
			return err
		} else if n > 0 {
			s.log.Info("sweep: forgot expired reply tokens", "count", n)
		}
		r := &request{s: s, tx: tx, now: now}
		if err := r.remind(); err != nil {
			return err
		}
		ids, err = r.queueReplies()
		after = r.after
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, f := range after {
		f()
	}
	return ids, nil
}

// boardDays are a board's nag and forfeit times.
func boardDays(rec *store.Game) (nag, forfeit int) {
	nag, forfeit = defaultNagDays, defaultForfeitDays
	if d, err := strconv.Atoi(rec.Extra["nagtime"]); err == nil && d > 0 {
		nag = d
	}
	if d, err := strconv.Atoi(rec.Extra["forfeittime"]); err == nil && d > 0 {
		forfeit = d
	}
	return nag, forfeit
}

// turnSince is when the player to move got the turn. Boards stored before
// the clock was kept fall back to their last move or creation.
func turnSince(rec *store.Game) time.Time {
	if !rec.TurnSince.IsZero() {
		return rec.TurnSince
	}
	if n := len(rec.Moves); n > 0 {
		return rec.Moves[n-1].At
	}
	return rec.Created
}

// remind sends the reminders and forfeits due on every running board.
//
// The clock of a board counts the time since its player to move got the
// turn, less the time he was on vacation. A player on vacation now is not
// reminded and does not forfeit. Reminders go at most once per nag time:
// after 7 and 14 days with the defaults, then the forfeit at 21.
func (r *request) remind() error {
	for _, g := range catalog.All() {
		var due []*store.Game
		err := r.tx.Games(g.Name(), func(rec *store.Game) error {
			nag, _ := boardDays(rec)
			late := r.now.Sub(turnSince(rec)) >= time.Duration(nag)*day ||
				rec.Vote != nil && r.now.Sub(rec.Vote.At) >= time.Duration(nag)*day
			if !rec.Over && len(rec.Seats) == 2 && rec.Seats[0] != "" && rec.Seats[1] != "" && late {
				due = append(due, rec)
			}
			return nil
		})
		if err != nil {
			return err
		}
		// Boards change only after the walk: bbolt must not be written
		// while a cursor runs over it.
		for _, rec := range due {
			if err := r.remindBoard(rec.Kind, rec.Board); err != nil {
				return err
			}
		}
	}
	return nil
}

// A wait is how long a player has kept a board waiting, with the board's
// reminder and forfeit times.
type wait struct {
	waited, nag, forfeit time.Duration
	forfeitDays          int
}

// silence is how long user id has kept board b waiting since a time, less
// his vacations; nil when he has gone or is away now (no reminder, no
// forfeit meanwhile).
func (r *request) silence(b *board, id string, since time.Time) (*wait, error) {
	u, err := r.tx.User(id)
	if errNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if _, away := onVacation(u, r.now); away {
		return nil, nil
	}
	nagDays, forfeitDays := boardDays(b.rec)
	return &wait{
		waited:      r.now.Sub(since) - awayBetween(u, since, r.now),
		nag:         time.Duration(nagDays) * day,
		forfeit:     time.Duration(forfeitDays) * day,
		forfeitDays: forfeitDays,
	}, nil
}

func (r *request) remindBoard(kind string, num int) error {
	b, err := r.loadBoard(kind, num)
	if err != nil {
		return err
	}
	if err := r.remindVote(b); err != nil {
		return err
	}
	id := b.toMove()
	since := turnSince(b.rec)
	w, err := r.silence(b, id, since)
	if w == nil || err != nil {
		return err
	}
	waited, nag, forfeit, forfeitDays := w.waited, w.nag, w.forfeit, w.forfeitDays
	if waited < nag {
		return nil // only the proposal was due
	}
	switch {
	case waited >= forfeit:
		seat := b.pos.ToMove()
		if !b.hasMoved(seat) {
			return r.withdraw(b, seat, nil, fmt.Sprintf("%s did not move for %d days.", id, forfeitDays))
		}
		b.end(r.now, rules.Win(1-seat, fmt.Sprintf("%s did not move for %d days", id, forfeitDays)))
		return r.saveAndAnnounce(b, nil, fmt.Sprintf("%s forfeits: no move for %d days.", id, forfeitDays))
	case waited >= nag && (b.rec.Nagged.Before(since) || r.now.Sub(b.rec.Nagged) >= nag):
		b.rec.Nagged = r.now
		if err := r.tx.PutGame(b.rec); err != nil {
			return err
		}
		deadline := r.now.Add(forfeit - waited)
		notice := fmt.Sprintf("Reminder: it has been %s's turn on %s board %d for %d days. Without a move by %s, %s forfeits the game. Away? Send \"vacation %s PASSWORD DAYS\".",
			id, b.game.Title(), b.rec.Board, int(waited/day), deadline.UTC().Format(timeFormat), id, id)
		return r.privateBoard(b, id, fmt.Sprintf("Nag: %s Board %d %s", b.game.Title(), b.rec.Board, id), notice)
	}
	return nil
}
