// Package outbox sends the replies that the service has committed to the
// store's outbox, through a Transport: SMTP submission, the embedded mail
// server, or an mbox on standard output. A reply leaves the outbox only
// once the transport has accepted it, so a crash, a lost connection or a
// refusing server never loses one; at worst a reply is sent twice (after a
// crash between the acceptance and the removal).
//
// Each reply has its own retry schedule, kept with it in the store, and a
// failing reply never delays another. Failures are of three kinds:
//
//   - The connection failed (cannot connect, greeting, TLS or login failed,
//     connection lost; a *ConnectionError): no reply is to blame, so
//     sending pauses, with a wait that doubles from RetryMin up to
//     RetryMax, and resumes where it stopped. Only a connection lost in
//     the middle of a reply counts as an attempt of that reply, which then
//     waits until the others have had their turn.
//   - The reply was refused for now (a 4xx reply): it is tried again after
//     a wait of its own that doubles from RetryMin up to RetryMax, while
//     the others go on. Once its first failure is GiveUpAfter old (5 days
//     by default, as MTAs keep mail) it is given up.
//   - The reply can never be sent as it is (a 5xx reply, or an address the
//     client cannot send to this server, such as an internationalized one
//     without SMTPUTF8; a *RejectedError): it is given up at once.
//
// A reply given up is moved from the outbox to the store's failed mail
// with the reason (store.DB.Failed lists them), logged at level ERROR and
// counted; it is never silently dropped. A game server has nobody to
// bounce to. The store keeps the last store.KeepFailed of them.
//
// A mail in copies (store.Outgoing.ToAt: a game's end to its notifiers,
// composed once) goes to each recipient in a copy of his own, whose To
// names him alone, one after the other, and each outcome is that
// recipient's: one refused for good is given up alone (his copy kept in
// the failed mail), those refused for now stay in the mail for its retry,
// and those served leave it, every batch of 64 copies, so that neither a
// retry nor a crash sends them more than a crash after a batch of single
// replies would. A stop in the middle leaves the recipients not yet served.
package outbox

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/store"
)

// Queue is the outbox in the store (*store.DB).
type Queue interface {
	Pending(now time.Time, after uint64, max int) ([]store.Outgoing, error)
	Mails(ids ...uint64) ([]store.Outgoing, error)
	Sent(ids ...uint64) error
	SentTo(id uint64, to ...string) error
	Defer(id uint64, failed, next time.Time, reason string) error
	GiveUp(id uint64, at time.Time, reason string) error
	GiveUpTo(id uint64, to string, at time.Time, reason string) error
}

// Transport hands one mail to a server (or a file). Its errors say what
// kind of failure it was: a *ConnectionError pauses sending, a
// *RejectedError gives the mail up, any other error is a temporary
// failure of this mail alone.
type Transport interface {
	Send(ctx context.Context, from string, to []string, data []byte) error
	// Close ends any connection kept open between mails. Send may be
	// called again afterwards.
	Close() error
}

// RejectedError is a permanent failure of one mail.
type RejectedError struct {
	Err error
}

func (e *RejectedError) Error() string { return "refused permanently: " + e.Err.Error() }
func (e *RejectedError) Unwrap() error { return e.Err }

// ConnectionError is a failure of the way to the server, not of a mail.
type ConnectionError struct {
	Err error
	// InMail is set when the connection was lost during the mail, which
	// may be the mail's fault (a server that drops every connection on
	// it): the attempt then counts for the mail too.
	InMail bool
}

func (e *ConnectionError) Error() string { return e.Err.Error() }
func (e *ConnectionError) Unwrap() error { return e.Err }

// Options tune a Sender. Zero values take the defaults noted.
type Options struct {
	RetryMin time.Duration // first wait after a failure; default 30s
	RetryMax time.Duration // longest wait after failures; default 1h
	// GiveUpAfter is how long after its first failure a reply that keeps
	// failing temporarily is given up; default 5 days.
	GiveUpAfter time.Duration
	// Tick is how often the outbox is looked at for deferred mail that
	// has become due; default 1s. New mail is sent at once after Kick.
	Tick   time.Duration
	Logger *slog.Logger     // default: slog.Default()
	Now    func() time.Time // default: time.Now

	// Counters; each may be nil. OnSent is called for each mail
	// accepted, OnFailure for each failed attempt or lost connection,
	// OnGiveUp for each mail given up.
	OnSent, OnFailure, OnGiveUp func()
}

// DefaultGiveUpAfter is how long a reply may keep failing temporarily.
const DefaultGiveUpAfter = 5 * 24 * time.Hour

// batchSize is how many mails a pass reads from the store at once, and
// how many copies at most are accepted before they leave the outbox.
const batchSize = 64

// A Sender drains a Queue through a Transport.
type Sender struct {
	q    Queue
	t    Transport
	opts Options
	log  *slog.Logger
	kick chan struct{}

	mu       sync.Mutex
	failures int       // consecutive connection failures
	holdTill time.Time // no new pass before this, after a connection failure
}

// New returns a Sender; Run starts it.
func New(q Queue, t Transport, opts Options) *Sender {
	if opts.RetryMin <= 0 {
		opts.RetryMin = 30 * time.Second
	}
	if opts.RetryMax < opts.RetryMin {
		opts.RetryMax = max(time.Hour, opts.RetryMin)
	}
	if opts.GiveUpAfter <= 0 {
		opts.GiveUpAfter = DefaultGiveUpAfter
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
			s.log.Debug("outbox paused after a connection failure", "for", wait.Round(time.Millisecond))
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil
			case <-t.C:
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

// Drain tries every due mail once, oldest first, and returns how many were
// accepted (a mail in copies counts each copy). It stops early only when
// the connection fails. The mails accepted leave the outbox together after
// each batch, or each batchSize copies, in one transaction; a crash before
// that sends them again, which beats losing them.
func (s *Sender) Drain(ctx context.Context) int {
	defer s.t.Close() // no idle connection left open between passes
	sent := 0
	var after uint64
	for ctx.Err() == nil {
		batch, err := s.q.Pending(s.opts.Now(), after, batchSize)
		if err != nil {
			s.log.Error("outbox cannot be read", "err", err)
			s.paused()
			return sent
		}
		if len(batch) == 0 {
			return sent
		}
		after = batch[len(batch)-1].ID
		n, err := s.attempt(ctx, batch)
		sent += n
		if err != nil {
			return sent
		}
	}
	return sent
}

// Send tries the mails with the ids once, in that order, whether due or
// not, and returns how many were accepted. It is "pbemd deliver -print":
// the replies of one mail, written out at once. The error is that of a
// failed connection (or store), after which the rest stays queued.
func (s *Sender) Send(ctx context.Context, ids ...uint64) (int, error) {
	defer s.t.Close()
	mails, err := s.q.Mails(ids...)
	if err != nil {
		return 0, err
	}
	var errConn error
	sent := 0
	for len(mails) > 0 && errConn == nil {
		batch := mails[:min(len(mails), batchSize)]
		mails = mails[len(batch):]
		var n int
		n, errConn = s.attempt(ctx, batch)
		sent += n
	}
	return sent, errConn
}

// attempt tries the mails in order, records each outcome, and takes what
// was accepted out of the outbox. It stops at a connection failure, a
// store failure or the end of ctx, and returns that error, with how many
// mails (copies) were accepted.
func (s *Sender) attempt(ctx context.Context, batch []store.Outgoing) (int, error) {
	acc := &accepted{}
	var stop error
	for i := range batch {
		if stop = ctx.Err(); stop != nil {
			break
		}
		if stop = s.send(ctx, &batch[i], acc); stop != nil {
			break
		}
	}
	if err := s.record(acc); err != nil {
		return acc.sent, err
	}
	return acc.sent, stop
}

// accepted is what the transport has accepted and the outbox still holds:
// whole mails, and copies of the mail in copies being sent. It is written
// to the outbox (record) once it counts batchSize copies, at the end of a
// batch, and before a failure of a mail in copies is: a crash resends at
// most that many, as a crash before the removal of a batch always did.
type accepted struct {
	mails  []uint64 // mails all of whose copies were accepted
	part   uint64   // a mail in copies some of whose copies were accepted
	partTo []string // the recipients of those copies
	n      int      // copies accepted and not yet recorded
	sent   int      // copies accepted and recorded
}

// record takes what acc holds out of the outbox, in one transaction for
// the whole mails and one for the copies of a mail in copies, and counts
// it sent. A non-nil error means the store cannot be written.
func (s *Sender) record(acc *accepted) error {
	var err error
	if len(acc.mails) > 0 {
		err = s.q.Sent(acc.mails...)
	}
	if err == nil && acc.part != 0 {
		err = s.q.SentTo(acc.part, acc.partTo...)
	}
	if err != nil {
		// Accepted but still queued: they will go out a second time,
		// which beats losing them.
		s.log.Error("replies sent but not removed from the outbox", "count", acc.n, "err", err)
		s.paused()
		return err
	}
	for range acc.n {
		call(s.opts.OnSent)
	}
	acc.sent += acc.n
	acc.mails, acc.part, acc.partTo, acc.n = nil, 0, nil, 0
	return nil
}

// send tries one mail and records the outcome. It returns an error when
// sending must stop: the connection failed, ctx ended or the store cannot
// be written.
func (s *Sender) send(ctx context.Context, m *store.Outgoing, acc *accepted) error {
	if m.ToAt > 0 {
		return s.sendCopies(ctx, m, acc)
	}
	err := s.t.Send(ctx, m.From, m.To, m.Data)
	if err == nil {
		s.connected()
		s.log.Debug("reply sent", "id", m.ID, "to", m.To)
		return s.done(acc, m.ID, 1)
	}
	if ctx.Err() != nil {
		return ctx.Err() // stopped mid-send: the mail is still due, nothing to record
	}
	now := s.opts.Now()
	switch refused, ce := s.failure(err); {
	case refused:
		return s.giveUp(m, now, "refused permanently", err)
	case ce != nil:
		return s.connectionFailed(m, now, err, ce)
	default:
		call(s.opts.OnFailure)
		return s.retry(m, now, err, now)
	}
}

// failure tells what an error of Send is (see Transport): a permanent
// refusal, a failed connection (ce), or else a temporary refusal of the
// mail alone. Any but a failed connection shows the connection works.
func (s *Sender) failure(err error) (refused bool, ce *ConnectionError) {
	if errors.As(err, &ce) {
		return false, ce
	}
	s.connected()
	var rej *RejectedError
	return errors.As(err, &rej), nil
}

// done adds a mail all of whose copies were accepted to acc, and records
// acc once it is full.
func (s *Sender) done(acc *accepted, id uint64, copies int) error {
	acc.mails = append(acc.mails, id)
	acc.n += copies
	if acc.part == id {
		acc.part, acc.partTo = 0, nil // its copies go with the mail
	}
	if acc.n >= batchSize {
		return s.record(acc)
	}
	return nil
}

// sendCopies sends a mail in copies (store.Outgoing.ToAt), to each
// recipient his own, in turn. Each outcome is that recipient's alone: a
// copy refused for good is given up by itself, the recipients refused
// for now stay in the mail for its retry, and those whose copies were
// accepted leave it, so that no retry sends them a second copy. A stop
// (a connection failure, the end of ctx) leaves the recipients not yet
// served in the mail.
func (s *Sender) sendCopies(ctx context.Context, m *store.Outgoing, acc *accepted) error {
	var later []string // refused for now
	var laterErr error
	for i, to := range m.To {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		data, err := mailmsg.Copy(m.Data, m.ToAt, to)
		if err != nil {
			err = &RejectedError{Err: err} // no copy for him can be written, now or later
		} else {
			err = s.t.Send(ctx, m.From, []string{to}, data)
		}
		if err == nil {
			s.connected()
			s.log.Debug("reply sent", "id", m.ID, "to", to)
			acc.part = m.ID
			acc.partTo = append(acc.partTo, to)
			if acc.n++; acc.n >= batchSize {
				if err := s.record(acc); err != nil {
					return err
				}
			}
			continue
		}
		if ctx.Err() != nil {
			return ctx.Err() // stopped mid-send: he is still due
		}
		now := s.opts.Now()
		switch refused, ce := s.failure(err); {
		case refused:
			if err := s.giveUpTo(m, to, now, err); err != nil {
				return err
			}
		case ce != nil:
			if err := s.record(acc); err != nil {
				return err
			}
			m.To = append(later, m.To[i:]...)
			return s.connectionFailed(m, now, err, ce)
		default:
			call(s.opts.OnFailure)
			if laterErr == nil {
				laterErr = err
			}
			later = append(later, to)
		}
	}
	if len(later) == 0 {
		return s.done(acc, m.ID, 0) // its copies are counted already
	}
	// The accepted copies leave the mail before it waits for its retry.
	if err := s.record(acc); err != nil {
		return err
	}
	m.To = later
	now := s.opts.Now()
	return s.retry(m, now, laterErr, now)
}

// connectionFailed pauses sending after a failed connection, and returns
// the error that stops the pass. A connection lost in the middle of m
// counts as an attempt of m, which is then tried again only after the
// pause and a pass of the others, so that a mail on which a server drops
// every connection does not hold up the rest.
func (s *Sender) connectionFailed(m *store.Outgoing, now time.Time, err error, ce *ConnectionError) error {
	call(s.opts.OnFailure)
	wait := s.paused()
	s.log.Warn("outbox paused: the connection failed", "id", m.ID, "retry_in", wait, "err", err)
	if !ce.InMail {
		return err
	}
	if serr := s.retry(m, now, err, now.Add(wait+s.opts.RetryMin)); serr != nil {
		return serr
	}
	return err
}

// retry records a temporary failure of m: it is given up once its first
// failure is GiveUpAfter old, and otherwise tried again after its own
// wait, not before earliest. A non-nil error means the store cannot be
// written.
func (s *Sender) retry(m *store.Outgoing, now time.Time, err error, earliest time.Time) error {
	first := m.FirstFailure
	if first.IsZero() {
		first = now
	}
	if now.Sub(first) >= s.opts.GiveUpAfter {
		return s.giveUp(m, now, "still failing after "+s.opts.GiveUpAfter.String(), err)
	}
	next := now.Add(mailconn.Backoff(s.opts.RetryMin, s.opts.RetryMax, m.Attempts))
	if next.Before(earliest) {
		next = earliest
	}
	s.log.Warn("reply not sent; will retry", "id", m.ID, "to", m.To, "attempts", m.Attempts+1,
		"retry_in", next.Sub(now), "err", err)
	if derr := s.q.Defer(m.ID, now, next, err.Error()); derr != nil && !errors.Is(derr, store.ErrNotFound) {
		s.log.Error("outbox cannot be written", "err", derr)
		s.paused()
		return derr
	}
	return nil
}

// giveUp moves m to the failed mail, logs and counts it. A non-nil error
// means the store cannot be written.
func (s *Sender) giveUp(m *store.Outgoing, now time.Time, why string, err error) error {
	// The log names the mail and the server's answer; never its body.
	s.log.Error("reply given up: "+why+"; kept in the failed mail", "id", m.ID, "to", m.To,
		"attempts", m.Attempts+1, "queued", m.Queued, "err", err)
	if gerr := s.q.GiveUp(m.ID, now, err.Error()); gerr != nil && !errors.Is(gerr, store.ErrNotFound) {
		s.log.Error("outbox cannot be written", "err", gerr)
		s.paused()
		return gerr
	}
	call(s.opts.OnGiveUp)
	return nil
}

// giveUpTo gives up the copy of m for one recipient, logs and counts it.
// A non-nil error means the store cannot be written.
func (s *Sender) giveUpTo(m *store.Outgoing, to string, now time.Time, err error) error {
	s.log.Error("reply given up: refused permanently; kept in the failed mail", "id", m.ID, "to", to,
		"attempts", m.Attempts+1, "queued", m.Queued, "err", err)
	if gerr := s.q.GiveUpTo(m.ID, to, now, err.Error()); gerr != nil && !errors.Is(gerr, store.ErrNotFound) {
		s.log.Error("outbox cannot be written", "err", gerr)
		s.paused()
		return gerr
	}
	call(s.opts.OnGiveUp)
	return nil
}

// connected records that the connection works: the next connection
// failure pauses for RetryMin again.
func (s *Sender) connected() {
	s.mu.Lock()
	s.failures = 0
	s.mu.Unlock()
}

// paused pauses sending after a connection or store failure, for longer
// after each in a row, and returns the pause.
func (s *Sender) paused() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	wait := mailconn.Backoff(s.opts.RetryMin, s.opts.RetryMax, s.failures)
	s.holdTill = s.opts.Now().Add(wait)
	s.failures++
	return wait
}

func call(f func()) {
	if f != nil {
		f()
	}
}
