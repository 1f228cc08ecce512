package lmtp

import (
	"bufio"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// recorder is a Deliverer that records what was committed and how.
type recorder struct {
	mu      sync.Mutex
	stored  []string      // the Subject of each mail stored, in order
	batches []int         // the size of each DeliverAll
	fail    string        // a subject whose mail the store refuses
	hold    chan struct{} // when set, each commit waits for it to close
	entered chan int      // when set, told of each commit begun and its mails
}

func (r *recorder) DeliverAll(raws [][]byte) []error {
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
			return errs
		}
	}
	for _, raw := range raws {
		r.stored = append(r.stored, subject(raw))
	}
	return errs
}

func (r *recorder) Deliver(raw []byte) error { return r.DeliverAll([][]byte{raw})[0] }

func subject(raw []byte) string {
	_, rest, _ := strings.Cut(string(raw), "Subject: ")
	s, _, _ := strings.Cut(rest, "\r\n")
	return s
}

func start(t *testing.T, d Deliverer, opts Options) *Server {
	t.Helper()
	opts.Addr = "127.0.0.1:0"
	opts.Recipients = []string{"pbem@example.org"}
	opts.Logger = slog.New(slog.DiscardHandler)
	s, err := Listen(opts, d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if r, ok := d.(*recorder); ok && r.hold != nil {
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

func code(err error) int {
	var e *smtp.SMTPError
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

// A mail is acknowledged once stored: after the 250, the store has it.
func TestAcknowledgedAfterCommit(t *testing.T) {
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
	r := &recorder{hold: make(chan struct{}), entered: make(chan int, 10)}
	s := start(t, r, Options{Memory: 1 << 20, MaxBytes: 1 << 20, Batch: 1})
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

// At most Conns sessions are served at once: another connection waits
// until one ends, and is then served.
func TestConnectionBound(t *testing.T) {
	r := &recorder{}
	s := start(t, r, Options{Conns: 2})
	var idle []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", s.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := bufio.NewReader(c).ReadString('\n'); err != nil {
			t.Fatalf("no greeting for a session within the bound: %v", err)
		}
		idle = append(idle, c)
	}
	third, err := net.Dial("tcp", s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	third.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	br := bufio.NewReader(third)
	if line, err := br.ReadString('\n'); err == nil {
		t.Fatalf("a third session was greeted (%q) while two are open; want it to wait", line)
	}
	idle[0].Close()
	third.SetReadDeadline(time.Now().Add(5 * time.Second))
	if line, err := br.ReadString('\n'); err != nil || !strings.HasPrefix(line, "220") {
		t.Errorf("the waiting session after one closed: %q, %v; want its 220 greeting", line, err)
	}
}

// Close right after Listen must return: go-smtp registers the listener
// only once Serve runs, so a Close before that leaves Accept blocked.
func TestCloseRightAfterListen(t *testing.T) {
	for i := range 200 {
		s, err := Listen(Options{Addr: "127.0.0.1:0", Recipients: []string{"pbem@example.org"},
			Logger: slog.New(slog.DiscardHandler)}, &recorder{})
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
	s, err := Listen(Options{Addr: "127.0.0.1:0", Recipients: []string{"pbem@example.org"},
		Logger: slog.New(slog.DiscardHandler), Conns: 1}, &recorder{})
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

// A mail within MaxBytes, with Memory at MaxBytes ("never below
// MaxBytes"), is accepted by an idle server.
func TestMailWithinMaxBytesFitsMemory(t *testing.T) {
	s := start(t, &recorder{}, Options{Memory: 1536 << 10, MaxBytes: 1536 << 10})
	big := strings.Repeat(strings.Repeat("x", 98)+"\r\n", 12<<10) // 1.2 MiB
	if err := send(t, s.Addr(), "pbem@example.org", "one\r\n\r\n"+big); err != nil {
		t.Errorf("a 1.2 MiB mail, MaxBytes and Memory 1.5 MiB, idle server: %v; want accepted", err)
	}
}

// A session kept alive with NOOPs ends at its longest, freeing its slot
// for a waiting MTA.
func TestSessionEndsAtItsLongest(t *testing.T) {
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
