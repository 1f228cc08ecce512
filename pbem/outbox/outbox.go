// Package outbox sends the replies that the service has committed to the
// store's outbox. A reply leaves the outbox only once a server has accepted
// it, so a crash, a lost connection or a refusing server never loses one;
// at worst a reply is sent twice (after a crash between the server's
// acceptance and the removal).
//
// Failures are of two kinds. A temporary one (a 4xx reply, a network or
// TLS error) defers the mail with a wait that doubles from RetryMin up to
// RetryMax and pauses sending for as long. A permanent refusal (a 5xx reply
// to MAIL, RCPT or DATA of this mail) would, in an MTA, produce a bounce; a
// game server has nobody to bounce to, and a reply must never silently
// vanish, so the mail stays in the outbox with the server's answer as
// LastError, is logged at level ERROR, counted, and tried again after
// FailedRetry (hours). An operator sees it in the outbox length and the
// log and can fix the address or the server.
package outbox

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/pbemd/pbemd/store"
)

// Queue is the outbox in the store (*store.DB).
type Queue interface {
	Pending(now time.Time, max int) ([]store.Outgoing, error)
	Sent(ids ...uint64) error
	Defer(id uint64, next time.Time, reason string) error
}

// Transport hands one mail to a server.
type Transport interface {
	// Send delivers data to the envelope recipients to. An error wrapping
	// a *RejectedError is a permanent refusal of this mail; any other
	// error is temporary.
	Send(ctx context.Context, from string, to []string, data []byte) error
	// Close ends any connection kept open between mails. Send may be
	// called again afterwards.
	Close() error
}

// RejectedError is a permanent refusal of one mail by the server.
type RejectedError struct {
	Err error
}

func (e *RejectedError) Error() string { return "refused permanently: " + e.Err.Error() }
func (e *RejectedError) Unwrap() error { return e.Err }

// Options tune a Sender. Zero values take the defaults noted.
type Options struct {
	RetryMin    time.Duration // first wait after a temporary failure; default 30s
	RetryMax    time.Duration // longest wait after temporary failures; default 1h
	FailedRetry time.Duration // wait after a permanent refusal; default 6h
	// Tick is how often the outbox is looked at for deferred mail that
	// has become due; default 1s. New mail is sent at once after Kick.
	Tick   time.Duration
	Logger *slog.Logger     // default: slog.Default()
	Now    func() time.Time // default: time.Now

	// Called after each mail accepted, each failure, each permanent
	// refusal; for counters. May be nil.
	OnSent, OnFailure, OnRejected func()
}

// A Sender drains a Queue through a Transport.
type Sender struct {
	q    Queue
	t    Transport
	opts Options
	log  *slog.Logger
	kick chan struct{}

	mu       sync.Mutex
	failures int       // consecutive temporary failures
	holdTill time.Time // no new pass before this, after a temporary failure
}

// New returns a Sender; Run starts it.
func New(q Queue, t Transport, opts Options) *Sender {
	if opts.RetryMin <= 0 {
		opts.RetryMin = 30 * time.Second
	}
	if opts.RetryMax < opts.RetryMin {
		opts.RetryMax = max(time.Hour, opts.RetryMin)
	}
	if opts.FailedRetry <= 0 {
		opts.FailedRetry = 6 * time.Hour
	}
	if opts.Tick <= 0 {
		opts.Tick = time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Sender{q: q, t: t, opts: opts, log: log, kick: make(chan struct{}, 1)}
}

// Kick tells the Sender that new mail is waiting. It never blocks.
func (s *Sender) Kick() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// Run sends until ctx is done. A mail being sent when ctx ends is finished
// first (or left in the outbox).
func (s *Sender) Run(ctx context.Context) error {
	defer s.t.Close()
	tick := time.NewTicker(s.opts.Tick)
	defer tick.Stop()
	for {
		if wait := s.hold(); wait > 0 {
			s.log.Debug("outbox paused after a failure", "for", wait.Round(time.Millisecond))
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(wait):
			}
		}
		s.Drain(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-s.kick:
		case <-tick.C:
		}
	}
}

func (s *Sender) hold() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.holdTill.Sub(s.opts.Now())
}

// Drain sends every due mail once, stopping early at a temporary failure
// (the server is likely down, and the others would fail the same way). It
// returns how many mails were accepted. The mails the server accepted leave
// the outbox together after each batch, in one transaction; a crash before
// that sends them again, which beats losing them.
func (s *Sender) Drain(ctx context.Context) int {
	sent := 0
	defer s.t.Close() // no idle connection left open between passes
	for ctx.Err() == nil {
		batch, err := s.q.Pending(s.opts.Now(), 64)
		if err != nil {
			s.log.Error("outbox cannot be read", "err", err)
			s.failed()
			return sent
		}
		if len(batch) == 0 {
			return sent
		}
		var accepted []uint64
		goOn := true
		for i := 0; i < len(batch) && goOn && ctx.Err() == nil; i++ {
			var ok bool
			ok, goOn = s.send(ctx, &batch[i])
			if ok {
				accepted = append(accepted, batch[i].ID)
			}
		}
		if !s.sent(accepted) || !goOn {
			return sent + len(accepted)
		}
		sent += len(accepted)
	}
	return sent
}

// sent takes the accepted mails out of the outbox and reports whether that
// worked.
func (s *Sender) sent(ids []uint64) bool {
	if err := s.q.Sent(ids...); err != nil {
		// Accepted but still queued: they will go out a second time,
		// which beats losing them.
		s.log.Error("replies sent but not removed from the outbox", "count", len(ids), "err", err)
		s.failed()
		return false
	}
	for range ids {
		call(s.opts.OnSent)
	}
	return true
}

// send tries one mail and records the outcome. It reports whether the
// server accepted the mail and whether the pass may go on.
func (s *Sender) send(ctx context.Context, m *store.Outgoing) (accepted, goOn bool) {
	err := s.t.Send(ctx, m.From, m.To, m.Data)
	now := s.opts.Now()
	if err == nil {
		s.mu.Lock()
		s.failures = 0
		s.mu.Unlock()
		s.log.Debug("reply sent", "id", m.ID, "to", m.To)
		return true, true
	}
	var rej *RejectedError
	if errors.As(err, &rej) {
		s.log.Error("reply refused permanently; kept in the outbox", "id", m.ID, "to", m.To,
			"attempts", m.Attempts+1, "retry_in", s.opts.FailedRetry, "err", err)
		if derr := s.q.Defer(m.ID, now.Add(s.opts.FailedRetry), err.Error()); derr != nil {
			s.log.Error("outbox cannot be written", "err", derr)
			s.failed()
			return false, false
		}
		call(s.opts.OnRejected)
		return false, true
	}
	if ctx.Err() != nil {
		return false, false // stopped mid-send: the mail is still due, nothing to record
	}
	wait := Backoff(s.opts.RetryMin, s.opts.RetryMax, m.Attempts)
	s.log.Warn("reply not sent; will retry", "id", m.ID, "to", m.To, "attempts", m.Attempts+1,
		"retry_in", wait, "err", err)
	if derr := s.q.Defer(m.ID, now.Add(wait), err.Error()); derr != nil {
		s.log.Error("outbox cannot be written", "err", derr)
	}
	s.failed()
	return false, false
}

// failed records a temporary failure and pauses sending.
func (s *Sender) failed() {
	call(s.opts.OnFailure)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.holdTill = s.opts.Now().Add(Backoff(s.opts.RetryMin, s.opts.RetryMax, s.failures))
	s.failures++
}

func call(f func()) {
	if f != nil {
		f()
	}
}

// Backoff returns lo doubled n times, capped at hi.
func Backoff(lo, hi time.Duration, n int) time.Duration {
	d := lo
	for i := 0; i < n && d < hi; i++ {
		d *= 2
	}
	return clamp(d, lo, hi)
}

func clamp(d, lo, hi time.Duration) time.Duration {
	if d < lo {
		return lo
	}
	if d > hi {
		return hi
	}
	return d
}
