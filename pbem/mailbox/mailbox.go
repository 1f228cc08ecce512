// Package mailbox reads the commands of pbemd from an IMAP mailbox.
//
// A Watcher logs in, hands each mail of the watched mailbox to the intake
// (pbem/intake) in arrival (UID) order, and only when the intake has
// committed it flags the mail \Seen and moves it to a done folder. Every mail still in the watched
// mailbox is work, seen or not: a crash or a lost connection between the
// commit and the move (even between the flag and the move) shows the mail
// again, and the service recognises it (by Message-ID) and changes nothing,
// so it is only moved; mail a person marked read in a webmail is not lost
// either. Mail is fetched with BODY.PEEK[] so that fetching alone never
// marks it seen (RFC 3501 section 6.4.5).
//
// A mail larger than the intake reads is never fetched whole: its size is
// read first (RFC822.SIZE), and the intake answers it from its header
// alone. The watcher only maps the intake's verdicts: a mail done goes to
// the done folder; one to retry stays, and the watcher waits as long as
// the verdict says before it searches again (later mail waits its turn);
// one set aside (answered, kept in the store's quarantine) goes to a
// quarantine folder, so it never blocks the next mail.
//
// A backlog is handled in batches, one commit each. While a batch is
// handled, the server reads the next one and moves the mails of the one
// before to the done folder, on the same connection: its work and the
// service's overlap.
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
	"github.com/pbemd/pbemd/pbem/intake"
	"github.com/pbemd/pbemd/pbem/mailconn"
)

// Config describes the mailbox and how to wait on it. Zero durations and
// sizes take the defaults noted.
type Config struct {
	Addr      string            // host:port
	Security  mailconn.Security // zero: implicit TLS (IMAPS, port 993)
	TLSConfig *tls.Config       // nil: verify against the host name of Addr

	Username, Password string

	Mailbox string // watched folder; default INBOX
	Done    string // folder handled mail is moved to; created when missing; default pbem-done
	// Quarantine is the folder of mail that will not be handled (too
	// large, crashed the handler, kept failing); created when missing;
	// default pbemd-quarantine.
	Quarantine string
	Batch      int   // mails per FETCH and commit; default 500
	BatchBytes int64 // largest sum of mail sizes per FETCH, but at least one mail; default 10 MiB

	PollInterval time.Duration // check interval without IDLE; default 1m
	IdleTimeout  time.Duration // longest single IDLE; default 25m
	BackoffMin   time.Duration // first wait before reconnecting; default 1s
	BackoffMax   time.Duration // longest wait before reconnecting; default 5m
	// NoIdle polls even when the server offers IDLE (for servers whose
	// IDLE is broken).
	NoIdle bool

	Logger *slog.Logger // default slog.Default()

	// Counters; each may be nil. OnMail is called after each mail the
	// intake handled, OnMoved with the number of mails marked done, OnError
	// after each failure of the connection (the intake counts its own), OnReconnect
	// each time a connection is back (the mailbox selected again) after a
	// lost one; failed attempts in between count as errors, not reconnects.
	OnMail      func()
	OnMoved     func(n int)
	OnError     func()
	OnReconnect func()
}

// stopGrace is how long a session may go on after its context ended, to
// finish a batch and log out, before its connection is cut: a server that
// stops answering must not keep the daemon from stopping.
var stopGrace = 5 * time.Second

// A Watcher processes the mail of one mailbox; see the package comment.
type Watcher struct {
	cfg  Config
	in   *intake.Intake
	log  *slog.Logger
	wake chan struct{} // new mail announced by the server

	// moving is the result of moving the mails of the batch handled
	// last to the done folder, which goes on while the next batch is
	// handled; nil when no move is under way.
	moving chan error

	connected bool // a session has got as far as selecting the mailbox before
}

// New returns a Watcher handing mail to in; Run starts it.
func New(cfg Config, in *intake.Intake) *Watcher {
	if cfg.Mailbox == "" {
		cfg.Mailbox = "INBOX"
	}
	if cfg.Done == "" {
		cfg.Done = "pbem-done"
	}
	if cfg.Quarantine == "" {
		cfg.Quarantine = "pbemd-quarantine"
	}
	if cfg.Batch <= 0 {
		cfg.Batch = 500
	}
	if cfg.BatchBytes <= 0 {
		cfg.BatchBytes = 10 << 20
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
	return &Watcher{cfg: cfg, in: in, log: log, wake: make(chan struct{}, 1)}
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
	for _, folder := range []string{w.cfg.Done, w.cfg.Quarantine} {
		if err := w.ensureFolder(c, folder); err != nil {
			return false, err
		}
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
		if len(uids) > 0 {
			if err := w.drain(ctx, c, uids); err != nil {
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

// drain works through the mails found, in batches, before the next search:
// a search costs the server time for every mail in the mailbox (go-imap's
// reads each one), so searching once a batch would make a backlog cost its
// square. The server reads the next batch, and moves the mails of the one
// before to the done folder, while a batch is handled, so that its work and
// the service's overlap. It returns once every mail handled is moved, early
// when a mail failed: the next search finds it first.
func (w *Watcher) drain(ctx context.Context, c *imapclient.Client, uids []imap.UID) (err error) {
	defer func() {
		if merr := w.moved(); err == nil {
			err = merr
		}
	}()
	b := w.read(c, uids[:min(len(uids), w.cfg.Batch)])
	for ctx.Err() == nil {
		var ahead chan *batch
		if rest := uids[len(b.uids):]; b.err == nil && len(rest) > 0 {
			ahead = make(chan *batch, 1)
			go func() { ahead <- w.read(c, rest[:min(len(rest), w.cfg.Batch)]) }()
		}
		taken, wait, err := w.process(ctx, c, b)
		var next *batch
		if ahead != nil {
			next = <-ahead // read on, or given up, it is waited for
		}
		if err != nil {
			return err
		}
		if wait > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(wait):
			}
		}
		if taken == 0 || wait > 0 || next == nil {
			break // search again: a mail that failed comes first
		}
		uids, b = uids[taken:], next
	}
	return nil
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
	w.log.Info("created a folder", "folder", name)
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

var (
	bodySection = &imap.FetchItemBodySection{Peek: true}
	// The header of a mail too large to read, at most its first 256 KiB:
	// a header can be as large as the mail.
	headerSection = &imap.FetchItemBodySection{Specifier: imap.PartSpecifierHeader, Peek: true,
		Partial: &imap.SectionPartial{Offset: 0, Size: 256 << 10}}
)

// A batch is the first of the mails waiting, as many as one fetch may
// hold, read from the server.
type batch struct {
	uids     []imap.UID // the mails it took, in order
	tooLarge int64      // the size of its one mail, over what the intake reads: not read
	raws     [][]byte   // the mails read, in order
	rawUIDs  []imap.UID // their UIDs; a mail expunged meanwhile is missing
	err      error
}

// read takes the first of uids that one fetch may hold (see pick) and
// fetches them; a first mail over what the intake reads is taken alone,
// unread.
func (w *Watcher) read(c *imapclient.Client, uids []imap.UID) *batch {
	uids, sizes, err := w.pick(c, uids)
	if err != nil || len(uids) == 0 {
		return &batch{uids: uids, err: err}
	}
	if size := sizes[uids[0]]; size > w.in.Largest() {
		return &batch{uids: uids[:1], tooLarge: size}
	}
	msgs, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{
		UID:         true,
		BodySection: []*imap.FetchItemBodySection{bodySection},
	}).Collect()
	if err != nil {
		return &batch{uids: uids, err: fmt.Errorf("fetch mail: %w", err)}
	}
	slices.SortFunc(msgs, func(a, b *imapclient.FetchMessageBuffer) int { return int(a.UID) - int(b.UID) })
	b := &batch{uids: uids}
	for _, m := range msgs {
		if raw := m.FindBodySection(bodySection); raw != nil { // nil: expunged meanwhile
			b.raws = append(b.raws, raw)
			b.rawUIDs = append(b.rawUIDs, m.UID)
		}
	}
	return b
}

// process hands the mails of the batch to the intake, in order, all in
// one commit, and maps its verdicts: the mails done are moved to the done
// folder, those set aside to the quarantine folder. It returns how many
// of the mails waiting it is done with, none when one of them is to be
// tried again (the mail after it must wait), and then how long to wait.
func (w *Watcher) process(ctx context.Context, c *imapclient.Client, b *batch) (taken int, wait time.Duration, err error) {
	if b.err != nil {
		return 0, 0, b.err
	}
	if b.tooLarge > 0 {
		return w.tooLarge(c, b.uids[0], b.tooLarge)
	}
	taken = len(b.uids)
	if len(b.raws) == 0 || ctx.Err() != nil {
		return taken, 0, nil
	}
	mails := make([]intake.Mail, len(b.raws))
	for i, raw := range b.raws {
		mails[i] = intake.Mail{Raw: raw}
	}
	var done, aside []imap.UID
	for i, v := range w.in.Take(mails, intake.InOrder) {
		switch v.Kind {
		case intake.Done:
			call(w.cfg.OnMail)
			done = append(done, b.rawUIDs[i])
		case intake.SetAside:
			aside = append(aside, b.rawUIDs[i])
		case intake.Retry:
			taken, wait = 0, max(wait, v.After)
		}
	}
	if err := w.moveLater(c, done); err != nil {
		return 0, 0, err
	}
	if err := w.moveTo(c, aside, w.cfg.Quarantine); err != nil {
		return 0, 0, err
	}
	return taken, wait, nil
}

// pick returns the first of uids that one fetch may hold: at most
// BatchBytes together, but always the first mail, and never a mail over
// what the intake reads after others (it is answered alone). It also
// returns the sizes.
func (w *Watcher) pick(c *imapclient.Client, uids []imap.UID) ([]imap.UID, map[imap.UID]int64, error) {
	msgs, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
	if err != nil {
		return nil, nil, fmt.Errorf("fetch mail sizes: %w", err)
	}
	sizes := make(map[imap.UID]int64, len(msgs))
	for _, m := range msgs {
		sizes[m.UID] = m.RFC822Size
	}
	var total int64
	for i, u := range uids {
		size, ok := sizes[u]
		if !ok { // expunged meanwhile
			continue
		}
		if i > 0 && (size > w.in.Largest() || total+size > w.cfg.BatchBytes) {
			return uids[:i], sizes, nil
		}
		total += size
	}
	return uids, sizes, nil
}

// tooLarge hands the intake the header of a mail over what it reads, with
// the mail's size, and maps its verdict; the body is never fetched.
func (w *Watcher) tooLarge(c *imapclient.Client, uid imap.UID, size int64) (taken int, wait time.Duration, err error) {
	msgs, err := c.Fetch(imap.UIDSetNum(uid), &imap.FetchOptions{
		UID:         true,
		BodySection: []*imap.FetchItemBodySection{headerSection},
	}).Collect()
	if err != nil {
		return 0, 0, fmt.Errorf("fetch the header of a large mail: %w", err)
	}
	if len(msgs) == 0 {
		return 1, 0, nil // expunged meanwhile
	}
	header := msgs[0].FindBodySection(headerSection)
	v := w.in.Take([]intake.Mail{{Raw: header, Size: size}}, intake.InOrder)[0]
	if v.Kind == intake.Retry {
		return 0, v.After, nil
	}
	return 1, 0, w.moveTo(c, []imap.UID{uid}, w.cfg.Quarantine)
}

// moveTo flags the mails \Seen, then moves them to the folder (done or
// quarantine). The flag comes first so that a failed move still never
// hands a mail over a second time. Without MOVE (RFC 6851) the client
// falls back to COPY, \Deleted and EXPUNGE.
func (w *Watcher) moveTo(c *imapclient.Client, uids []imap.UID, folder string) error {
	if len(uids) == 0 {
		return nil
	}
	set := imap.UIDSetNum(uids...)
	err := c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}, nil).Close()
	if err != nil {
		return fmt.Errorf("flag handled mail \\Seen: %w", err)
	}
	if _, err := c.Move(set, folder).Wait(); err != nil {
		return fmt.Errorf("move handled mail to %s: %w", folder, err)
	}
	if w.cfg.OnMoved != nil && folder == w.cfg.Done {
		w.cfg.OnMoved(len(uids))
	}
	w.log.Debug("mail moved", "count", len(uids), "folder", folder)
	return nil
}

// moveLater moves the mails to the done folder while the caller goes on,
// once the move before it has ended; it returns that move's error.
func (w *Watcher) moveLater(c *imapclient.Client, uids []imap.UID) error {
	if err := w.moved(); err != nil || len(uids) == 0 {
		return err
	}
	w.moving = make(chan error, 1)
	go func(done chan<- error) { done <- w.moveTo(c, uids, w.cfg.Done) }(w.moving)
	return nil
}

// moved waits for the move under way, if any, and returns its error.
func (w *Watcher) moved() error {
	if w.moving == nil {
		return nil
	}
	err := <-w.moving
	w.moving = nil
	return err
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
