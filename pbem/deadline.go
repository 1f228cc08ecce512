package pbem

import (
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/clock"
	"github.com/pbemd/pbemd/store"
)

// sweepBatch is how many boards one transaction of the sweep handles, and
// sweepMails and sweepStep about how many mails it makes and how long it
// works at most (no further board is begun once either is reached): the
// mail path waits for one transaction at most, some milliseconds; the end
// of a game mails at most limits.watchers users beyond its audience, so a
// transaction holds some ten ends at most. Every transaction pays a commit
// of its own, so fewer and fuller ones make a shorter tick: at 512 mails
// rather than 64, a 20-second tick at a million games took 14 ms rather
// than 16 at the median, 30 rather than 39 at most, and a mail arriving
// meanwhile waited 29 ms rather than 21 at the 99th percentile. The time
// bound matters most after a start, when the reminders and forfeits due
// meanwhile go out in a burst of full steps: a mail waits for the step
// under way (yieldToMail) and its commit, and at a million games 3 ms
// rather than 10 brought the mails over 20 ms in the first seconds from
// 18 to 4 to 11 of 800.
const (
	sweepKeys  = 512 // deadline index keys read a transaction, asleep boards' included
	sweepBatch = 32
	sweepMails = 512
	sweepStep  = 3 * time.Millisecond
)

// deadline is when the sweep must next look at a board: its next reminder
// or its forfeit, or those of its open proposal, whichever comes first; for
// a board waiting for a player, when it lapses (lapseAt); zero for a board
// over. The store keeps it in its deadline
// index, so that the sweep reads the boards due and no other. A player on
// vacation moves his boards' clocks on; the sweep finds them due, sees the
// vacation and leaves them until his return or an hour (snoozeFor).
func deadline(rec *store.Game) time.Time {
	if at := lapseAt(rec); !at.IsZero() {
		return at
	}
	if rec.Over || len(rec.Seats) != 2 || rec.Seats[0] == "" || rec.Seats[1] == "" {
		return time.Time{}
	}
	days := model.DaysOf(rec)
	nag, forfeit := days.Nag, days.Forfeit
	since := model.TurnSince(rec)
	// Off-time and the zone of the player to move put his deadlines later:
	// the index keeps what they cannot come before (clock.Earliest).
	c := boardClock(rec)
	due := c.Off.Earliest(since, time.Duration(nag)*day)
	if rec.Nagged.After(since) {
		due = rec.Nagged.Add(time.Duration(nag) * day)
	}
	if end := c.Off.Earliest(since, time.Duration(forfeit)*day); end.Before(due) {
		due = end
	}
	if c.Kind == clock.Fischer && rec.ToMove >= 0 && rec.ToMove < 2 {
		bank := bankOf(rec, c, rec.Seats[rec.ToMove])
		due = c.Off.Earliest(since, bank)
		if !rec.Nagged.After(since) {
			due = c.Off.Earliest(since, fischerNag(bank))
		}
	}
	// An unanswered proposal has its own reminders and acceptance by
	// silence; the proposer's own clock stands meanwhile.
	if v := rec.Vote; v != nil {
		if v.Seat == rec.ToMove {
			due = time.Time{}
		}
		vote := v.At.Add(time.Duration(nag) * day)
		if v.Nagged.After(v.At) {
			vote = v.Nagged.Add(time.Duration(nag) * day)
		}
		if end := v.At.Add(time.Duration(forfeit) * day); end.Before(vote) {
			vote = end
		}
		due = earliest(due, vote)
	}
	return due
}
