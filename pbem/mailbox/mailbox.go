// Package mailbox reads the commands of pbemd from an IMAP mailbox.
//
// A Watcher logs in, hands each mail of the watched mailbox to a Handler in
// arrival (UID) order, and only when the Handler has committed it flags the
// mail \Seen and moves it to a done folder. Every mail still in the watched
// mailbox is work, seen or not: a crash or a lost connection between the
// commit and the move (even between the flag and the move) shows the mail
// again, and the Handler recognises it (by Message-ID) and changes nothing,
// so it is only moved; mail a person marked read in a webmail is not lost
// either. Mail is fetched with BODY.PEEK[] so that fetching alone never
// marks it seen (RFC 3501 section 6.4.5).
//
// While the mailbox is empty the Watcher waits with IDLE (RFC 2177), or
// polls when the server lacks it, and reconnects with a capped, doubling
// wait whenever the connection is lost.
package mailbox

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/pbemd/pbemd/pbem/mailconn"
)

// Handler takes raw RFC 5322 mails. Deliver returns nil once the mail is
// handled for good (committed); an error leaves the mail unseen, to be
// tried again. DeliverAll handles several mails in order in one commit and
// returns an error per mail; when that commit fails, every mail fails.
type Handler interface {
	Deliver(raw []byte) error
	DeliverAll(raws [][]byte) []error
}

// Config describes the mailbox and how to wait on it. Zero durations and
// sizes take the defaults noted.
type Config struct {
	Addr      string            // host:port
	Security  mailconn.Security // zero: implicit TLS (IMAPS, port 993)
	TLSConfig *tls.Config       // nil: verify against the host name of Addr

	Username, Password string

	Mailbox string // watched folder; default INBOX
	Done    string // folder handled mail is moved to; created when missing; default pbem-done
	Batch   int    // mails per FETCH; default 100

	PollInterval time.Duration // check interval without IDLE; default 1m
	IdleTimeout  time.Duration // longest single IDLE; default 25m
	BackoffMin   time.Duration // first wait before reconnecting; default 1s
	BackoffMax   time.Duration // longest wait before reconnecting; default 5m
	// NoIdle polls even when the server offers IDLE (for servers whose
	// IDLE is broken).
	NoIdle bool

	Logger *slog.Logger // default slog.Default()

	// Counters; each may be nil. OnMail is called after each mail the
	// Handler took, OnMoved with the number of mails marked done, OnError
	// after each failure (of the Handler or the connection), OnReconnect
	// each time a connection is back (the mailbox selected again) after a
	// lost one; failed attempts in between count as errors, not reconnects.
	OnMail      func()
	OnMoved     func(n int)
	OnError     func()
	OnReconnect func()
}

// maxAttempts is how often one mail is handed to a failing Handler in one
// connection before it is skipped, so that one unreadable mail cannot stop
// all the others. Skipped mail stays unseen and is tried again after the
// next reconnect or restart.
const maxAttempts = 5

// stopGrace is how long a session may go on after its context ended, to
// finish a batch and log out, before its connection is cut: a server that
// stops answering must not keep the daemon from stopping.
var stopGrace = 5 * time.Second

// A Watcher processes the mail of one mailbox; see the package comment.
type Watcher struct {
	cfg  Config
	h    Handler
	log  *slog.Logger
	wake chan struct{} // new mail announced by the server

	connected bool // a session has got as far as selecting the mailbox before
}

// New returns a Watcher; Run starts it.
func New(cfg Config, h Handler) *Watcher {
	if cfg.Mailbox == "" {
		cfg.Mailbox = "INBOX"
	}
	if cfg.Done == "" {
		cfg.Done = "pbem-done"
	}
	if cfg.Batch <= 0 {
		cfg.Batch = 100
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&cfg.PollInterval, time.Minute)
	def(&cfg.IdleTimeout, 25*time.Minute)
	def(&cfg.BackoffMin, time.Second)
	def(&cfg.BackoffMax, 5*time.Minute)
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	log = log.With("imap", cfg.Addr, "mailbox", cfg.Mailbox)
	return &Watcher{cfg: cfg, h: h, log: log, wake: make(chan struct{}, 1)}
}

// Run processes mail until ctx is done. It returns nil then; it never
// gives up on its own.
func (w *Watcher) Run(ctx context.Context) error {
	fails := 0
	for {
		established, err := w.session(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if established {
			fails = 0
		}
		wait := mailconn.Backoff(w.cfg.BackoffMin, w.cfg.BackoffMax, fails)
		fails++
		call(w.cfg.OnError)
		w.log.Warn("IMAP connection lost; reconnecting", "err", err, "in", wait)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
	}
}

var errClosed = errors.New("connection closed by the server")

// session runs one connection until it fails or ctx is done. established
// reports whether it got as far as selecting the mailbox.
func (w *Watcher) session(ctx context.Context) (established bool, err error) {
	c, err := w.dial(ctx)
	if err != nil {
		return false, err
	}
	defer c.Close()
	// The client waits for answers without a time limit: once ctx ends,
	// cut the connection if the session has not ended by itself soon.
	defer mailconn.CloseOnStop(ctx, c, stopGrace)()
	if err := c.WaitGreeting(); err != nil {
		return false, err
	}
	if err := c.Login(w.cfg.Username, w.cfg.Password).Wait(); err != nil {
		return false, fmt.Errorf("login as %s: %w", w.cfg.Username, err)
	}
	if err := w.ensureFolder(c, w.cfg.Done); err != nil {
		return false, err
	}
	if _, err := c.Select(w.cfg.Mailbox, nil).Wait(); err != nil {
		return false, fmt.Errorf("select %s: %w", w.cfg.Mailbox, err)
	}
	if w.connected {
		call(w.cfg.OnReconnect)
	}
	w.connected = true
	idle := c.Caps().Has(imap.CapIdle) && !w.cfg.NoIdle
	w.log.Info("IMAP connected", "idle", idle)

	attempts := map[imap.UID]int{} // failed Deliver calls per mail, this connection
	for ctx.Err() == nil {
		// Forget earlier announcements: the search below sees them all.
		select {
		case <-w.wake:
		default:
		}
		uids, err := w.waiting(c)
		if err != nil {
			return true, err
		}
		uids = slices.DeleteFunc(uids, func(u imap.UID) bool { return attempts[u] >= maxAttempts })
		if len(uids) > 0 {
			n := min(len(uids), w.cfg.Batch)
			if err := w.process(ctx, c, uids[:n], attempts); err != nil {
				return true, err
			}
			continue
		}
		if idle {
			err = w.idle(ctx, c)
		} else {
			err = w.poll(ctx, c)
		}
		if err != nil {
			return true, err
		}
	}
	c.Logout().Wait()
	return true, nil
}

// dial connects; the caller waits for the greeting.
func (w *Watcher) dial(ctx context.Context) (*imapclient.Client, error) {
	host, _, err := net.SplitHostPort(w.cfg.Addr)
	if err != nil {
		return nil, err
	}
	tc := w.cfg.TLSConfig
	if tc == nil {
		tc = &tls.Config{ServerName: host}
	}
	sec, err := w.cfg.Security.Mode()
	if err != nil {
		return nil, err
	}
	if sec == mailconn.Plain && !mailconn.IsLoopback(host) {
		return nil, fmt.Errorf("refusing to log in unencrypted to %s; use TLS or STARTTLS", host)
	}
	opts := &imapclient.Options{
		TLSConfig: tc,
		Dialer:    &net.Dialer{Timeout: 30 * time.Second},
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			// Runs on the client's reader goroutine: never block here.
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					w.announce()
				}
			},
		},
	}
	var c *imapclient.Client
	switch sec {
	case mailconn.TLS:
		c, err = imapclient.DialTLS(w.cfg.Addr, opts)
	case mailconn.StartTLS:
		c, err = imapclient.DialStartTLS(w.cfg.Addr, opts)
	default:
		c, err = imapclient.DialInsecure(w.cfg.Addr, opts)
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

func (w *Watcher) announce() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// ensureFolder creates the folder unless it exists.
func (w *Watcher) ensureFolder(c *imapclient.Client, name string) error {
	list, err := c.List("", name, nil).Collect()
	if err != nil {
		return fmt.Errorf("list %s: %w", name, err)
	}
	if len(list) > 0 {
		return nil
	}
	if err := c.Create(name, nil).Wait(); err != nil {
		return fmt.Errorf("create folder %s: %w", name, err)
	}
	w.log.Info("created the done folder", "folder", name)
	return nil
}

// waiting returns the UIDs of the mail not yet moved out, in arrival
// order: every undeleted mail (a \Deleted one was copied to the done
// folder already and waits only for its EXPUNGE).
func (w *Watcher) waiting(c *imapclient.Client) ([]imap.UID, error) {
	data, err := c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagDeleted}}, nil).Wait()
	if err != nil {
		return nil, fmt.Errorf("search waiting mail: %w", err)
	}
	uids := data.AllUIDs()
	slices.Sort(uids)
	return uids, nil
}

var bodySection = &imap.FetchItemBodySection{Peek: true}

// process hands the mails to the Handler in order, all in one commit, and
// marks the handled ones done. When the batch fails, its mails are tried
// one at a time: a mail that fails alone ends the batch there, so later
// mail never overtakes earlier mail, and the watcher waits a little before
// the mail is retried.
func (w *Watcher) process(ctx context.Context, c *imapclient.Client, uids []imap.UID, attempts map[imap.UID]int) error {
	msgs, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{
		UID:         true,
		BodySection: []*imap.FetchItemBodySection{bodySection},
	}).Collect()
	if err != nil {
		return fmt.Errorf("fetch mail: %w", err)
	}
	slices.SortFunc(msgs, func(a, b *imapclient.FetchMessageBuffer) int { return int(a.UID) - int(b.UID) })
	var raws [][]byte
	var rawUIDs []imap.UID
	for _, m := range msgs {
		if raw := m.FindBodySection(bodySection); raw != nil { // nil: expunged meanwhile
			raws = append(raws, raw)
			rawUIDs = append(rawUIDs, m.UID)
		}
	}
	if len(raws) == 0 || ctx.Err() != nil {
		return nil
	}
	errs := w.h.DeliverAll(raws)
	var done []imap.UID
	var failed error
	batchFailed := false
	for i, raw := range raws {
		err := errs[i]
		if err != nil && failed == nil && ctx.Err() == nil {
			if !batchFailed {
				batchFailed = true
				call(w.cfg.OnError)
				w.log.Warn("batch of mail not handled; trying one at a time", "mails", len(raws), "err", err)
			}
			err = w.h.Deliver(raw)
		}
		if err != nil {
			if failed != nil || ctx.Err() != nil {
				continue // after the first failure, later mail waits its turn
			}
			uid := rawUIDs[i]
			attempts[uid]++
			call(w.cfg.OnError)
			if attempts[uid] >= maxAttempts {
				w.log.Error("mail cannot be handled; left unseen in the mailbox and skipped until the next connection",
					"uid", uid, "attempts", attempts[uid], "err", err)
			} else {
				w.log.Warn("mail not handled; will retry", "uid", uid, "attempts", attempts[uid], "err", err)
			}
			failed = err
			continue
		}
		call(w.cfg.OnMail)
		done = append(done, rawUIDs[i])
	}
	if err := w.markDone(c, done); err != nil {
		return err
	}
	if failed != nil {
		select {
		case <-ctx.Done():
		case <-time.After(w.cfg.BackoffMin):
		}
	}
	return nil
}

// markDone flags the mails \Seen, then moves them to the done folder. The
// flag comes first so that a failed move still never hands a mail over a
// second time. Without MOVE (RFC 6851) the client falls back to COPY,
// \Deleted and EXPUNGE.
func (w *Watcher) markDone(c *imapclient.Client, uids []imap.UID) error {
	if len(uids) == 0 {
		return nil
	}
	set := imap.UIDSetNum(uids...)
	err := c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}, nil).Close()
	if err != nil {
		return fmt.Errorf("flag handled mail \\Seen: %w", err)
	}
	if _, err := c.Move(set, w.cfg.Done).Wait(); err != nil {
		return fmt.Errorf("move handled mail to %s: %w", w.cfg.Done, err)
	}
	if w.cfg.OnMoved != nil {
		w.cfg.OnMoved(len(uids))
	}
	w.log.Debug("mail done", "count", len(uids))
	return nil
}

// idle waits in IDLE for new mail, the end of ctx, a lost connection or
// IdleTimeout, whichever comes first.
func (w *Watcher) idle(ctx context.Context, c *imapclient.Client) error {
	cmd, err := c.Idle()
	if err != nil {
		return fmt.Errorf("idle: %w", err)
	}
	t := time.NewTimer(w.cfg.IdleTimeout)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-w.wake:
	case <-t.C:
	case <-c.Closed():
		return errClosed
	}
	if err := cmd.Close(); err != nil {
		return fmt.Errorf("end idle: %w", err)
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("end idle: %w", err)
	}
	return nil
}

// poll waits PollInterval (or less, if the server announces mail on its
// own), then lets the next search look again.
func (w *Watcher) poll(ctx context.Context, c *imapclient.Client) error {
	t := time.NewTimer(w.cfg.PollInterval)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-w.wake:
	case <-t.C:
	case <-c.Closed():
		return errClosed
	}
	return nil
}

func call(f func()) {
	if f != nil {
		f()
	}
}
