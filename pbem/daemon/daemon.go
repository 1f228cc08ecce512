// Package daemon is pbemd serve: it opens the store, builds the service
// and the one intake (pbem/intake) from the configuration, and runs beside
// them until its context ends:
//
//   - the ways in: the IMAP watcher (pbem/mailbox), unless mail comes
//     only over LMTP (config.LMTPOnly), and, when lmtp.listen is set, the
//     LMTP listener (pbem/lmtp); both hand their mails to the
//     intake and only map its verdict (done, retry after a wait, set aside)
//     onto their own means. pbemd deliver is the third way in, run by the
//     MTA outside the daemon, into an intake of its own.
//   - the way out: the outbox sender (pbem/outbox) over SMTP connections,
//     or the embedded server (pbem/devmail) when there is no configuration.
//   - the sweep (every 20 seconds), the robot players (pbem/robot), the
//     read-only web view (pbem/web), the operator's control socket
//     (pbem/admin) and the counters: rooms beside the transports that read
//     the core, which never reads them.
//
// The IMAP watcher, the sender, the sweep and the robots run on one node
// of a store at a time, the leader (lead.go): on bbolt the one process
// there is, on etcd the holder of the election's lease. The ways in over
// LMTP, the web view, the control socket and the metrics run on every
// node.
//
// Whether a mail's sender is vouched for is decided in the service by
// pbem/mailauth, from DKIM or the Authentication-Results of the servers in
// trusted_authserv_ids (docs/trust.md); the daemon only warns at start
// when neither is set, and the embedded server is trusted for its own
// logged-in senders.
//
// The order of events for one mail is: the watcher (or the LMTP listener)
// takes it, the intake hands it to the service, which commits its state
// change and replies (into the outbox) in one transaction, the intake kicks
// the sender, which submits the replies, and the watcher marks the mail
// done (the listener answers 250). A crash anywhere in between loses
// nothing: an unmarked mail is fetched again and recognised as already
// handled, an unsent reply is still in the outbox.
package daemon

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/devmail"
	"github.com/pbemd/pbemd/pbem/intake"
	"github.com/pbemd/pbemd/pbem/lmtp"
	"github.com/pbemd/pbemd/pbem/mailauth"
	"github.com/pbemd/pbemd/pbem/mailbox"
	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/pbem/metrics"
	"github.com/pbemd/pbemd/pbem/outbox"
	"github.com/pbemd/pbemd/pbem/robot"
	"github.com/pbemd/pbemd/store"
)

// EmbeddedAddress is the game server's address in the embedded default.
const EmbeddedAddress = "pbem@localhost"

// Options say how to run. With Config nil the daemon runs the embedded
// default: its own mail server on the loopback interface.
type Options struct {
	Config *config.Config
	Data   string // overrides the data directory when not empty

	// Embedded default only: where its IMAP and SMTP servers listen
	// (defaults 127.0.0.1:1143 and 127.0.0.1:1587).
	IMAPAddr, SMTPAddr string

	// HTTPAddr is where the web view listens, or "off"; empty means the
	// configuration's http setting.
	HTTPAddr string

	Stdout io.Writer    // where the embedded default prints how to use it; default os.Stdout
	Logger *slog.Logger // default: as Config.Log says, on standard error
}

// sweeper is the core's reminder and forfeit sweep, when it has one.
type sweeper interface {
	Sweep(now time.Time) error
}

// Run runs the daemon until ctx ends, then stops cleanly: a mail being
// handled is finished, a reply being sent is finished or left queued. It
// returns an error only when it cannot start.
func Run(ctx context.Context, opts Options) error {
	cfg, embedded := settings(opts)
	PaceCollector()
	log := opts.Logger
	if log == nil {
		log = cfg.Log.Logger(os.Stderr)
	}

	db, err := openStore(cfg, log)
	if err != nil {
		return err
	}
	defer db.Close()
	defer watchMemory(ctx, db, log)()
	var robots atomic.Pointer[robot.Worker] // set below, for its gauge
	var leading atomic.Bool                 // while the once-only work runs here
	m := newMetrics(db, &robots, &leading)

	sc := cfg.Service(log)
	sc.OnMoves = func(n int) { m.Moves.Add(float64(n)) }
	sc.OnBounce = m.Bounces.Inc
	svc := pbem.New(db, sc)
	var running atomic.Pointer[outbox.Sender] // set below; admin actions before that only queue
	stopControl, err := serveControl(cfg.Data, db, log, adminOn(svc, db, log, func() {
		if s := running.Load(); s != nil {
			s.Kick()
		}
	}))
	if err != nil {
		return err
	}
	defer stopControl()
	webURL, stopWeb, err := startWeb(webAddr(opts, cfg), db, cfg, svc.Unsubscribe, log)
	if err != nil {
		return err
	}
	defer stopWeb()

	watch, conns, closeMail, err := mailServers(opts, cfg, embedded, webURL)
	if err != nil {
		return err
	}
	defer closeMail()
	metrics, err := serveMetrics(cfg.Metrics, cfg.Pprof, m, log)
	if err != nil {
		return err
	}

	sender := newSender(db, conns, cfg, svc.Tokens(), m, log)
	running.Store(sender)
	worker, err := startRobots(svc, cfg, sender, log)
	if err != nil {
		return err
	}
	robots.Store(worker)
	in := newIntake(svc, cfg, watch, sender, m, log)
	var watcher *mailbox.Watcher // nil: no mailbox, mail comes over LMTP alone
	if !cfg.LMTPOnly() {
		watcher = newWatcher(watch, in.Via("imap"), m, log)
	}
	if smtpT, ok := smtpOf(conns[0]); ok && !embedded {
		if err := checkServers(ctx, cfg, watcher, smtpT, log); err != nil {
			return err
		}
	}
	if cfg.LMTP.Listen != "" {
		lm, err := listenLMTP(cfg, in.Via("lmtp"), log)
		if err != nil {
			return err
		}
		defer lm.Close()
	}
	imapAddr := "off"
	if watcher != nil {
		imapAddr = watch.Addr
	}
	logServing(log, cfg, imapAddr, webURL)
	once := onceWork{sender: sender, watcher: watcher, robots: worker, cfg: cfg, m: m, log: log, leading: &leading}
	if sw, ok := any(svc).(sweeper); ok {
		once.sweep = sw
	}
	var wg sync.WaitGroup
	wg.Go(func() { once.lead(ctx, db) })
	<-ctx.Done()
	log.Info("pbemd stopping")
	wg.Wait()
	if metrics != nil {
		metrics.Close()
	}
	log.Info("pbemd stopped")
	return nil
}

// watchMemory gives the store's mapped memory back to the system when
// memory is short while the daemon runs; the function it returns stops it.
func watchMemory(ctx context.Context, db *store.DB, log *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); releaseLoop(ctx, db, memoryCheck, mappedBudget, memoryShort, log) }()
	return func() { cancel(); <-done }
}

// newMetrics makes the daemon's metrics, their gauges read from its store
// and its robots (once they run).
func newMetrics(db *store.DB, robots *atomic.Pointer[robot.Worker], leading *atomic.Bool) *metrics.Metrics {
	read := metrics.Read{
		Waiting:    db.OutboxWaiting,
		Failed:     db.FailedLen,
		StoreBytes: db.Size,
		RobotTurns: func() int {
			if w := robots.Load(); w != nil {
				return w.Waiting()
			}
			return 0
		},
		Leading: leading.Load,
	}
	if _, ok := db.FreePages(); ok {
		read.FreePages = func() int { n, _ := db.FreePages(); return n }
	}
	return metrics.New(Version(), read)
}

// newSender sends the outbox over conns, counting what it sends and
// gives up.
func newSender(db *store.DB, conns []outbox.Transport, cfg *config.Config, tokens *pbem.Tokens, m *metrics.Metrics, log *slog.Logger) *outbox.Sender {
	so := senderOptions(cfg, tokens)
	so.Logger = log.With("part", "outbox")
	so.OnSent = m.RepliesSent.Inc
	so.OnFailure = m.Errors.Inc
	so.OnGiveUp = func() { m.Errors.Inc(); m.RepliesFailed.Inc() }
	return outbox.NewConns(db, conns, so)
}

// newIntake is the one intake every way in ends in: it counts the mails
// by way and verdict, wakes the sender after each commit, and waits out
// a failing mail with the watcher's backoff.
func newIntake(svc *pbem.Service, cfg *config.Config, watch mailbox.Config, sender *outbox.Sender, m *metrics.Metrics, log *slog.Logger) *intake.Intake {
	return intake.New(svc, intake.Options{Largest: cfg.Limits.LargestMail,
		RetryMin: watch.BackoffMin, RetryMax: watch.BackoffMax, Logger: log.With("part", "intake"),
		OnCommit:  func(int) { sender.Kick() },
		OnError:   m.Errors.Inc,
		OnVerdict: func(way string, k intake.Kind) { m.MailIn(way, k.String()) }})
}

// newWatcher reads the IMAP mailbox into the intake, counting its errors
// and reconnections.
func newWatcher(watch mailbox.Config, in *intake.Intake, m *metrics.Metrics, log *slog.Logger) *mailbox.Watcher {
	watch.Logger = log.With("part", "mailbox")
	watch.OnError = m.Errors.Inc
	watch.OnReconnect = m.Reconnects.Inc
	return mailbox.New(watch, in)
}

// settings is the configuration Run works with: the one given, or the
// embedded default's, with the data directory of the options.
func settings(opts Options) (cfg *config.Config, embedded bool) {
	cfg = opts.Config
	if cfg == nil {
		embedded = true
		cfg = config.Default()
		cfg.Address = EmbeddedAddress
		// The embedded server vouches for its logged-in senders and
		// removes any field of its id a mail brings.
		cfg.TrustedAuthservIDs = []string{devmail.AuthservID}
	}
	if opts.Data != "" {
		cfg.Data = opts.Data
	}
	return cfg, embedded
}

// openStore opens the store the configuration names, making the data
// directory when it is new (it holds more than a bbolt store).
func openStore(cfg *config.Config, log *slog.Logger) (*store.DB, error) {
	data := cfg.Data
	if err := os.MkdirAll(data, 0o700); err != nil {
		return nil, err
	}
	db, err := cfg.OpenStore(&store.Options{Log: log})
	if errors.Is(err, store.ErrLocked) {
		return nil, fmt.Errorf("%w; only one pbemd may use the data directory %s at a time", err, data)
	}
	if err == nil {
		adviseCompact(db, log)
	}
	return db, err
}

// manyFreePages is the free list past which the daemon suggests pbemd
// compact when it starts: the list alone is then 4 pages of every commit,
// and a commit's new pages are scattered over the free ones.
const manyFreePages = 2048

// adviseCompact says at start when the store's file keeps many free pages.
func adviseCompact(db *store.DB, log *slog.Logger) {
	if n, ok := db.FreePages(); ok && n >= manyFreePages {
		log.Info("the store keeps many free pages: every commit writes their list and writes among them; pbemd compact, with the daemon stopped, packs the file",
			"free_pages", n, "list_kib", n*8/1024)
	}
}

// mailServers are where the daemon reads and sends mail: the configured
// IMAP and SMTP servers, or the embedded server it starts, with an account
// of its own under a random password. The caller calls stop when done.
// When the configuration is LMTPOnly, no mailbox is read: watch holds
// only the waits, which the intake takes for a failing mail.
func mailServers(opts Options, cfg *config.Config, embedded bool, webURL string) (watch mailbox.Config, conns []outbox.Transport, stop func(), err error) {
	if !embedded {
		if cfg.LMTPOnly() {
			watch = mailbox.Config{BackoffMin: cfg.IMAP.BackoffMin, BackoffMax: cfg.IMAP.BackoffMax}
		} else if watch, err = watchConfig(cfg); err != nil {
			return watch, nil, nil, err
		}
		if conns, err = smtpConns(cfg); err != nil {
			return watch, nil, nil, err
		}
		return watch, conns, func() {}, nil
	}
	dm, err := devmail.Start(devmail.Options{IMAPAddr: opts.IMAPAddr, SMTPAddr: opts.SMTPAddr})
	if err != nil {
		return watch, nil, nil, fmt.Errorf("%w (choose other ports with -imap and -smtp)", err)
	}
	secret := randomSecret()
	dm.AddAccount(cfg.Address, secret)
	watch = mailbox.Config{
		Addr: dm.IMAPAddr, Security: mailconn.Plain, Username: cfg.Address, Password: secret,
		BackoffMin: 100 * time.Millisecond, BackoffMax: 5 * time.Second,
		IdleTimeout: time.Minute, // bounds the race noted at devmail's Idle
	}
	stdout := opts.Stdout
	if stdout == nil {
		stdout = os.Stdout
	}
	printWelcome(stdout, dm, cfg, webURL)
	// In process: one connection is enough.
	return watch, []outbox.Transport{dm.Transport()}, func() { dm.Close() }, nil
}

// serveMetrics serves m at /metrics on addr, a listener of its own apart
// from the web view, when addr is set, and the profiler when pprof is on
// (config.Pprof: on loopback only); the caller closes the server it
// returns.
func serveMetrics(addr string, pprof bool, m *metrics.Metrics, log *slog.Logger) (*http.Server, error) {
	if addr == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w (choose another address with the metrics setting)", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", m.Handler())
	if pprof {
		servePprof(mux)
		log.Info("profiler served", "url", "http://"+ln.Addr().String()+"/debug/pprof/")
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	log.Info("metrics served", "url", "http://"+ln.Addr().String()+"/metrics")
	return srv, nil
}

// listenLMTP takes mail from the MTA over LMTP, as the configuration
// says, into the one intake.
func listenLMTP(cfg *config.Config, in *intake.Intake, log *slog.Logger) (*lmtp.Server, error) {
	l := cfg.LMTP
	// The mail a trusted server vouches for goes first, and the rest is
	// held to a flood's share; with no trusted server, all mail is alike.
	var first func([]byte) bool
	if len(cfg.TrustedAuthservIDs) > 0 {
		first = cfg.Verifier().Trusted
	}
	lm, err := lmtp.Listen(lmtp.Options{Addr: l.Listen, Recipients: []string{cfg.Address},
		SocketMode: os.FileMode(l.SocketMode), SocketGroup: l.SocketGroup,
		Conns: l.Connections, PerPeer: l.ConnectionsPerPeer, Idle: l.IdleTimeout,
		Domain: mailauth.Domain(cfg.Address), Logger: log.With("part", "lmtp"),
		Spool: cfg.LMTPSpool(),
		First: first}, in)
	if err != nil {
		return nil, err
	}
	log.Info("lmtp listening", "addr", lm.Addr().String())
	return lm, nil
}

// logServing says what the daemon serves, and warns when no mail could
// ever be authenticated.
func logServing(log *slog.Logger, cfg *config.Config, imapAddr, webURL string) {
	log.Info("pbemd serving", "address", cfg.Address, "data", cfg.Data, "imap", imapAddr, "web", webURL,
		"trusted_authserv_ids", strings.Join(cfg.TrustedAuthservIDs, ","), "verify_dkim", cfg.VerifyDKIM)
	if len(cfg.TrustedAuthservIDs) == 0 && !cfg.VerifyDKIM {
		log.Warn("no mail can be authenticated: set trusted_authserv_ids to your MTA's id, or verify_dkim: true (docs/trust.md)")
	}
}

// sweepLoop runs the sweep at start and then every interval. A sweep
// that keeps failing (a full disk) is logged when it starts failing, then
// once an hour, and when it works again.
func sweepLoop(ctx context.Context, sw sweeper, interval time.Duration, sender *outbox.Sender, m *metrics.Metrics, log *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	var failing time.Time // when the failures last logged began, or zero
	failed := 0
	for {
		began := time.Now()
		err := sw.Sweep(began)
		m.Swept(time.Since(began))
		if err != nil {
			m.Errors.Inc()
			failed++
			if failing.IsZero() || time.Since(failing) >= time.Hour {
				log.Error("sweep failed", "err", err, "times", failed)
				failing, failed = time.Now(), 0
			}
		} else {
			if !failing.IsZero() {
				log.Info("sweep works again")
				failing, failed = time.Time{}, 0
			}
			sender.Kick()
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func watchConfig(cfg *config.Config) (mailbox.Config, error) {
	tc, err := cfg.IMAP.TLSConfig()
	if err != nil {
		return mailbox.Config{}, fmt.Errorf("imap: %w", err)
	}
	return mailbox.Config{
		Addr:         cfg.IMAP.Addr(),
		Security:     cfg.IMAP.Security,
		TLSConfig:    tc,
		Username:     cfg.IMAP.Username,
		Password:     cfg.IMAP.Password.Reveal(),
		Mailbox:      cfg.IMAP.Mailbox,
		Done:         cfg.IMAP.DoneFolder,
		Quarantine:   cfg.IMAP.QuarantineFolder,
		Batch:        cfg.IMAP.Batch,
		BatchBytes:   cfg.IMAP.BatchBytes,
		PollInterval: cfg.IMAP.PollInterval,
		IdleTimeout:  cfg.IMAP.IdleTimeout,
		BackoffMin:   cfg.IMAP.BackoffMin,
		BackoffMax:   cfg.IMAP.BackoffMax,
	}, nil
}

// senderOptions are the retry settings of a configuration's outbox, and
// the return path and List-Unsubscribe each copy gets as it leaves, made
// by the service's tokens.
func senderOptions(cfg *config.Config, tokens *pbem.Tokens) outbox.Options {
	return outbox.Options{
		RetryMin:    cfg.SMTP.RetryMin,
		RetryMax:    cfg.SMTP.RetryMax,
		GiveUpAfter: cfg.SMTP.GiveUpAfter,
		Stamp:       tokens.Stamp,
	}
}

// SendQueued sends the outbox once through the configuration's SMTP server,
// for the commands that run once ("pbemd deliver", "pbemd sweep"). What
// cannot be sent now stays queued, with its retry time, for the next run or
// for "pbemd serve"; so only a bad configuration is an error.
//
// The replies of one mail go over one connection: more would log in
// several times for two or three mails. A backlog (a sweep's mails, or
// mails left by an earlier run) goes over smtp.connections.
func SendQueued(ctx context.Context, db *store.DB, cfg *config.Config) error {
	conns, err := smtpConns(cfg)
	if err != nil {
		return err
	}
	if due, err := db.Pending(time.Now(), 0, sendQueuedAlone+1); err == nil && copies(due) <= sendQueuedAlone {
		conns = conns[:1]
	}
	outbox.NewConns(db, conns, senderOptions(cfg, pbem.NewTokens(db, cfg.Service(nil)))).Drain(ctx)
	return nil
}

// sendQueuedAlone is the most mails due (a mail in copies counting each)
// that SendQueued sends over one connection.
const sendQueuedAlone = 16

// copies counts the mails to send: each copy of a mail in copies.
func copies(ms []store.Outgoing) int {
	n := 0
	for _, m := range ms {
		if m.ToAt > 0 {
			n += len(m.To)
		} else {
			n++
		}
	}
	return n
}

// smtpOf is the SMTP submission connection of a transport, signed or not.
func smtpOf(t outbox.Transport) (*outbox.SMTP, bool) {
	if s, ok := t.(outbox.Signed); ok {
		t = s.Transport
	}
	smtp, ok := t.(*outbox.SMTP)
	return smtp, ok
}

// smtpConns are the SMTP submission connections of a configuration
// (smtp.connections), each an *outbox.SMTP, signing with the dkim key
// when one is configured.
func smtpConns(cfg *config.Config) ([]outbox.Transport, error) {
	tc, err := cfg.SMTP.TLSConfig()
	if err != nil {
		return nil, fmt.Errorf("smtp: %w", err)
	}
	signer, err := cfg.Signer()
	if err != nil {
		return nil, err
	}
	var conns []outbox.Transport
	for range max(cfg.SMTP.Connections, 1) {
		var t outbox.Transport = &outbox.SMTP{
			Addr:      cfg.SMTP.Addr(),
			Security:  cfg.SMTP.Security,
			TLSConfig: tc,
			Username:  cfg.SMTP.Username,
			Password:  cfg.SMTP.Password.Reveal(),
		}
		if signer != nil {
			t = outbox.Signed{Transport: t, Sign: signer.Sign}
		}
		conns = append(conns, t)
	}
	return conns, nil
}

func randomSecret() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// printWelcome tells how to use the embedded default.
func printWelcome(w io.Writer, dm *devmail.Server, cfg *config.Config, webURL string) {
	fmt.Fprintf(w, `pbemd is running with its embedded mail server (nothing leaves this machine).
Game data in %s; the game server's address is %s.

  IMAP  %s  no TLS; user name: your address (any name@localhost), password: %s
  SMTP  %s  no TLS; log in as for IMAP, or your mail is not trusted
  Web   %s  the games and boards, read-only

Point a mail client at these, or send the first mail from a shell:

curl -s smtp://%s --user alice@localhost:%s --mail-from alice@localhost --mail-rcpt %s -T - <<EOF
From: alice@localhost
To: %s
Subject: signup alice secret
Message-ID: <$(date +%%s.%%N)@localhost>

EOF

The reply lands in alice@localhost's INBOX. Then mail "help", or sign up bob
and challenge him: "ultima challenge alice bob". Mail sent without logging
in as its From address may play with a password, not act for others
(docs/trust.md). Stop with Ctrl-C.
`, cfg.Data, cfg.Address, dm.IMAPAddr, devmail.DefaultPassword, dm.SMTPAddr, orOff(webURL),
		dm.SMTPAddr, devmail.DefaultPassword, cfg.Address, cfg.Address)
}
