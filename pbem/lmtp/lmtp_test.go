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
	"syscall"
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
	down    error         // when set, the store takes no write (Check)
	hold    chan struct{} // when set, each commit waits for it to close
	holdIf  string        // when set, only a commit of a mail containing it waits
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
	if r.hold != nil && (r.holdIf == "" || slices.ContainsFunc(raws, func(raw []byte) bool { return strings.Contains(string(raw), r.holdIf) })) {
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

func (r *recorder) Check() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.down
}

// storedSubjects is what the recorder stored, in order.
func (r *recorder) storedSubjects() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return fmt.Sprint(r.stored)
}

// waitStored waits until the recorder has stored want (as
// storedSubjects says it).
func waitStored(t *testing.T, r *recorder, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for r.storedSubjects() != want {
		if time.Now().After(deadline) {
			t.Fatalf("stored %s; want %s", r.storedSubjects(), want)
		}
		time.Sleep(time.Millisecond)
	}
}

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
	if opts.Spool == "" {
		opts.Spool = t.TempDir()
	}
	if opts.Quiet == 0 {
		opts.Quiet = -1 // every mail through the spool, unless the test says
	}
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

// newIntake is an intake for the recorder that tries a mail again after
// 10 ms.
func newIntake(r *recorder, largest ...int64) *intake.Intake {
	opts := intake.Options{Logger: quiet, RetryMin: 10 * time.Millisecond, RetryMax: 10 * time.Millisecond}
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

// A mail is acknowledged once in the spool, before its commit: with the
// store busy, the MTA hears 250, and the store has the mail once it frees;
// then the spool is empty again. A mail for another address gets 550.
func TestAcknowledgedOnceSpooled(t *testing.T) {
	t.Parallel()
	r := &recorder{hold: make(chan struct{}), entered: make(chan int, 10)}
	s := start(t, r, Options{})
	if err := send(t, s.Addr(), "PBEM@example.org", "help"); err != nil {
		t.Fatalf("a mail for the server: %v", err)
	}
	<-r.entered
	if got := r.storedSubjects(); got != "[]" {
		t.Errorf("stored %s before the commit; want []", got)
	}
	if got := spooledSegments(s.opts.Spool); len(got) != 1 {
		t.Errorf("the spool holds %v once the mail was acknowledged; want one segment", got)
	}
	close(r.hold)
	waitStored(t, r, "[help]")
	waitSpoolEmpty(t, s)
	if err := send(t, s.Addr(), "bob@example.org", "help"); code(err) != 550 {
		t.Errorf("a mail for another address: %v; want 550", err)
	}
}

// One connection handing over a backlog a mail at a time, as Postfix
// does, has it committed in batches: each mail is acknowledged once
// spooled, and those that came during a commit are taken together by the
// next.
func TestOneConnectionCommitsInBatches(t *testing.T) {
	t.Parallel()
	r := &recorder{hold: make(chan struct{}), entered: make(chan int, 100)}
	s := start(t, r, Options{})
	conn, err := net.Dial("tcp", s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c := smtp.NewClientLMTP(conn)
	defer c.Close()
	if err := c.Hello("mta.example.org"); err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := range 30 {
		subj := fmt.Sprintf("m%d", i)
		want = append(want, subj)
		msg := "From: a@example.org\r\nSubject: " + subj + "\r\n\r\nb\r\n"
		if err := c.SendMail("a@example.org", []string{"pbem@example.org"}, strings.NewReader(msg)); err != nil {
			t.Fatalf("mail %d on the one connection, the store busy: %v", i, err)
		}
		if i == 0 {
			<-r.entered // the first commit holds the store
		}
	}
	close(r.hold)
	waitStored(t, r, fmt.Sprint(want))
	r.mu.Lock()
	defer r.mu.Unlock()
	if fmt.Sprint(r.batches) != "[1 29]" {
		t.Errorf("commits of %v mails; want [1 29]: the mails of one connection that came during a commit, together", r.batches)
	}
}

// Mails arriving together on many connections commit together.
func TestGroupCommit(t *testing.T) {
	t.Parallel()
	r := &recorder{hold: make(chan struct{}), entered: make(chan int, 100)}
	s := start(t, r, Options{})
	if err := send(t, s.Addr(), "pbem@example.org", "zero"); err != nil {
		t.Fatal(err)
	}
	<-r.entered // the store is busy with "zero"
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			if err := send(t, s.Addr(), "pbem@example.org", fmt.Sprintf("mail %d", i)); err != nil {
				t.Errorf("mail %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	close(r.hold)
	deadline := time.Now().Add(10 * time.Second)
	for {
		r.mu.Lock()
		n, batches := len(r.stored), fmt.Sprint(r.batches)
		r.mu.Unlock()
		if n == 21 {
			if batches != "[1 20]" {
				t.Errorf("commits of %s mails; want [1 20]", batches)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d mails stored; want 21", n)
		}
		time.Sleep(time.Millisecond)
	}
}

// A mail the store refuses is acknowledged all the same, kept in the
// spool, and tried again until the store takes it; it holds up no other.
func TestRefusedMailTriedAgain(t *testing.T) {
	t.Parallel()
	r := &recorder{fail: "bad"}
	s := start(t, r, Options{})
	for _, subj := range []string{"bad mail", "good mail"} {
		if err := send(t, s.Addr(), "pbem@example.org", subj); err != nil {
			t.Fatalf("%s: %v; want 250", subj, err)
		}
	}
	waitStored(t, r, "[good mail]")
	time.Sleep(50 * time.Millisecond) // a few tries of "bad mail"
	if got := spooledSegments(s.opts.Spool); len(got) == 0 {
		t.Fatal("the spool is empty while a mail acknowledged is not yet stored")
	}
	r.mu.Lock()
	r.fail = ""
	r.mu.Unlock()
	waitStored(t, r, "[good mail bad mail]")
	waitSpoolEmpty(t, s)
}

// While the store takes no write, a mail is not taken into the spool: 452
// while its disk is full, 451 for another failure, and the MTA keeps it.
// Once the store works again mail is taken.
func TestStoreDownLeavesMailWithMTA(t *testing.T) {
	t.Parallel()
	r := &recorder{down: syscall.ENOSPC}
	s := start(t, r, Options{})
	if err := send(t, s.Addr(), "pbem@example.org", "one"); code(err) != 452 {
		t.Errorf("a mail while the store's disk is full: %v; want 452", err)
	}
	r.mu.Lock()
	r.down = errors.New("the store is locked")
	r.mu.Unlock()
	time.Sleep(20 * time.Millisecond) // the wait before the next check
	if err := send(t, s.Addr(), "pbem@example.org", "two"); code(err) != 451 {
		t.Errorf("a mail while the store fails: %v; want 451", err)
	}
	if got := spooledSegments(s.opts.Spool); len(got) != 0 {
		t.Errorf("the spool holds %v; want nothing while the store is down", got)
	}
	r.mu.Lock()
	r.down = nil
	r.mu.Unlock()
	time.Sleep(50 * time.Millisecond)
	if err := send(t, s.Addr(), "pbem@example.org", "three"); err != nil {
		t.Errorf("a mail once the store works: %v", err)
	}
	waitStored(t, r, "[three]")
}

// While as many mails as Queue are acknowledged and not yet decided, one
// more waits for room: it is taken when a mail is decided within Wait,
// and gets 451 (the MTA keeps it) when none is.
func TestBusy(t *testing.T) {
	t.Parallel()
	r := &recorder{hold: make(chan struct{}), entered: make(chan int, 10)}
	s := start(t, r, Options{Queue: 1, Wait: 300 * time.Millisecond})
	if err := send(t, s.Addr(), "pbem@example.org", "one"); err != nil {
		t.Fatal(err)
	}
	<-r.entered // "one" is being committed
	start := time.Now()
	if err := send(t, s.Addr(), "pbem@example.org", "two"); code(err) != 451 {
		t.Errorf("a mail while the queue is full: %v; want 451", err)
	}
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("the mail was refused after %v; want it to wait for room 300 ms", d)
	}
	second := make(chan error)
	go func() { second <- send(t, s.Addr(), "pbem@example.org", "three") }()
	time.Sleep(50 * time.Millisecond)
	close(r.hold)
	if err := <-second; err != nil {
		t.Errorf("a mail that waited for room: %v", err)
	}
	waitStored(t, r, "[one three]")
}

// The mails read and not yet decided on are bounded in bytes, the spool's
// included: while the store is busy, a mail that would pass the bound
// gets 451 and the MTA keeps it, however many connections bring mail.
func TestMemoryBound(t *testing.T) {
	t.Parallel()
	r := &recorder{hold: make(chan struct{}), entered: make(chan int, 10)}
	s := start(t, r, Options{Memory: 1 << 20}, 1<<20)
	big := strings.Repeat(strings.Repeat("x", 98)+"\r\n", 6<<10) // 600 KiB
	if err := send(t, s.Addr(), "pbem@example.org", "one\r\n\r\n"+big); err != nil {
		t.Fatalf("a mail within the memory bound: %v", err)
	}
	<-r.entered // "one" holds 600 KiB and more while its commit waits
	if err := send(t, s.Addr(), "pbem@example.org", "two\r\n\r\n"+big); code(err) != 451 {
		t.Errorf("a mail past the memory bound: %v; want 451", err)
	}
	close(r.hold)
	waitStored(t, r, "[one]")
	waitSpoolEmpty(t, s)
	deadline := time.Now().Add(10 * time.Second)
	for s.held() > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := s.held(); n > 0 {
		t.Fatalf("%d bytes held once every mail was decided; want none", n)
	}
	// Once the first is decided its bytes are free again.
	if err := send(t, s.Addr(), "pbem@example.org", "three\r\n\r\n"+big); err != nil {
		t.Errorf("a mail after the memory was freed: %v", err)
	}
	waitStored(t, r, "[one three]")
}

// Close right after Listen must return: go-smtp registers the listener
// only once Serve runs, so a Close before that leaves Accept blocked.
func TestCloseRightAfterListen(t *testing.T) {
	t.Parallel()
	for i := range 200 {
		s, err := Listen(Options{Addr: "127.0.0.1:0", Recipients: []string{"pbem@example.org"},
			Logger: quiet, Spool: t.TempDir()}, newIntake(&recorder{}))
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
		Logger: quiet, Conns: 1, Spool: t.TempDir()}, newIntake(&recorder{}))
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

// Mails Options.First picks are committed apart from the others, and
// while a batch of the others is handled: a player's vouched mail does not
// wait on the forged mail that arrived before it. The forged mail is not
// spooled: its sessions wait for its commits.
func TestFirstCommittedAhead(t *testing.T) {
	t.Parallel()
	r := &recorder{hold: make(chan struct{}), holdIf: "forged", entered: make(chan int, 100)}
	s := start(t, r, Options{First: func(raw []byte) bool { return strings.Contains(string(raw), "player") }})
	var wg sync.WaitGroup
	forged := func(i int) {
		wg.Go(func() {
			if err := send(t, s.Addr(), "pbem@example.org", fmt.Sprintf("forged %d", i)); err != nil {
				t.Errorf("forged %d: %v", i, err)
			}
		})
	}
	forged(0)
	<-r.entered // the forged mail's commit holds
	for i := 1; i < 9; i++ {
		forged(i)
	}
	waitQueued(t, s.rest, 8)
	if got := spooledSegments(s.opts.Spool); len(got) != 0 {
		t.Errorf("the spool holds %v with forged mail only; want nothing", got)
	}
	if err := send(t, s.Addr(), "pbem@example.org", "player's move"); err != nil {
		t.Fatalf("the player's mail: %v", err)
	}
	waitStored(t, r, "[player's move]")
	close(r.hold)
	wg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.stored) != 10 || fmt.Sprint(r.batches) != "[1 1 8]" {
		t.Errorf("stored %v in commits of %v mails; want 10 in [1 1 8]: the player's mail alone, then the forged", r.stored, r.batches)
	}
}

// waitQueued waits until n mails wait in q.
func waitQueued(t *testing.T, q *queue, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		q.mu.Lock()
		got := len(q.mails)
		q.mu.Unlock()
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d mails queued; want %d", got, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// Without a spool (a store shared by several nodes), a mail is
// acknowledged once the intake has decided on it: 250 once stored, 451
// when the store refuses it, and the MTA keeps it.
func TestWithoutSpoolAcknowledgedOnceStored(t *testing.T) {
	t.Parallel()
	r := &recorder{hold: make(chan struct{}), entered: make(chan int, 10), fail: "bad"}
	s, err := Listen(Options{Addr: "127.0.0.1:0", Recipients: []string{"pbem@example.org"}, Logger: quiet}, newIntake(r))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	t.Cleanup(func() {
		select {
		case <-r.hold:
		default:
			close(r.hold)
		}
	})
	answer := make(chan error, 1)
	go func() { answer <- send(t, s.Addr(), "pbem@example.org", "help") }()
	<-r.entered
	select {
	case err := <-answer:
		t.Fatalf("the mail was answered %v while its commit waits; want no answer before it", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(r.hold)
	if err := <-answer; err != nil {
		t.Fatalf("the mail once stored: %v", err)
	}
	if got := r.storedSubjects(); got != "[help]" {
		t.Errorf("stored %s when the mail was acknowledged; want [help]", got)
	}
	if err := send(t, s.Addr(), "pbem@example.org", "bad mail"); code(err) != 451 {
		t.Errorf("a mail the store refuses: %v; want 451", err)
	}
}

// Mail no trusted server vouches for holds half the memory bound at most
// while it waits: a flood of it, its commits slow, leaves room for a
// player's vouched mail.
func TestForgedMailLeavesMemoryForVouched(t *testing.T) {
	t.Parallel()
	r := &recorder{hold: make(chan struct{}), holdIf: "forged", entered: make(chan int, 100)}
	s := start(t, r, Options{Memory: 64 << 10, First: func(raw []byte) bool { return strings.Contains(string(raw), "player") }}, 20000)
	pad := "\r\n\r\n" + strings.Repeat(strings.Repeat("x", 98)+"\r\n", 90) // 9 KiB, held as 16
	answers := make(chan error, 20)
	for range 20 {
		go func() { answers <- send(t, s.Addr(), "pbem@example.org", "forged"+pad) }()
	}
	// Two fit in their share of 32 KiB, and wait for their commits; the
	// others get 451 (some while reading, when the readers together
	// pass the whole bound) and let go of what they read.
	for range 18 {
		if err := <-answers; code(err) != 451 {
			t.Fatalf("an answer to 20 forged mails of 9 KiB, with 64 KiB of memory and their commits held: %v; want 451 past their share", err)
		}
	}
	if err := send(t, s.Addr(), "pbem@example.org", "player's move"+pad); err != nil {
		t.Errorf("a vouched mail while forged mail holds its share: %v; want 250", err)
	}
	waitStored(t, r, "[player's move]")
	close(r.hold)
	for range 2 {
		if err := <-answers; err != nil {
			t.Errorf("a forged mail within its share: %v", err)
		}
	}
}

// A mail that finds the server quiet is handed over at once and answered
// after its commit, with nothing written to the spool; one that comes
// while the worker is busy goes through the spool.
func TestQuietServerAnswersAfterCommit(t *testing.T) {
	t.Parallel()
	r := &recorder{hold: make(chan struct{}), entered: make(chan int, 10)}
	s := start(t, r, Options{Quiet: 10 * time.Millisecond})
	time.Sleep(20 * time.Millisecond) // quiet since the start
	answer := make(chan error, 1)
	go func() { answer <- send(t, s.Addr(), "pbem@example.org", "alone") }()
	<-r.entered
	select {
	case err := <-answer:
		t.Fatalf("a mail to a quiet server was answered %v before its commit", err)
	case <-time.After(50 * time.Millisecond):
	}
	if got := spooledSegments(s.opts.Spool); len(got) != 0 {
		t.Errorf("the spool holds %v for a mail to a quiet server; want nothing", got)
	}
	// Meanwhile the worker is busy: the next mail is spooled and
	// answered before its commit.
	if err := send(t, s.Addr(), "pbem@example.org", "busy"); err != nil {
		t.Fatalf("a mail while the worker is busy: %v", err)
	}
	if got := spooledSegments(s.opts.Spool); len(got) != 1 {
		t.Errorf("the spool holds %v for a mail while the worker is busy; want its segment", got)
	}
	close(r.hold)
	if err := <-answer; err != nil {
		t.Fatalf("the mail to a quiet server once stored: %v", err)
	}
	waitStored(t, r, "[alone busy]")
}
