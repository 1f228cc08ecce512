package mailbox

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

// While the handler can store nothing (a full disk), mail is retried with a
// growing wait, however long it takes, and never quarantined; when the
// store works again every mail is handled, in order.
func TestStoreOutageWaitedOut(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	r := newRecorder()
	var down atomic.Bool
	down.Store(true)
	var failures atomic.Int32
	full := errors.New("write pbem.db: no space left on device")
	r.fail = func(string) error {
		if down.Load() {
			failures.Add(1)
			return full
		}
		return nil
	}
	r.check = func() error {
		if down.Load() {
			return full
		}
		return nil
	}
	for _, subj := range subjects(3, "m %d") {
		mail(s, subj)
	}
	stop := watch(t, Config{Addr: s.IMAPAddr, BackoffMin: time.Millisecond, BackoffMax: 5 * time.Millisecond}, r)
	defer stop()
	deadline := time.Now().Add(10 * time.Second)
	for failures.Load() < 20 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := len(r.Subjects()); n != 0 {
		t.Fatalf("%d mails handled while the store was down", n)
	}
	down.Store(false)
	if got := r.waitFor(t, 3); fmt.Sprint(got) != fmt.Sprint(subjects(3, "m %d")) {
		t.Errorf("handled %q; want m 1..3 in order", got)
	}
	if q := r.Quarantined(); len(q) != 0 {
		t.Errorf("quarantined %q during a store outage; want none", q)
	}
	waitDone(t, s, 3)
}

// permanentError is an error that trying again will not fix.
type permanentError struct{}

func (permanentError) Error() string   { return "the command crashed" }
func (permanentError) Temporary() bool { return false }

// A mail that fails for good is quarantined at its first failure, and a
// handler that panics on one mail is survived the same way: the next mail
// is handled at once.
func TestFailedForGoodQuarantinedAtOnce(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"permanent error", "panic"} {
		t.Run(how, func(t *testing.T) {
			s := startServer(t)
			r := newRecorder()
			var calls atomic.Int32
			r.fail = func(subj string) error {
				if subj != "m 2" {
					return nil
				}
				calls.Add(1)
				if how == "panic" {
					panic("handler bug")
				}
				return permanentError{}
			}
			for _, subj := range subjects(3, "m %d") {
				mail(s, subj)
			}
			stop := watch(t, Config{Addr: s.IMAPAddr, BackoffMin: time.Hour, BackoffMax: time.Hour}, r)
			defer stop()
			if got := r.waitFor(t, 2); fmt.Sprint(got) != "[m 1 m 3]" {
				t.Errorf("handled %q; want m 1 and m 3", got)
			}
			if q := waitFolder(t, s, "pbemd-quarantine", 1); len(q) != 1 {
				t.Fatalf("quarantine folder holds %d mails; want m 2", len(q))
			}
			if q := r.Quarantined(); fmt.Sprint(q) != "[m 2]" {
				t.Errorf("Quarantine called for %q; want m 2 once", q)
			}
			// Once in the batch, once alone: no retry, no wait.
			if n := calls.Load(); n != 2 {
				t.Errorf("m 2 was handed over %d times; want 2 (the batch, then alone)", n)
			}
		})
	}
}
