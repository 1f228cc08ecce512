// Package pbem is the play-by-email service: it reads a mail, runs the command
// in its Subject line against the store and the game rules, and writes the
// reply mails into the store's outbox, all in one transaction. It knows
// nothing of IMAP or SMTP; the packages under pbem/ bring mail in and out.
package pbem

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/bcrypt"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/mailauth"
	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/store"
)

// Config is what the service needs to know about itself.
type Config struct {
	Address string           // the server's own address, e.g. "pbem@localhost"
	Name    string           // display name in From; default "pbemd"
	Domain  string           // for Message-IDs; default the Address's domain
	Now     func() time.Time // the clock; nil means time.Now
	Log     *slog.Logger     // nil means slog.Default()
	// PublicURL is where the web view is reached, e.g.
	// "https://pbem.example.org"; when set, board mails link to their
	// board's page under it.
	PublicURL string
	// ReplyAddress, when set, is the Reply-To of board mails to players,
	// with ReplyTokenPlace for the mail's reply token, e.g.
	// "pbem+{token}@example.org": the address must reach the server's
	// mailbox whatever stands after the "+".
	ReplyAddress string
	// OnMoves, when set, is told after each commit how many game moves it
	// stored (a Taratibu turn counts its single moves); for counters.
	OnMoves func(n int)
	// OnBounce, when set, is told after each commit of a delivery report
	// read at a return path (bounces.go); for counters.
	OnBounce func()

	// Limits bound the cost of mails, senders and accounts; see Limits
	// for the defaults of its zero fields.
	Limits Limits

	// Mail bounds what reading one mail may cost; the zero value means
	// mailmsg's defaults. A mail over them is answered, not read.
	Mail mailmsg.Limits

	// Auth tells which mails are vouched for by their From domain
	// (package mailauth); nil trusts none. See docs/trust.md.
	Auth *mailauth.Verifier

	// RobotJoin lets a player waiting on an open seat ask a robot to take
	// it ("<game> join board ROBOT password"); off by default.
	RobotJoin bool

	// Bounces is the return path of the server's mail and what its
	// bounces do (bounces.go).
	Bounces Bounces
	// NoAutoVacation keeps the sweep from taking a day of a player's
	// vacation pool when his clock runs out (vacationpool.go); it does by
	// default, as issue 29 asks.
	NoAutoVacation bool
	// Admins are the user ids that may "broadcast" to every player, with
	// their password and from an address whose domain vouches for them.
	Admins []string
	// PasswordKey keys the password verifiers kept in the user records,
	// with which a daemon just started checks a password without a
	// bcrypt (docs/passwords.md); nil keeps none. It must not live in the
	// store: a stolen store or backup is then no easier to guess from.
	PasswordKey []byte
}

// Service runs commands from mail. Its methods are safe for concurrent use;
// mails are handled one at a time.
type Service struct {
	db  *store.DB
	cfg Config
	log *slog.Logger

	// NewID makes Message-IDs; tests replace it to get stable golden files.
	NewID func() string

	hashCost int        // bcrypt cost of new password hashes; tests lower it
	mu       sync.Mutex // serialises Deliver and Sweep
	// waiting counts the mails waiting for mu: the sweep lets them go
	// first (yieldToMail).
	waiting atomic.Int32
	// stepped, when set (by tests), is called in each step of the sweep
	// under mu.
	stepped   func()
	positions *model.PositionCache
	snoozed   snoozed   // guarded by mu
	pruned    time.Time // when the sweep last pruned; guarded by mu
	swept     time.Time // when Sweep last ran; guarded by mu
	limits    Limits
	passwords *passwordCache
	strangers chan struct{} // strangerCPU's one place
	robots    robotHooks
	tokens    *Tokens // of the return path and List-Unsubscribe
}

// New returns a service on db.
func New(db *store.DB, cfg Config) *Service {
	if cfg.Name == "" {
		cfg.Name = "pbemd"
	}
	if cfg.Domain == "" {
		_, cfg.Domain, _ = strings.Cut(cfg.Address, "@")
		if cfg.Domain == "" {
			cfg.Domain = "localhost"
		}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	s := &Service{
		db:        db,
		cfg:       cfg,
		log:       cfg.Log,
		positions: model.NewPositionCache(2000),
		snoozed:   snoozed{},
		limits:    cfg.Limits.withDefaults(),
		passwords: newPasswordCache(cfg.PasswordKey),
		strangers: make(chan struct{}, 1),
		hashCost:  bcrypt.DefaultCost,
	}
	s.NewID = func() string { return mailmsg.NewMessageID(s.cfg.Domain) }
	s.tokens = NewTokens(db, s.cfg)
	if db == nil {
		return s // a service without a store (deliver's quarantine answer)
	}
	if err := db.SetDeadline(deadline); err != nil {
		// The sweep then finds no board due until the next start.
		s.log.Error("indexing the boards' deadlines", "err", err)
	}
	return s
}

// Deliver handles one raw RFC 5322 mail: the state change, the processed-mail
// key and the reply mails (into the store's outbox) commit in one
// transaction. It returns nil when the mail was handled, including invalid
// commands (answered by an error reply), mails already handled, and mails the
// loop guard ignores; an error only when the mail could not be read or stored.
// IsTemporary tells whether the error may pass when the mail is tried again.
// The ways in do not call it: they hand mails to pbem/intake, which decides
// what a failing mail gets (see HandleAll).
func (s *Service) Deliver(raw []byte) error {
	_, err := s.Handle(raw)
	return err
}

// Handle is Deliver that also returns the outbox ids of the replies it queued,
// for "pbemd deliver -print".
func (s *Service) Handle(raw []byte) ([]uint64, error) {
	ids, errs := s.HandleAll([][]byte{raw})
	return ids[0], errs[0]
}

// DeliverAll handles several mails in order in one transaction, so that a
// backlog costs one disk sync per batch instead of one per mail. It returns
// one error per mail, as Deliver would. When the transaction fails, every
// mail of the batch fails with it and none is stored: pbem/intake then
// tries them one by one, so that one bad mail holds up no other.
func (s *Service) DeliverAll(raws [][]byte) []error {
	_, errs := s.HandleAll(raws)
	return errs
}

// HandleAll is DeliverAll that also returns, per mail, the outbox ids of
// the replies it queued. It is what pbem/intake hands every mail to.
func (s *Service) HandleAll(raws [][]byte) ([][]uint64, []error) {
	start := time.Now()
	ids := make([][]uint64, len(raws))
	errs := make([]error, len(raws))
	// Read every mail first, on all cores; a parser's panic fails its
	// mail alone.
	// Who vouches for each sender is found here too, before the lock:
	// a DKIM check may wait on DNS.
	read := make([]*mailmsg.Incoming, len(raws))
	readErrs := make([]error, len(raws))
	auths := make([]mailauth.Result, len(raws))
	eachParallel(len(raws), func(i int) {
		read[i], readErrs[i] = readMailSafely(s.cfg.Mail, raws[i])
		if readErrs[i] == nil {
			auths[i] = s.cfg.Auth.Check(raws[i])
			// Vouched for, the From the service acts on, no other.
			if a := auths[i]; a.Authenticated && !strings.EqualFold(a.From, strings.TrimSpace(read[i].From)) {
				auths[i] = mailauth.Result{How: "the From read is not the one vouched for"}
			}
		}
	})
	var mails []*mailmsg.Incoming
	var index []int // index[k] is the position in raws of mails[k]
	// tooLarge[k] says why mails[k] was not read, or is nil.
	var tooLarge []*mailmsg.TooLargeError
	// returned[k] is the return path's token mails[k] came to: a bounce
	// (bounces.go), never a command.
	var returned []string
	for i, m := range read {
		err := readErrs[i]
		var big *mailmsg.TooLargeError
		if err != nil && !errors.As(err, &big) {
			errs[i] = permanent(fmt.Errorf("reading mail: %w", err))
			continue
		}
		if tok := s.returnToken(m); tok != "" {
			mails = append(mails, m)
			index = append(index, i)
			tooLarge = append(tooLarge, nil)
			returned = append(returned, tok)
			continue
		}
		if why := m.Ignore(s.own()); why != "" {
			s.logMail(m, nil, why, start)
			continue
		}
		mails = append(mails, m)
		index = append(index, i)
		tooLarge = append(tooLarge, big)
		returned = append(returned, "")
	}
	if len(mails) == 0 {
		return ids, errs
	}
	// bcrypt before the lock, not under it; of commands, not bounces.
	var commands []*mailmsg.Incoming
	var vouched []bool
	for k, i := range index {
		if returned[k] == "" {
			commands = append(commands, mails[k])
			vouched = append(vouched, auths[i].Authenticated)
		}
	}
	s.preverify(s.db, commands, vouched)
	s.waiting.Add(1)
	s.mu.Lock()
	s.waiting.Add(-1)
	defer s.mu.Unlock()
	now := s.cfg.Now()
	var after []func()
	var played int
	crashed := -1 // the mail whose command panicked, if one did
	err := s.db.Update(func(tx *store.Tx) error {
		after, played, crashed = nil, 0, -1
		uncommitted := model.NewPositionCache(len(mails))
		tx.ReadAheadProcessed(mailKeys(mails))
		for k, m := range mails {
			ids[index[k]] = nil
			done, err := tx.Processed(m.Key)
			if err != nil {
				return err
			}
			if done {
				after = append(after, func() { s.logMail(m, nil, "already handled (same Message-ID or content)", start) })
				continue
			}
			r := &request{s: s, tx: tx, mail: m, now: now, uncommitted: uncommitted, vouched: auths[index[k]]}
			run := func() error { return r.runOrRefuse(tooLarge[k]) }
			if tok := returned[k]; tok != "" {
				run = func() error { return r.bounceAndCompose(tok, raws[index[k]]) }
			}
			if err := safely(run); err != nil {
				if p, ok := err.(*errPanic); ok {
					crashed = k
					s.log.Error("command crashed", "from", m.From, "id", m.MessageID, "panic", p.value, "stack", string(p.stack))
				}
				return fmt.Errorf("mail %s: %w", m.Key, err)
			}
			for _, out := range r.out {
				if err := tx.Enqueue(out); err != nil {
					return err
				}
				ids[index[k]] = append(ids[index[k]], out.ID)
			}
			after = append(after, r.after...)
			after = append(after, func() { s.logMail(m, r, "", start) })
			played += r.played
			if err := tx.MarkProcessed(m.Key, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		// A crashing command would crash again; the other mails of the
		// batch, or a store that failed, may pass when tried again.
		for k, i := range index {
			errs[i] = temporary(fmt.Errorf("storing mail: %w", err))
			if k == crashed {
				errs[i] = permanent(err)
			} else if crashed >= 0 {
				errs[i] = temporary(fmt.Errorf("not stored, another mail of its batch failed: %w", err))
			}
			ids[i] = nil
		}
		return ids, errs
	}
	for _, f := range after {
		f()
	}
	if played > 0 && s.cfg.OnMoves != nil {
		s.cfg.OnMoves(played)
	}
	return ids, errs
}

// Tokens are the service's tokens of return paths and List-Unsubscribe,
// which the outbox stamps on each copy as it sends it.
func (s *Service) Tokens() *Tokens { return s.tokens }

// own lists the addresses that are the server itself: mail from them is a loop.
func (s *Service) own() []string { return []string{s.cfg.Address} }

// from is the From header of every reply.
func (s *Service) from() string {
	return fmt.Sprintf("%s <%s>", s.cfg.Name, s.cfg.Address)
}

// errNotFound reports whether err is the store's not-found error.
func errNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }
