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

	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

var update = flag.Bool("update", false, "rewrite the golden files of the replies")

// harness is a service on a fresh store with a fixed clock and numbered
// Message-IDs, and a mailbox of the replies it sends.
type harness struct {
	t   *testing.T
	db  *store.DB
	svc *Service
	now time.Time
	n   int // mails sent so far
}

// reply is one reply mail as a player's mail client reads it.
type reply struct {
	To, Subject, Body string
	InReplyTo         string
	References        []string
	Raw               []byte
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	h := &harness{t: t, db: db, now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	h.svc = New(db, Config{Address: "pbem@example.org", Now: func() time.Time { return h.now }, Log: slog.New(slog.DiscardHandler),
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
	return pbemtest.Forged(from, subject, body, fmt.Sprintf("m%d@client.example", h.n))
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

// outbox takes every mail out of the outbox, in order.
func (h *harness) outbox() []reply {
	h.t.Helper()
	pending, err := h.db.Pending(h.now.Add(time.Hour), 0, 1000)
	if err != nil {
		h.t.Fatal(err)
	}
	var out []reply
	for _, p := range pending {
		out = append(out, h.copies(p)...)
		if err := h.db.Sent(p.ID); err != nil {
			h.t.Fatal(err)
		}
	}
	return out
}

// copies reads an outbox mail as its recipients get it: a mail in copies
// (ToAt) as each one's copy, which must name him alone.
func (h *harness) copies(p store.Outgoing) []reply {
	h.t.Helper()
	if p.ToAt == 0 && len(p.To) != 1 {
		h.t.Fatalf("reply %d has %d recipients; every reply goes to one", p.ID, len(p.To))
	}
	var out []reply
	for _, to := range p.To {
		raw := p.Data
		if p.ToAt > 0 {
			var err error
			if raw, err = mailmsg.Copy(p.Data, p.ToAt, to); err != nil {
				h.t.Fatalf("reply %d to %s: %v", p.ID, to, err)
			}
		}
		m, err := mailmsg.ReadMail(raw)
		if err != nil {
			h.t.Fatalf("reply %d unreadable: %v", p.ID, err)
		}
		if got := m.Header["To"]; len(got) != 1 || strings.Contains(got[0], ",") || len(m.Header["Cc"]) > 0 {
			h.t.Fatalf("reply %q to %s is addressed To %q Cc %q; want him alone", m.Subject, to, got, m.Header["Cc"])
		}
		out = append(out, reply{To: to, Subject: m.Subject, Body: m.Text, InReplyTo: m.InReplyTo, References: m.References, Raw: raw})
	}
	return out
}

// signup makes an account whose mail goes to id@example.org.
func (h *harness) signup(id string) {
	h.t.Helper()
	out := h.send(id+"@example.org", "signup "+id+" pw-"+id, "")
	if len(out) != 1 || !strings.Contains(out[0].Subject, "welcome") {
		h.t.Fatalf("signup %s: got %v", id, subjects(out))
	}
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

// checkWidth fails a reply with a line wider than lineWidth, except the
// lines of a quoted mail ("> "), which are the sender's own.
func checkWidth(t *testing.T, name string, r reply) {
	t.Helper()
	for _, l := range strings.Split(r.Body, "\n") {
		if len(l) > lineWidth && !strings.HasPrefix(l, ">") {
			t.Errorf("%s: a line of the mail to %s (%s) is %d columns wide, more than %d:\n%s", name, r.To, r.Subject, len(l), lineWidth, l)
		}
	}
}
