// Package outbox sends the replies that the service has committed to the
// store's outbox, through a Transport: SMTP submission, the embedded mail
// server, or an mbox on standard output. A reply leaves the outbox only
// once the transport has accepted it, so a crash, a lost connection or a
// refusing server never loses one; at worst a reply is sent twice (after a
// crash between the acceptance and the removal).
//
// A Sender may send over several connections at once (NewConns): each
// recipient's replies go through one of them, chosen by his address, in
// the order they were queued, so that a player's mails do not overtake
// each other, but for one refused for now or cut off, which waits for its
// retry while the later ones go on (as over one connection); the copies
// of a mail in copies spread over them. A server that takes fewer
// connections is sent to over those it took, for an hour; one that
// cannot be reached pauses the Sender at the first failure.
//
// Each reply has its own retry schedule, kept with it in the store, and a
// failing reply never delays another. Failures are of three kinds:
//
//   - The connection failed (cannot connect, greeting, TLS or login failed,
//     connection lost; a *ConnectionError): no reply is to blame. The
//     other connections take the mail that one had not tried, until the
//     end of the pass; when none is left, sending pauses, with a wait
//     that doubles from RetryMin up to RetryMax, and resumes where it
//     stopped. Only a connection lost in
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
	"github.com/pbemd/pbemd/store"
)

// Queue is the outbox in the store (*store.DB).
type Queue interface {
	Pending(now time.Time, after uint64, max int) ([]store.Outgoing, error)
	Mails(ids ...uint64) ([]store.Outgoing, error)
	// SentSoon takes whole mails sent out of the outbox with the next
	// commit; Pending passes over them meanwhile.
	SentSoon(ids ...uint64)
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
	// Answered is set when the server answered (421 at its greeting,
	// a refused login): it is up, and may take other connections.
	Answered bool
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

	// Stamp, when set, gives each recipient's copy of a mail, as it
	// leaves, its envelope sender (a return path with a token of his,
	// SMTP's MAIL FROM) and header fields to put on top (his
	// List-Unsubscribe), as name, value pairs; pbem.Tokens.Stamp. An
	// error is a temporary failure of the mail. Nil: the envelope sender
	// is the mail's From, and nothing is added.
	Stamp func(m *store.Outgoing, to string) (from string, fields []string, err error)
}

// DefaultGiveUpAfter is how long a reply may keep failing temporarily.
const DefaultGiveUpAfter = 5 * 24 * time.Hour

// batchSize is how many mails a pass reads from the store at once, and
// how many copies at most are accepted before they leave the outbox.
const batchSize = 64

// A Sender drains a Queue through one Transport or several at once.
type Sender struct {
	q    Queue
	ts   []Transport // the connections; each recipient's mail goes through one
	opts Options
	log  *slog.Logger
	kick chan struct{}

	mu       sync.Mutex
	failures int       // consecutive connection failures
	holdTill time.Time // no new pass before this, after a connection failure
	// fewer, until fewerTill, is how many of ts the server took when it
	// last refused some while it took others: the passes meanwhile use
	// no more, so that each does not dial, log and count the refused
	// ones again.
	fewer     int
	fewerTill time.Time
}

// fewerFor is how long the Sender uses only the connections a server took
// before it tries them all again.
const fewerFor = time.Hour

// New returns a Sender that sends through t, one mail at a time; Run
// starts it.
func New(q Queue, t Transport, opts Options) *Sender {
	return NewConns(q, []Transport{t}, opts)
}

// NewConns returns a Sender that sends through each of ts at once, as
// many connections to the same server (see the package comment on the
// order kept). ts must not be empty.
func NewConns(q Queue, ts []Transport, opts Options) *Sender {
	if len(ts) == 0 {
		panic("outbox: NewConns without a transport")
	}
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
	return &Sender{q: q, ts: ts, opts: opts, log: log, kick: make(chan struct{}, 1)}
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
	defer s.close()
	var sent time.Time // when the last pass sent mail
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
		if s.drain(ctx) > 0 {
			sent = time.Now()
		}
		if time.Since(sent) >= keepOpen {
			s.close()
		}
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
// every connection failed. The mails accepted leave the outbox with the
// store's next commit (store.SentSoon), the copies of mails in copies each
// batchSize copies; a crash before that sends them again, which beats
// losing them.
func (s *Sender) Drain(ctx context.Context) int {
	defer s.close() // no idle connection left open
	return s.drain(ctx)
}

// keepOpen is how long Run keeps its connections open after the last pass
// that sent mail: in a backlog each commit starts a pass, and a connection
// set up anew for each cost a twentieth of the daemon's CPU. A server
// that closed one meanwhile is noticed before the next mail (SMTP.Send).
const keepOpen = 5 * time.Second

// drain is Drain that leaves the connections open.
func (s *Sender) drain(ctx context.Context) int {
	p := s.newPass(ctx)
	defer p.end()
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
		n, err := p.attempt(batch)
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
	defer s.close()
	mails, err := s.q.Mails(ids...)
	if err != nil {
		return 0, err
	}
	var errConn error
	p := s.newPass(ctx)
	defer p.end()
	sent := 0
	for len(mails) > 0 && errConn == nil {
		batch := mails[:min(len(mails), batchSize)]
		mails = mails[len(batch):]
		var n int
		n, errConn = p.attempt(batch)
		sent += n
	}
	return sent, errConn
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

// close ends every connection.
func (s *Sender) close() {
	for _, t := range s.ts {
		t.Close()
	}
}

func call(f func()) {
	if f != nil {
		f()
	}
}
