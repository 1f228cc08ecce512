package mailbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"github.com/pbemd/pbemd/pbem/devmail"
	"github.com/pbemd/pbemd/pbem/intake"
	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/tests/imaptest"
	"github.com/pbemd/pbemd/tests/tcpproxy"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

const (
	box  = "pbem@localhost"
	pass = "daemon-secret"
)

// recorder is a service for the intake (intake.Service) that records the
// subjects it was given and can be told to fail.
type recorder struct {
	batches  atomic.Int32 // HandleAll calls
	mu       sync.Mutex
	subjects []string // distinct mails, in the order handled
	repeats  int      // mails handed over again
	fail     func(subject string) error
	got      chan string

	check       func() error   // nil: the store works
	quarantined []string       // subjects given to Quarantine
	tooLarge    []string       // headers given to TooLarge
	failures    map[string]int // failures counted per subject, as the store counts them
}

func (r *recorder) Quarantine(raw []byte, why string, keep bool) ([]uint64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.check != nil {
		if err := r.check(); err != nil {
			return nil, err
		}
	}
	r.quarantined = append(r.quarantined, imaptest.Header(raw, "Subject"))
	return nil, nil
}

func (r *recorder) TooLarge(header []byte, size, limit int64) ([]uint64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tooLarge = append(r.tooLarge, fmt.Sprintf("%s size=%d limit=%d", header, size, limit))
	return nil, nil
}

func (r *recorder) CountFailure(raw []byte, most int) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	subj := imaptest.Header(raw, "Subject")
	r.failures[subj]++
	n := r.failures[subj]
	if n >= most {
		delete(r.failures, subj)
	}
	return n, nil
}

func (r *recorder) Check() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.check != nil {
		return r.check()
	}
	return nil
}

// Quarantined returns the subjects of the mails quarantined so far.
func (r *recorder) Quarantined() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.quarantined...)
}

func newRecorder() *recorder {
	return &recorder{got: make(chan string, 1000), failures: map[string]int{}}
}

// record notes a mail as handled. A mail handed over again (its move was
// cut off) is recognised, as the service recognises it by Message-ID, and
// counted apart.
func (r *recorder) record(subj string) {
	r.mu.Lock()
	if slices.Contains(r.subjects, subj) {
		r.repeats++
		r.mu.Unlock()
		return
	}
	r.subjects = append(r.subjects, subj)
	r.mu.Unlock()
	r.got <- subj
}

// HandleAll behaves as one transaction, as the service's does: the first
// mail that fails fails the whole batch, and nothing of it is recorded.
func (r *recorder) HandleAll(raws [][]byte) ([][]uint64, []error) {
	r.batches.Add(1)
	errs := make([]error, len(raws))
	r.mu.Lock()
	fail := r.fail
	r.mu.Unlock()
	for _, raw := range raws {
		if fail == nil {
			break
		}
		if err := fail(imaptest.Header(raw, "Subject")); err != nil {
			for i := range errs {
				errs[i] = fmt.Errorf("batch not stored: %w", err)
			}
			return make([][]uint64, len(raws)), errs
		}
	}
	for _, raw := range raws {
		r.record(imaptest.Header(raw, "Subject"))
	}
	return make([][]uint64, len(raws)), errs
}

func (r *recorder) Subjects() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.subjects...)
}

// waitFor waits until the handler has taken n mails in all.
func (r *recorder) waitFor(t *testing.T, n int) []string {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for len(r.Subjects()) < n {
		select {
		case <-r.got:
		case <-deadline:
			t.Fatalf("handler got %d mails; want %d: %q", len(r.Subjects()), n, r.Subjects())
		}
	}
	return r.Subjects()
}

func startServer(t testing.TB) *devmail.Server {
	t.Helper()
	s, err := devmail.Start(devmail.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	s.AddAccount(box, pass)
	t.Cleanup(func() { s.Close() })
	return s
}

func mail(s *devmail.Server, subject string) error {
	data := fmt.Sprintf("From: alice@localhost\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s@localhost>\r\n\r\nbody\r\n",
		box, subject, strings.ReplaceAll(subject, " ", "."))
	return s.Deliver("alice@localhost", []string{box}, []byte(data))
}

// watch runs a watcher on the service until stop is called. The intake
// between them retries with the watcher's backoff, reads at most largest
// bytes of a mail when given, and counts its failures with cfg.OnError.
func watch(t testing.TB, cfg Config, svc intake.Service, largest ...int64) (stop func()) {
	t.Helper()
	cfg.Username, cfg.Password, cfg.Security = box, pass, mailconn.Plain
	cfg.Logger = quiet
	if cfg.BackoffMin == 0 {
		cfg.BackoffMin = 10 * time.Millisecond
		cfg.BackoffMax = 50 * time.Millisecond
	}
	opts := intake.Options{RetryMin: cfg.BackoffMin, RetryMax: cfg.BackoffMax, OnError: cfg.OnError, Logger: quiet}
	if len(largest) > 0 {
		opts.Largest = largest[0]
	}
	in := intake.New(svc, opts)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- New(cfg, in).Run(ctx) }()
	return func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Run did not stop after its context ended")
		}
	}
}

func read(t *testing.T, s *devmail.Server, mailbox string) []imaptest.Message {
	t.Helper()
	msgs, err := imaptest.Read(s.IMAPAddr, box, pass, mailbox)
	if err != nil {
		t.Fatalf("read %s: %v", mailbox, err)
	}
	return msgs
}

func subjects(n int, format string) []string {
	var s []string
	for i := 1; i <= n; i++ {
		s = append(s, fmt.Sprintf(format, i))
	}
	return s
}

// waitDone waits until the done folder holds n mails.
func waitDone(t *testing.T, s *devmail.Server, n int) []imaptest.Message {
	t.Helper()
	return waitFolder(t, s, "pbem-done", n)
}

// waitFolder waits until the folder holds n mails.
func waitFolder(t *testing.T, s *devmail.Server, folder string, n int) []imaptest.Message {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		msgs, err := imaptest.Read(s.IMAPAddr, box, pass, folder)
		if err == nil && len(msgs) >= n || time.Now().After(deadline) {
			return msgs
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestBacklogAndIdle(t *testing.T) {
	t.Parallel()
	for _, idle := range []bool{true, false} {
		t.Run(fmt.Sprintf("idle=%v", idle), func(t *testing.T) {
			s := startServer(t)
			for _, subj := range subjects(25, "old %d") {
				if err := mail(s, subj); err != nil {
					t.Fatal(err)
				}
			}
			r := newRecorder()
			var moved, handled atomic.Int32
			cfg := Config{Addr: s.IMAPAddr, Batch: 10, NoIdle: !idle,
				OnMail: func() { handled.Add(1) }, OnMoved: func(n int) { moved.Add(int32(n)) }}
			if idle {
				cfg.PollInterval = time.Hour // only IDLE can wake it
			} else {
				cfg.PollInterval = 20 * time.Millisecond
			}
			stop := watch(t, cfg, r)
			defer stop()
			r.waitFor(t, 25)
			// New mail while the watcher waits.
			for _, subj := range subjects(5, "new %d") {
				if err := mail(s, subj); err != nil {
					t.Fatal(err)
				}
			}
			got := r.waitFor(t, 30)
			want := append(subjects(25, "old %d"), subjects(5, "new %d")...)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("handled in order\n%q\nwant\n%q", got, want)
			}
			done := waitDone(t, s, 30)
			if len(done) != 30 {
				t.Fatalf("done folder holds %d mails; want 30", len(done))
			}
			for _, m := range done {
				if !m.Seen() {
					t.Errorf("mail %q moved without \\Seen", imaptest.Header(m.Data, "Subject"))
				}
			}
			if inbox := read(t, s, "INBOX"); len(inbox) != 0 {
				t.Errorf("INBOX still holds %d mails", len(inbox))
			}
			// The server has moved the mail before its answer reaches the
			// watcher, which counts the move only then.
			for deadline := time.Now().Add(5 * time.Second); moved.Load() < 30 && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
			if handled.Load() != 30 || moved.Load() != 30 {
				t.Errorf("counters: handled %d, moved %d; want 30, 30", handled.Load(), moved.Load())
			}
		})
	}
}

// A failing handler: the mail stays unseen and is retried, and no later
// mail overtakes it, in one batch or in a backlog of several, the next
// read while one is handled.
func TestHandlerFailureKeepsOrder(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		mails, batch int
		failing      string
		errors       int32 // OnError calls; 0: not counted
	}{
		{mails: 4, failing: "m 2", errors: 2},
		{mails: 35, batch: 10, failing: "m 12"},
	} {
		t.Run(fmt.Sprintf("%d mails, batch %d", c.mails, c.batch), func(t *testing.T) {
			s := startServer(t)
			r := newRecorder()
			var failures atomic.Int32
			r.fail = func(subj string) error {
				if subj == c.failing && failures.Add(1) <= 2 {
					return errors.New("disk full")
				}
				return nil
			}
			for _, subj := range subjects(c.mails, "m %d") {
				mail(s, subj)
			}
			var errs atomic.Int32
			stop := watch(t, Config{Addr: s.IMAPAddr, Batch: c.batch, OnError: func() { errs.Add(1) }}, r)
			defer stop()
			got := r.waitFor(t, c.mails)
			if fmt.Sprint(got) != fmt.Sprint(subjects(c.mails, "m %d")) {
				t.Errorf("handled %q; want m 1..%d in order", got, c.mails)
			}
			if c.errors > 0 && errs.Load() != c.errors {
				t.Errorf("OnError called %d times; want %d", errs.Load(), c.errors)
			}
			if n := len(waitDone(t, s, c.mails)); n != c.mails {
				t.Errorf("done folder holds %d; want %d", n, c.mails)
			}
		})
	}
}

// A mail that keeps failing while the handler works is answered and moved
// to the quarantine folder, and does not block the others.
func TestPoisonMailQuarantined(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	r := newRecorder()
	r.fail = func(subj string) error {
		if subj == "m 2" {
			return errors.New("cannot parse")
		}
		return nil
	}
	for _, subj := range subjects(3, "m %d") {
		mail(s, subj)
	}
	stop := watch(t, Config{Addr: s.IMAPAddr}, r)
	defer stop()
	got := r.waitFor(t, 2)
	if fmt.Sprint(got) != `[m 1 m 3]` {
		t.Errorf("handled %q; want m 1 and m 3", got)
	}
	waitDone(t, s, 2)
	if q := waitFolder(t, s, "pbemd-quarantine", 1); len(q) != 1 || imaptest.Header(q[0].Data, "Subject") != "m 2" {
		t.Errorf("quarantine folder = %v; want m 2", q)
	}
	if q := r.Quarantined(); fmt.Sprint(q) != "[m 2]" {
		t.Errorf("Quarantine called for %q; want m 2 once", q)
	}
	if inbox := read(t, s, "INBOX"); len(inbox) != 0 {
		t.Errorf("INBOX still holds %d mails", len(inbox))
	}
}

// Connections cut while idling and refused for a while: the watcher
// reconnects and handles the mail that came meanwhile.
func TestReconnect(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	p, err := tcpproxy.Start(s.IMAPAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	r := newRecorder()
	var reconnects atomic.Int32
	stop := watch(t, Config{Addr: p.Addr, PollInterval: time.Hour,
		OnReconnect: func() { reconnects.Add(1) }}, r)
	defer stop()
	mail(s, "before")
	r.waitFor(t, 1)
	for i := 1; i <= 3; i++ {
		p.SetDown(true)
		p.Cut()
		time.Sleep(30 * time.Millisecond)
		mail(s, fmt.Sprintf("while down %d", i))
		p.SetDown(false)
		r.waitFor(t, 1+i)
	}
	if n := reconnects.Load(); n != 3 {
		t.Errorf("%d reconnects counted; want 3, one for each connection cut (failed attempts are no reconnects)", n)
	}
	if n := len(waitDone(t, s, 4)); n != 4 {
		t.Errorf("done folder holds %d; want 4", n)
	}
}

func TestStopWhileIdle(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	stop := watch(t, Config{Addr: s.IMAPAddr, PollInterval: time.Hour}, newRecorder())
	time.Sleep(50 * time.Millisecond)
	stop() // fails the test if Run does not return
}

func TestWrongPasswordRetries(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	var errs atomic.Int32
	cfg := Config{Addr: s.IMAPAddr, Username: box, Password: "wrong", Security: mailconn.Plain, Logger: quiet,
		BackoffMin: 5 * time.Millisecond, BackoffMax: 10 * time.Millisecond, OnError: func() { errs.Add(1) }}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := New(cfg, intake.New(newRecorder(), intake.Options{Logger: quiet})).Run(ctx); err != nil {
		t.Errorf("Run = %v; want nil after its context ended", err)
	}
	if errs.Load() < 2 {
		t.Errorf("%d failed logins counted; want it to keep trying", errs.Load())
	}
}

func TestPlainToRemoteRefused(t *testing.T) {
	t.Parallel()
	w := New(Config{Addr: "192.0.2.1:143", Security: mailconn.Plain, Logger: quiet}, intake.New(newRecorder(), intake.Options{Logger: quiet}))
	_, err := w.dial(context.Background())
	if err == nil || !strings.Contains(err.Error(), "refusing to log in unencrypted") {
		t.Errorf("err = %v; want a refusal", err)
	}
}

// A backlog is handed over in batches, one commit each, in arrival order.
func TestBacklogInBatches(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	r := newRecorder()
	for _, subj := range subjects(25, "m %d") {
		mail(s, subj)
	}
	stop := watch(t, Config{Addr: s.IMAPAddr, Batch: 10}, r)
	defer stop()
	got := r.waitFor(t, 25)
	if fmt.Sprint(got) != fmt.Sprint(subjects(25, "m %d")) {
		t.Errorf("handled %q; want m 1..25 in order", got)
	}
	if n := r.batches.Load(); n != 3 {
		t.Errorf("the backlog took %d HandleAll calls; want 3 (batches of 10)", n)
	}
	waitDone(t, s, 25)
}

// A mail flagged \Seen but still in the mailbox (its move was cut off, or a
// person read it in a webmail) is still work: it is handed over and moved.
func TestSeenMailStillInMailboxIsMoved(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	r := newRecorder()
	data := fmt.Sprintf("From: alice@localhost\r\nTo: %s\r\nSubject: seen\r\nMessage-ID: <seen@localhost>\r\n\r\nbody\r\n", box)
	if err := imaptest.Append(s.IMAPAddr, box, pass, "INBOX", []byte(data), imap.FlagSeen); err != nil {
		t.Fatal(err)
	}
	mail(s, "m 1")
	stop := watch(t, Config{Addr: s.IMAPAddr}, r)
	defer stop()
	if got := r.waitFor(t, 2); fmt.Sprint(got) != "[seen m 1]" {
		t.Errorf("handled %q; want the seen mail, then m 1", got)
	}
	waitDone(t, s, 2)
	if inbox := read(t, s, "INBOX"); len(inbox) != 0 {
		t.Errorf("INBOX still holds %d mails", len(inbox))
	}
}
