package pbem

import (
	"fmt"
	"sync"
	"time"
)

// limiter counts, per sender address, the mails and wrong passwords of the
// current window. A sender over either limit gets one warning and is then
// ignored until the window ends: a flood or a password guesser costs the
// server one reply, and a mail loop dies out.
type limiter struct {
	maxMails, maxBad int
	window           time.Duration

	mu      sync.Mutex
	senders map[string]*senderCount
}

type senderCount struct {
	start   time.Time // when the window began
	mails   int
	bad     int
	warned  bool
	blocked time.Time // ignored until then
}

func newLimiter(maxMails, maxBad int, window time.Duration) *limiter {
	if maxMails <= 0 {
		maxMails = 60
	}
	if maxBad <= 0 {
		maxBad = 10
	}
	if window <= 0 {
		window = time.Hour
	}
	return &limiter{maxMails: maxMails, maxBad: maxBad, window: window, senders: map[string]*senderCount{}}
}

// count returns the sender's counts, starting a new window when the old one
// has passed.
func (l *limiter) count(sender string, now time.Time) *senderCount {
	c := l.senders[sender]
	if c == nil || now.Sub(c.start) >= l.window && !now.Before(c.blocked) {
		if len(l.senders) > 100000 {
			clear(l.senders)
		}
		c = &senderCount{start: now}
		l.senders[sender] = c
	}
	return c
}

// mail counts one command of sender. blocked says to ignore it; warning is
// the text of the one reply the first ignored command gets, "" after that.
func (l *limiter) mail(sender string, now time.Time) (blocked bool, warning string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.count(sender, now)
	c.mails++
	if !now.Before(c.blocked) && c.mails <= l.maxMails && c.bad < l.maxBad {
		return false, ""
	}
	if c.blocked.IsZero() {
		c.blocked = c.start.Add(l.window)
	}
	if c.warned {
		return true, ""
	}
	c.warned = true
	why := fmt.Sprintf("more than %d mails", l.maxMails)
	if c.bad >= l.maxBad {
		why = fmt.Sprintf("%d wrong passwords", c.bad)
	}
	return true, fmt.Sprintf("You sent %s within %s. Mails from %s are ignored until %s; this is the only notice.\n",
		why, l.window, sender, c.blocked.UTC().Format(timeFormat))
}

// badPassword counts a wrong password of sender.
func (l *limiter) badPassword(sender string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.count(sender, now).bad++
}
