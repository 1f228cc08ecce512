package lmtp

import (
	"bufio"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/pbemd/pbemd/pbem/intake"
)

// recorder is a service (intake.Service) that records what was committed
// and how.
type recorder struct {
	mu      sync.Mutex
	stored  []string      // the Subject of each mail stored, in order
	batches []int         // the size of each HandleAll
	aside   []string      // the Subject of each mail quarantined or too large
	fail    string        // a subject whose mail the store refuses
	hold    chan struct{} // when set, each commit waits for it to close
	entered chan int      // when set, told of each commit begun and its mails
	holding []string      // the Subjects of the last commit begun
}

func (r *recorder) HandleAll(raws [][]byte) ([][]uint64, []error) {
	r.mu.Lock()
	r.holding = r.holding[:0]
	for _, raw := range raws {
		r.holding = append(r.holding, subject(raw))
	}
	r.mu.Unlock()
	if r.entered != nil {
		r.entered <- len(raws)
	}
	if r.hold != nil {
		<-r.hold
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.batches = append(r.batches, len(raws))
	errs := make([]error, len(raws))
	for _, raw := range raws {
		if r.fail != "" && strings.Contains(string(raw), r.fail) {
			// A failed transaction stores none of the batch.
			for j := range errs {
				errs[j] = errors.New("storing mail: refused")
			}
			return make([][]uint64, len(raws)), errs
		}
	}
	for _, raw := range raws {
		r.stored = append(r.stored, subject(raw))
	}
	return make([][]uint64, len(raws)), errs
}

func (r *recorder) Quarantine(raw []byte, why string, keep bool) ([]uint64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.aside = append(r.aside, subject(raw))
	return nil, nil
}

func (r *recorder) TooLarge(header []byte, size, limit int64) ([]uint64, error) {
	return r.Quarantine(header, "too large", false)
}

// CountFailure counts nothing: a mail the recorder refuses is refused
// every time, and is tried again, never set aside.
func (r *recorder) CountFailure([]byte, int) (int, error) { return 1, nil }

func (r *recorder) Check() error { return nil }

func subject(raw []byte) string {
	_, rest, _ := strings.Cut(string(raw), "Subject: ")
	s, _, _ := strings.Cut(rest, "\r\n")
	return s
}

var quiet = slog.New(slog.DiscardHandler)

// start serves the recorder over LMTP on loopback, through an intake
// reading at most largest bytes of a mail when given.
func start(t *testing.T, r *recorder, opts Options, largest ...int64) *Server {
	t.Helper()
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	opts.Recipients = []string{"pbem@example.org"}
	opts.Logger = quiet
	s, err := Listen(opts, newIntake(r, largest...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if r.hold != nil {
		// A test that fails while a commit is held must still let
		// Close end (cleanups run last registered first).
		t.Cleanup(func() {
			select {
			case <-r.hold:
			default:
				close(r.hold)
			}
		})
	}
	return s
}

// send delivers one mail over LMTP with go-smtp's client and returns the
// server's answer to its data (nil: accepted).
func send(t *testing.T, addr net.Addr, to, subj string) error {
	t.Helper()
	conn, err := net.Dial("tcp", addr.String())
	if err != nil {
		t.Fatal(err)
	}
	return sendTo(t, conn, to, subj)
}

// sendOn delivers one mail for the server's address on conn.
func sendOn(t *testing.T, conn net.Conn, subj string) error {
	t.Helper()
	return sendTo(t, conn, "pbem@example.org", subj)
}

func sendTo(t *testing.T, conn net.Conn, to, subj string) error {
	t.Helper()
	c := smtp.NewClientLMTP(conn)
	defer c.Close()
	if err := c.Hello("mta.example.org"); err != nil {
		t.Fatal(err)
	}
	if err := c.Mail("alice@example.org", nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Rcpt(to, nil); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(w, "From: alice@example.org\r\nTo: %s\r\nSubject: %s\r\n\r\nbody\r\n", to, subj)
	_, err = w.CloseWithLMTPResponse()
	if err == nil {
		c.Quit()
	}
	return err
}

func newIntake(r *recorder, largest ...int64) *intake.Intake {
	opts := intake.Options{Logger: quiet}
	if len(largest) > 0 {
		opts.Largest = largest[0]
	}
	return intake.New(r, opts)
}

func code(err error) int {
	var e *smtp.SMTPError
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

// A mail is acknowledged once stored: after the 250, the store has it.
func TestAcknowledgedAfterCommit(t *testing.T) {
	t.Parallel()
	r := &recorder{}
	s := start(t, r, Options{})
	if err := send(t, s.Addr(), "PBEM@example.org", "help"); err != nil {
		t.Fatalf("a mail for the server: %v", err)
	}
	r.mu.Lock()
	got := fmt.Sprint(r.stored)
	r.mu.Unlock()
	if got != "[help]" {
		t.Errorf("stored %s when the mail was acknowledged; want [help]", got)
	}
	if err := send(t, s.Addr(), "bob@example.org", "help"); code(err) != 550 {
		t.Errorf("a mail for another address: %v; want 550", err)
	}
}

// waitQueued waits until n mails wait in the server's queue.
func waitQueued(t *testing.T, s *Server, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(s.jobs) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d mails queued; want %d", len(s.jobs), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// Mails arriving together commit together, and each sender hears of its
// own mail only: one the store refuses gets 451, the others 250.
func TestGroupCommit(t *testing.T) {
	t.Parallel()
	r := &recorder{hold: make(chan struct{}), entered: make(chan int, 100), fail: "bad"}
	s := start(t, r, Options{})
	var wg sync.WaitGroup
	errs := make([]error, 20)
	for i := range errs {
		wg.Go(func() {
			subj := fmt.Sprintf("mail %d", i)
			if i == 7 {
				subj = "bad mail"
			}
			errs[i] = send(t, s.Addr(), "pbem@example.org", subj)
		})
	}
	// The first commit holds while the others queue up.
	first := <-r.entered
	waitQueued(t, s, len(errs)-first)
	close(r.hold)
	wg.Wait()
	for i, err := range errs {
		if i == 7 && code(err) != 451 {
			t.Errorf("the mail the store refuses: %v; want 451", err)
		}
		if i != 7 && err != nil {
			t.Errorf("mail %d: %v", i, err)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.stored) != 19 {
		t.Errorf("%d mails stored; want 19", len(r.stored))
	}
	largest := 0
	for _, n := range r.batches {
		largest = max(largest, n)
	}
	if largest < 10 {
		t.Errorf("batches %v: the waiting mails were not committed together", r.batches)
	}
}

// While the store is busy and the queue is full, a mail gets 451 at once,
// and the MTA keeps it; the mails accepted are stored when the store
// frees.
func TestBusy(t *testing.T) {
	t.Parallel()
	r := &recorder{hold: make(chan struct{}), entered: make(chan int, 10)}
	s := start(t, r, Options{Queue: 1, Batch: 1})
	first, second := make(chan error), make(chan error)
	go func() { first <- send(t, s.Addr(), "pbem@example.org", "one") }()
	<-r.entered // "one" is being committed
	go func() { second <- send(t, s.Addr(), "pbem@example.org", "two") }()
	waitQueued(t, s, 1) // "two" waits
	if err := send(t, s.Addr(), "pbem@example.org", "three"); code(err) != 451 {
		t.Errorf("a mail while the store is busy: %v; want 451", err)
	}
	close(r.hold)
	for _, ch := range []chan error{first, second} {
		if err := <-ch; err != nil {
			t.Errorf("a queued mail: %v", err)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if fmt.Sprint(r.stored) != "[one two]" {
		t.Errorf("stored %v; want [one two]", r.stored)
	}
}

// The mails read and not yet committed are bounded in bytes: while the
// store is busy, a mail that would pass the bound gets 451 and the MTA
// keeps it, however many connections bring mail.
func TestMemoryBound(t *testing.T) {
	t.Parallel()
	r := &recorder{hold: make(chan struct{}), entered: make(chan int, 10)}
	s := start(t, r, Options{Memory: 1 << 20, Batch: 1}, 1<<20)
	big := strings.Repeat(strings.Repeat("x", 98)+"\r\n", 6<<10) // 600 KiB
	first := make(chan error)
	go func() { first <- send(t, s.Addr(), "pbem@example.org", "one\r\n\r\n"+big) }()
	select {
	case <-r.entered: // "one" holds 600 KiB and more while its commit waits
	case err := <-first:
		t.Fatalf("a mail within the memory bound: %v", err)
	}
	if err := send(t, s.Addr(), "pbem@example.org", "two\r\n\r\n"+big); code(err) != 451 {
		t.Errorf("a mail past the memory bound: %v; want 451", err)
	}
	close(r.hold)
	if err := <-first; err != nil {
		t.Errorf("the mail within the bound: %v", err)
	}
	// Once the first is committed its bytes are free again.
	if err := send(t, s.Addr(), "pbem@example.org", "three\r\n\r\n"+big); err != nil {
		t.Errorf("a mail after the memory was freed: %v", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if got := fmt.Sprint(r.stored); got != "[one three]" {
		t.Errorf("stored %s; want [one three]", got)
	}
}

// Close right after Listen must return: go-smtp registers the listener
// only once Serve runs, so a Close before that leaves Accept blocked.
func TestCloseRightAfterListen(t *testing.T) {
	t.Parallel()
	for i := range 200 {
		s, err := Listen(Options{Addr: "127.0.0.1:0", Recipients: []string{"pbem@example.org"},
			Logger: quiet}, newIntake(&recorder{}))
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { s.Close(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("Close after Listen hung (try %d)", i)
		}
	}
}

// Close with every slot busy and a connection waiting returns.
func TestCloseWithAllSlotsBusy(t *testing.T) {
	t.Parallel()
	s, err := Listen(Options{Addr: "127.0.0.1:0", Recipients: []string{"pbem@example.org"},
		Logger: quiet, Conns: 1}, newIntake(&recorder{}))
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		c, err := net.Dial("tcp", s.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	time.Sleep(100 * time.Millisecond)
	done := make(chan struct{})
	go func() { s.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close with all slots busy hung")
	}
}

// A mail within the largest read, with Memory at that size ("never below
// the largest mail read"), is accepted by an idle server.
func TestMailWithinLargestFitsMemory(t *testing.T) {
	t.Parallel()
	s := start(t, &recorder{}, Options{Memory: 1536 << 10}, 1536<<10)
	big := strings.Repeat(strings.Repeat("x", 98)+"\r\n", 12<<10) // 1.2 MiB
	if err := send(t, s.Addr(), "pbem@example.org", "one\r\n\r\n"+big); err != nil {
		t.Errorf("a 1.2 MiB mail, MaxBytes and Memory 1.5 MiB, idle server: %v; want accepted", err)
	}
}

// A session kept alive with NOOPs ends at its longest, freeing its slot
// for a waiting MTA.
func TestSessionEndsAtItsLongest(t *testing.T) {
	t.Parallel()
	s := start(t, &recorder{}, Options{Conns: 1, Session: 300 * time.Millisecond})
	c, err := net.Dial("tcp", s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	c.SetDeadline(time.Now().Add(10 * time.Second))
	br.ReadString('\n') // the greeting
	ended := false
	for range 50 {
		if _, err := fmt.Fprintf(c, "NOOP\r\n"); err != nil {
			ended = true
			break
		}
		if _, err := br.ReadString('\n'); err != nil {
			ended = true
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !ended {
		t.Fatal("a session of NOOPs lasted 2.5 s; want it ended after 300 ms")
	}
	if err := send(t, s.Addr(), "pbem@example.org", "after"); err != nil {
		t.Errorf("a mail once the NOOP session ended: %v", err)
	}
}

// Mails Options.First picks are committed in a transaction of their own
// ahead of the others of their batch: a player's vouched mail does not
// wait on the forged mail that arrived with it.
func TestFirstCommittedAhead(t *testing.T) {
	t.Parallel()
	r := &recorder{hold: make(chan struct{}), entered: make(chan int, 100)}
	s := start(t, r, Options{First: func(raw []byte) bool { return strings.Contains(string(raw), "player") }})
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Go(func() {
			subj := fmt.Sprintf("forged %d", i)
			if i == 6 {
				subj = "player's move"
			}
			if err := send(t, s.Addr(), "pbem@example.org", subj); err != nil {
				t.Errorf("%s: %v", subj, err)
			}
		})
	}
	first := <-r.entered // one commit holds while the others queue up
	r.mu.Lock()
	held := slices.Contains(r.holding, "player's move")
	r.mu.Unlock()
	if !held {
		// Else the player's mail went ahead of the others of a gathered
		// batch (lmtp's gather), which wait in the commit goroutine.
		waitQueued(t, s, 10-first)
	}
	close(r.hold)
	wg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	i := slices.Index(r.stored, "player's move")
	if held && (first == 1 || i < first) {
		return // it was in the commit that held, alone or with those before it
	}
	// The commit after the held one is the player's mail, alone.
	if i != first || len(r.batches) < 2 || r.batches[1] != 1 {
		t.Errorf("stored %v in batches %v: the player's mail did not go ahead alone", r.stored, r.batches)
	}
}
