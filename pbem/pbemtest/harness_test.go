package pbemtest_test

import (
	"fmt"
	"log/slog"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/store"
)

// newHarness is the kit's harness on the real service, as its doc shows.
func newHarness(t *testing.T) *pbemtest.Harness {
	h := pbemtest.New(t)
	svc := pbem.New(h.DB, pbem.Config{Address: pbemtest.Address, Now: h.Clock, Log: slog.New(slog.DiscardHandler), Auth: pbemtest.Auth()})
	svc.NewID = h.NewID
	h.Service = svc
	return h
}

// Players signed up by the kit can play at once with their passwords; the
// replies come one to each player, threaded to the numbered mail that
// caused them, with numbered Message-IDs, at the harness's clock.
func TestHarnessPlays(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.Step = time.Minute
	h.SignUp("alice", "bob")
	out := h.Mail("alice@example.org", "tanbo challenge alice bob", "")
	if len(out) != 2 || out[0].To == out[1].To {
		t.Fatalf("a challenge: %d replies; want one board mail to each player", len(out))
	}
	for _, r := range out {
		if !strings.HasPrefix(r.Subject, "New Tanbo Board 101") || r.InReplyTo != pbemtest.MessageID(3) {
			t.Errorf("reply %q in reply to %q; want the new board, answering mail 3", r.Subject, r.InReplyTo)
		}
	}
	if want := pbemtest.Start.Add(3 * time.Minute); !h.Now.Equal(want) {
		t.Errorf("the clock is at %v after three mails a minute apart; want %v", h.Now, want)
	}
	move := fmt.Sprintf("tanbo move 101 bob %s a1", pbemtest.Password("bob"))
	out = h.Mail("bob@example.org", move, "")
	if len(out) != 1 || out[0].Subject != "Tanbo Board 101 Error" {
		t.Fatalf("bob moving out of turn: %d replies; want one error reply", len(out))
	}
	out = h.Mail("alice@example.org", "help", "")
	if len(out) != 1 {
		t.Fatalf("help: %d replies; want one", len(out))
	}
	if id := regexp.MustCompile(`\nMessage-ID: <reply\d+@example.org>\r\n`); !id.Match(out[0].Raw) {
		t.Errorf("the help has no numbered Message-ID:\n%.300s", out[0].Raw)
	}
}

// A forged mail is what anyone may write: the kit puts no trusted
// server's word on it, and the service treats it so (a challenge in
// alice's name only invites).
func TestHarnessForged(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.SignUp("alice", "bob")
	raw := h.Forged("alice@example.org", "tanbo challenge alice bob", "")
	if strings.Contains(string(raw), "Authentication-Results") {
		t.Fatalf("a forged mail carries a verdict:\n%s", raw)
	}
	if !strings.HasPrefix(string(h.Vouched("alice@example.org", "help", "")), "Authentication-Results: "+pbemtest.Authserv+"; dmarc=pass header.from=example.org\r\n") {
		t.Errorf("a vouched mail lacks the trusted server's pass")
	}
	out := h.Deliver(raw)
	if len(out) != 2 || !strings.Contains(out[0].Body, "Waiting for alice and bob to accept") {
		t.Errorf("a forged challenge in alice's name: %d replies; want an invitation to each", len(out))
	}
}

// fatal is a testing.TB whose Fatal ends only the goroutine of the code
// under test, so that a test can see what made the kit fail.
type fatal struct {
	testing.TB
	msg string
}

func (f *fatal) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (f *fatal) Fatal(args ...any) { f.msg = fmt.Sprint(args...); runtime.Goexit() }
func (f *fatal) Helper()           {}

func (f *fatal) run(fn func()) string {
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	<-done
	return f.msg
}

// The kit fails a test whose service misbehaves: a reply to two people at
// once (every reply goes to one), a signup that is not welcomed.
func TestHarnessCatchesFaults(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.SignUp("alice")
	f := &fatal{TB: t}
	if msg := f.run(func() { pbemtest.SignUp(f, h.Mail, "alice") }); !strings.Contains(msg, "signup alice") {
		t.Errorf("alice signed up twice: the kit said %q; want a failure", msg)
	}
	err := h.DB.Update(func(tx *store.Tx) error {
		return tx.Enqueue(&store.Outgoing{From: pbemtest.Address, To: []string{"a@example.org", "b@example.org"},
			Data: []byte("To: a@example.org, b@example.org\r\nSubject: hi\r\n\r\nhi\r\n"), Queued: h.Now})
	})
	if err != nil {
		t.Fatal(err)
	}
	f = &fatal{TB: t}
	if msg := f.run(func() { pbemtest.TakeOutbox(f, h.DB, h.Now) }); !strings.Contains(msg, "every reply goes to one") {
		t.Errorf("a reply to two: the kit said %q", msg)
	}
}
