package pbem

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

var update = flag.Bool("update", false, "rewrite the golden files of the replies")

// harness is a service on a fresh store with a fixed clock and numbered
// Message-IDs, and a mailbox of the replies it sends. It is pbemtest's
// Harness for this package's own tests, which reach into the Service (its
// hash cost, its fields) and keep their clock in h.now: it makes its mails,
// reads its outbox and signs up players through the kit.
type harness struct {
	t   *testing.T
	db  *store.DB
	svc *Service
	now time.Time
	n   int // mails sent so far
}

// reply is one reply mail as a player's mail client reads it: the kit's
// Sent, as a type of this package's tests to hang their helpers on.
type reply pbemtest.Sent

func newHarness(t *testing.T) *harness {
	t.Helper()
	db := storetest.New(t)
	h := &harness{t: t, db: db, now: pbemtest.Start}
	h.svc = New(db, Config{Address: pbemtest.Address, Now: func() time.Time { return h.now }, Log: slog.New(slog.DiscardHandler),
		Auth: pbemtest.Auth(), Limits: Limits{Signups: 1000}, // the tests sign up many; TestSignupFloodBounded checks the budget
		NoAutoVacation: true}) // the forfeit tests predate the pool; vacationpool_test.go turns it on
	h.svc.hashCost = bcrypt.MinCost // a test's passwords need no strength
	ids := 0
	h.svc.NewID = func() string { ids++; return fmt.Sprintf("reply%d@example.org", ids) }
	return h
}

// mail is a plain mail as a simple client writes it, vouched for by the
// trusted MTA's Authentication-Results as a signed mail from a real
// provider is (forged makes one that is not).
func (h *harness) mail(from, subject, body string) []byte {
	return pbemtest.Vouch(from, h.forged(from, subject, body))
}

// forged is a plain mail with no one vouching for its From: anyone may
// have written it.
func (h *harness) forged(from, subject, body string) []byte {
	h.n++
	return pbemtest.Forged(from, subject, body, pbemtest.MessageID(h.n))
}

// send delivers a mail from an address and returns the replies it caused.
func (h *harness) send(from, subject, body string) []reply {
	h.t.Helper()
	return h.deliver(h.mail(from, subject, body))
}

// deliver delivers raw mail and returns the replies it caused, taking them
// out of the outbox.
func (h *harness) deliver(raw []byte) []reply {
	h.t.Helper()
	if err := h.svc.Deliver(raw); err != nil {
		h.t.Fatalf("Deliver: %v", err)
	}
	return h.outbox()
}

// outbox takes every mail out of the outbox, in order, each copy of a
// mail in copies as its recipient gets it.
func (h *harness) outbox() []reply {
	h.t.Helper()
	var out []reply
	for _, r := range pbemtest.TakeOutbox(h.t, h.db, h.now.Add(time.Hour)) {
		out = append(out, reply(r))
	}
	return out
}

// take takes every mail out of the outbox as it is stored, in order.
func (h *harness) take() []store.Outgoing {
	h.t.Helper()
	pending, err := h.db.Pending(h.now.Add(time.Hour), 0, 1000)
	if err != nil {
		h.t.Fatal(err)
	}
	for _, p := range pending {
		if err := h.db.Sent(p.ID); err != nil {
			h.t.Fatal(err)
		}
	}
	return pending
}

// signup makes an account for each id whose mail goes to id@example.org,
// its password pbemtest.Password(id).
func (h *harness) signup(ids ...string) {
	h.t.Helper()
	pbemtest.SignUp(h.t, func(from, subject, body string) []pbemtest.Sent {
		var out []pbemtest.Sent
		for _, r := range h.send(from, subject, body) {
			out = append(out, pbemtest.Sent(r))
		}
		return out
	}, ids...)
}

// one checks that exactly one reply came, to the address, and returns it.
func one(t *testing.T, out []reply, to string) reply {
	t.Helper()
	if len(out) != 1 {
		t.Fatalf("got %d replies %v, want one to %s", len(out), subjects(out), to)
	}
	if out[0].To != to {
		t.Fatalf("reply %q went to %s, want %s", out[0].Subject, out[0].To, to)
	}
	return out[0]
}

// errorReply checks that out is one error reply to the address whose first
// paragraph is want (wrapped at 72 columns: its lines joined by spaces), and
// that it quotes the original mail.
func errorReply(t *testing.T, out []reply, to, want string) reply {
	t.Helper()
	r := one(t, out, to)
	if !strings.HasSuffix(r.Subject, "error") && !strings.HasSuffix(r.Subject, "Error") {
		t.Errorf("error reply subject %q does not end in error", r.Subject)
	}
	first, _, _ := strings.Cut(r.Body, "\n\n")
	first = strings.Join(strings.Fields(first), " ")
	if first != want {
		t.Errorf("error reply says\n %q\nwant\n %q", first, want)
	}
	if !strings.Contains(r.Body, "Original message follows:\n\n> From: ") {
		t.Errorf("error reply does not quote the original:\n%s", r.Body)
	}
	return r
}

func subjects(out []reply) []string {
	var s []string
	for _, r := range out {
		s = append(s, r.To+": "+r.Subject)
	}
	return s
}

// golden compares replies with testdata/golden/name.golden.
func golden(t *testing.T, name string, out []reply) {
	t.Helper()
	var b strings.Builder
	for i, r := range out {
		if i > 0 {
			b.WriteString("\n======== next mail ========\n")
		}
		fmt.Fprintf(&b, "To: %s\nSubject: %s\n\n%s", r.To, r.Subject, r.Body)
	}
	for _, r := range out {
		checkWidth(t, name, r)
	}
	goldenText(t, name, b.String())
}

// goldenText compares text with testdata/golden/name.golden.
func goldenText(t *testing.T, name, text string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./pbem -update to write it, then read it)", err)
	}
	if text != string(want) {
		t.Errorf("replies differ from %s:\n--- got ---\n%s\n--- want ---\n%s", path, text, want)
	}
}

func gameNames() []string { return catalog.Names() }

// checkWidth fails a reply with a line wider than model.LineWidth, except the
// lines of a quoted mail ("> "), which are the sender's own.
func checkWidth(t *testing.T, name string, r reply) {
	t.Helper()
	for _, l := range strings.Split(r.Body, "\n") {
		if len(l) > model.LineWidth && !strings.HasPrefix(l, ">") {
			t.Errorf("%s: a line of the mail to %s (%s) is %d columns wide, more than %d:\n%s", name, r.To, r.Subject, len(l), model.LineWidth, l)
		}
	}
}
