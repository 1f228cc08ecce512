// Package intake is the one way a mail enters the service, whichever way
// it came in (IMAP, "pbemd deliver", LMTP). It decides, once for all of
// them, what a mail gets: handled (Done), tried again later (Retry), or
// answered and set aside (SetAside). The transports only map that verdict
// onto their own means: IMAP flags and folders, deliver's exit status,
// LMTP's reply codes.
//
// What it decides, in order:
//
//   - A mail over the largest size read is not read: its sender is
//     answered once from its header, and the mail is set aside.
//   - The mails of one call are handled in one transaction (passwords are
//     checked before the lock, by the service). When that transaction
//     fails, each mail is tried alone, so one bad mail holds up no other.
//   - A mail that fails for good (it cannot be read, its command crashed)
//     is answered once, kept in the store's quarantine and set aside.
//   - A mail that fails for a temporary reason while the store takes
//     other writes is counted, in the store, so that every way in and
//     every try shares the count; at the last try it is set aside as
//     above. While the store takes no write at all the mail is not at
//     fault: it is tried again after a growing wait, without end.
package intake

import (
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/mailconn"
)

// Service is what the intake needs of the core; *pbem.Service has it.
type Service interface {
	// HandleAll handles the mails in order in one transaction and
	// returns, per mail, the outbox ids of its replies and its error
	// (see pbem.IsTemporary); when the transaction fails, every mail of
	// it fails.
	HandleAll(raws [][]byte) ([][]uint64, []error)
	// Quarantine answers, once, a mail that will not be handled and
	// marks it handled; with keep, the mail is kept in the store.
	Quarantine(raw []byte, why string, keep bool) ([]uint64, error)
	// TooLarge answers, once, a mail of size bytes, over limit, from its
	// header alone.
	TooLarge(header []byte, size, limit int64) ([]uint64, error)
	// CountFailure counts, in the store, one more temporary failure of
	// the mail and returns the count; at most it forgets the count.
	CountFailure(raw []byte, most int) (int, error)
	// Check reports whether the store takes a small write now.
	Check() error
}

// Kind is what became of a mail.
type Kind int

const (
	// Done: the mail is handled and committed; the transport may forget it.
	Done Kind = iota
	// Retry: not handled now; offer the mail again after Verdict.After.
	Retry
	// SetAside: the mail will not be handled; its sender was answered
	// and the store keeps it (or, too large, its answer) in quarantine.
	SetAside
)

func (k Kind) String() string {
	switch k {
	case Done:
		return "done"
	case Retry:
		return "retry"
	}
	return "set aside"
}

// A Verdict is what became of one mail.
type Verdict struct {
	Kind Kind
	// After is, for Retry, how long to wait before offering it again.
	After time.Duration
	// Err is why the mail was not handled (Retry and SetAside).
	Err error
	// IDs are the outbox ids of the replies the mail caused (its answer,
	// when set aside), for "pbemd deliver -print".
	IDs []uint64
}

// A Mail is one mail as a transport has it.
type Mail struct {
	// Raw is the mail, or, for a mail over the largest size read, at
	// least its header (a transport need not read the rest).
	Raw []byte
	// Size is the size of the whole mail when Raw holds only its
	// beginning; zero means len(Raw).
	Size int64
}

// Order says whether the mails of one call are in an order that matters.
type Order int

const (
	// Apart: the mails are unrelated (LMTP's, from several connections);
	// a mail told to retry holds up no other.
	Apart Order = iota
	// InOrder: the mails came in this order and a later one must not
	// overtake an earlier (a move and the challenge before it, in one
	// mailbox): after a mail told to retry, the rest are not tried.
	InOrder
)

// Options are the settings of an Intake; zero fields take the defaults named.
type Options struct {
	// Largest is the largest mail read, in bytes (limits.largest_mail);
	// default DefaultLargest.
	Largest int64
	// Tries is how often a mail may fail for a temporary reason while
	// the store works before it is set aside; default 5.
	Tries int
	// RetryMin and RetryMax bound the wait before a mail is offered
	// again, doubling with each failure; defaults 1s and 5m.
	RetryMin, RetryMax time.Duration
	Logger             *slog.Logger
	// OnCommit, when set, is told after each Take that stored anything
	// (a mail handled, or an answer) how many mails it handled: to count
	// them and to wake the outbox sender.
	OnCommit func(handled int)
	// OnError, when set, is told of each failure: a batch that failed,
	// and each mail not handled at once.
	OnError func()
	// OnVerdict, when set, is told the verdict of each mail, with the
	// name of the way it came in (see Via): to count the mails in.
	OnVerdict func(way string, k Kind)
}

// DefaultLargest is the largest mail read unless configured otherwise.
const DefaultLargest = 10 << 20

// An Intake takes mails for the service; it is safe for concurrent use.
type Intake struct {
	*shared
	way string // the way in whose mails it takes (Via); "" for any
}

// shared is what every way into one intake shares.
type shared struct {
	svc  Service
	opts Options
	log  *slog.Logger

	mu      sync.Mutex
	outages int       // failures in a row while the store took no write
	down    error     // why the store takes no write, while it does not
	ready   bool      // a mail was stored, or the store checked, since
	probe   time.Time // when Ready may check the store again, while down
}

// Via is the same intake for the way in named (imap, lmtp): its mails'
// verdicts are told to Options.OnVerdict under that name.
func (in *Intake) Via(way string) *Intake { return &Intake{shared: in.shared, way: way} }

// New returns an Intake handing mails to svc.
func New(svc Service, opts Options) *Intake {
	if opts.Largest <= 0 {
		opts.Largest = DefaultLargest
	}
	if opts.Tries <= 0 {
		opts.Tries = 5
	}
	if opts.RetryMin <= 0 {
		opts.RetryMin = time.Second
	}
	if opts.RetryMax < opts.RetryMin {
		opts.RetryMax = max(5*time.Minute, opts.RetryMin)
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Intake{shared: &shared{svc: svc, opts: opts, log: opts.Logger}}
}

// Largest is the largest mail read, in bytes: a transport need read no
// more of a mail than this and a byte, and the size of the rest.
func (in *Intake) Largest() int64 { return in.opts.Largest }

// Take hands the mails to the service and returns a verdict for each.
func (in *Intake) Take(mails []Mail, order Order) []Verdict {
	vs := make([]Verdict, len(mails))
	var small []int // the mails to read, by index
	for i, m := range mails {
		if size := max(m.Size, int64(len(m.Raw))); size > in.opts.Largest {
			vs[i] = in.tooLarge(m.Raw, size)
		} else {
			small = append(small, i)
		}
	}
	raws := make([][]byte, len(small))
	for k, i := range small {
		raws[k] = mails[i].Raw
	}
	ids, errs := in.handle(raws)
	failed := false
	for _, err := range errs {
		failed = failed || err != nil
	}
	if failed && len(raws) > 1 {
		in.failure()
		in.log.Warn("batch of mail not handled; trying one at a time", "mails", len(raws))
	}
	var held *Verdict // the mail told to retry that holds up the rest (InOrder)
	for k, i := range small {
		err := errs[k]
		switch {
		case err == nil:
			vs[i] = Verdict{Kind: Done, IDs: ids[k]}
			continue
		case held != nil:
			vs[i] = Verdict{Kind: Retry, After: held.After, Err: fmt.Errorf("waits for an earlier mail: %w", held.Err)}
			continue
		case len(raws) > 1:
			one, oneErrs := in.handle(raws[k : k+1])
			if err = oneErrs[0]; err == nil {
				vs[i] = Verdict{Kind: Done, IDs: one[0]}
				continue
			}
		}
		vs[i] = in.failed(raws[k], err)
		if vs[i].Kind == Retry && order == InOrder {
			held = &vs[i]
		}
	}
	in.after(vs)
	return vs
}

// handle is the service's HandleAll with a panic failing every mail for
// good: a bug that one of them hits would be hit again.
func (in *Intake) handle(raws [][]byte) (ids [][]uint64, errs []error) {
	if len(raws) == 0 {
		return nil, nil
	}
	defer func() {
		if p := recover(); p != nil {
			in.log.Error("handling mail crashed", "mails", len(raws), "panic", p)
			ids, errs = make([][]uint64, len(raws)), make([]error, len(raws))
			for i := range errs {
				errs[i] = crashed{p}
			}
		}
	}()
	return in.svc.HandleAll(raws)
}

// crashed is the error of a mail whose handling panicked.
type crashed struct{ value any }

func (e crashed) Error() string   { return fmt.Sprintf("handling it crashed: %v", e.value) }
func (e crashed) Temporary() bool { return false }

// failed decides what becomes of a mail that failed with err.
func (in *Intake) failed(raw []byte, err error) Verdict {
	in.failure()
	if !pbem.IsTemporary(err) {
		in.log.Error("mail cannot be handled; set aside", "err", err)
		return in.setAside(raw, err.Error(), err)
	}
	if cerr := in.svc.Check(); cerr != nil {
		return in.outage(err)
	}
	n, cerr := in.svc.CountFailure(raw, in.opts.Tries)
	if cerr != nil {
		return in.outage(err)
	}
	in.working()
	if n >= in.opts.Tries {
		in.log.Error("mail keeps failing; set aside", "tries", n, "err", err)
		return in.setAside(raw, fmt.Sprintf("it failed %d times: %v", n, err), err)
	}
	wait := mailconn.Backoff(in.opts.RetryMin, in.opts.RetryMax, n-1)
	in.log.Warn("mail not handled; it will be tried again", "tries", n, "in", wait, "err", err)
	return Verdict{Kind: Retry, After: wait, Err: err}
}

// setAside quarantines the mail and answers its sender, once.
func (in *Intake) setAside(raw []byte, why string, cause error) Verdict {
	ids, err := in.svc.Quarantine(raw, why, true)
	if err != nil {
		return in.unanswered(fmt.Errorf("%v; setting the mail aside failed: %w", cause, err))
	}
	return Verdict{Kind: SetAside, Err: cause, IDs: ids}
}

// tooLarge answers a mail over the largest size read from its header.
func (in *Intake) tooLarge(header []byte, size int64) Verdict {
	in.log.Warn("mail too large; answered from its header and set aside", "size", size, "limit", in.opts.Largest)
	ids, err := in.svc.TooLarge(header, size, in.opts.Largest)
	if err != nil {
		in.failure()
		return in.unanswered(fmt.Errorf("answering a mail of %d bytes, over the %d read: %w", size, in.opts.Largest, err))
	}
	return Verdict{Kind: SetAside, Err: fmt.Errorf("the mail has %d bytes, more than the %d read", size, in.opts.Largest), IDs: ids}
}

// unanswered is the verdict on a mail whose answer could not be stored:
// an outage when the store takes no small write either; else the mail
// alone is at fault (its answer is too large for what the disk has left,
// say), and it is tried again after the longest wait, with no outage
// declared that would hold up the other mails.
func (in *Intake) unanswered(err error) Verdict {
	if in.svc.Check() != nil {
		return in.outage(err)
	}
	in.log.Warn("the answer to a mail could not be stored; it will be tried again", "in", in.opts.RetryMax, "err", err)
	return Verdict{Kind: Retry, After: in.opts.RetryMax, Err: err}
}

// outage is the verdict on a mail while the store takes no write: try
// again after a wait that grows with the failures in a row, up to
// RetryMax, for as long as it lasts.
func (in *Intake) outage(err error) Verdict {
	in.mu.Lock()
	wait := in.failing(err)
	in.mu.Unlock()
	in.log.Warn("mail not handled: nothing can be stored now; it will be tried again", "in", wait, "err", err)
	return Verdict{Kind: Retry, After: wait, Err: err}
}

// failing notes one more failure of the store in a row, for err, and
// returns the wait before the next try; in.mu is held.
func (in *Intake) failing(err error) time.Duration {
	wait := mailconn.Backoff(in.opts.RetryMin, in.opts.RetryMax, in.outages)
	in.outages++
	in.down, in.ready, in.probe = err, false, time.Now().Add(wait)
	return wait
}

// Ready reports whether the store takes mail now: nil, or why not while
// an outage lasts. It is for a way in that answers for a mail before the
// store has it (LMTP keeps the mails it acknowledged in its spool), so
// that it leaves a mail with its sender rather than take it into an
// outage. The first call, and the first after each wait of the outage,
// checks the store with a small write (Service.Check); the others cost
// nothing.
func (in *Intake) Ready() error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.ready {
		return nil
	}
	if in.down != nil && time.Now().Before(in.probe) {
		return in.down
	}
	if err := in.svc.Check(); err != nil {
		in.failing(err)
		return err
	}
	in.outages, in.down, in.ready = 0, nil, true
	return nil
}

// failure tells OnError of a failure.
func (in *Intake) failure() {
	if in.opts.OnError != nil {
		in.opts.OnError()
	}
}

// working notes that the store takes writes again.
func (in *Intake) working() {
	in.mu.Lock()
	in.outages, in.down, in.ready = 0, nil, true
	in.mu.Unlock()
}

// after tells OnVerdict of each verdict and OnCommit of what the Take
// stored.
func (in *Intake) after(vs []Verdict) {
	handled, stored := 0, 0
	for _, v := range vs {
		if in.opts.OnVerdict != nil {
			in.opts.OnVerdict(in.way, v.Kind)
		}
		switch v.Kind {
		case Done:
			handled++
			stored++
		case SetAside:
			stored++
		}
	}
	if handled > 0 {
		in.working()
	}
	if stored > 0 && in.opts.OnCommit != nil {
		in.opts.OnCommit(handled)
	}
}
