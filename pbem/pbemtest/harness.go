package pbemtest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

// Service is the mail service as a harness drives it; *pbem.Service is
// one. The harness names no type of pbem because pbem's own tests import
// this package, and a package of theirs importing pbem would be a cycle.
type Service interface {
	Deliver(raw []byte) error
}

// Address is the service's own address in tests.
const Address = "pbem@example.org"

// Start is the time at which a harness's clock stands until a test moves
// it: fixed, so that golden replies and due dates do not change by day.
var Start = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// A Harness is a service on a store of its own, a fixed clock and
// numbered Message-IDs, driven by mails as a player's client writes them;
// it reads the replies out of the outbox as the recipients get them.
//
//	h := pbemtest.New(t)
//	svc := pbem.New(h.DB, pbem.Config{Address: pbemtest.Address, Now: h.Clock, Auth: pbemtest.Auth()})
//	svc.NewID = h.NewID
//	h.Service = svc
//	h.SignUp("alice", "bob")
//	out := h.Mail("alice@example.org", "tanbo challenge alice bob", "")
type Harness struct {
	T       testing.TB
	DB      *store.DB
	Service Service       // set by the test, once it has made the service on DB
	Now     time.Time     // the clock (Clock): Start until a test moves it
	Step    time.Duration // how far the clock moves before each mail
	mails   int           // Message-IDs of the mails sent
	replies int           // Message-IDs made by NewID
}

// New is a harness on a new store, closed when t ends, its clock at Start.
func New(t testing.TB) *Harness {
	t.Helper()
	return &Harness{T: t, DB: storetest.New(t), Now: Start}
}

// Clock is the harness's clock, for the service's configuration.
func (h *Harness) Clock() time.Time { return h.Now }

// NewID numbers the Message-IDs of the service's replies, for stable
// golden files.
func (h *Harness) NewID() string {
	h.replies++
	return fmt.Sprintf("reply%d@example.org", h.replies)
}

// Forged is a plain mail with the next Message-ID and nobody vouching for
// its From.
func (h *Harness) Forged(from, subject, body string) []byte {
	h.mails++
	return Forged(from, subject, body, MessageID(h.mails))
}

// Vouched is Forged vouched for by the trusted mail server, as a
// player's own mail from a signing provider is.
func (h *Harness) Vouched(from, subject, body string) []byte {
	return Vouch(from, h.Forged(from, subject, body))
}

// Mail delivers a vouched mail and returns the replies it caused.
func (h *Harness) Mail(from, subject, body string) []Sent {
	h.T.Helper()
	return h.Deliver(h.Vouched(from, subject, body))
}

// Deliver moves the clock by Step, delivers raw and returns the replies
// it caused, taking them out of the outbox.
func (h *Harness) Deliver(raw []byte) []Sent {
	h.T.Helper()
	if h.Step != 0 { // a clock that stands is not written: a worker may read it meanwhile
		h.Now = h.Now.Add(h.Step)
	}
	if err := h.Service.Deliver(raw); err != nil {
		h.T.Fatalf("delivering mail %d: %v", h.mails, err)
	}
	return h.Outbox()
}

// Outbox takes every mail out of the outbox, in order: all that is due
// within the hour.
func (h *Harness) Outbox() []Sent {
	h.T.Helper()
	return TakeOutbox(h.T, h.DB, h.Now.Add(time.Hour))
}

// SignUp makes accounts for the ids (see SignUp).
func (h *Harness) SignUp(ids ...string) {
	h.T.Helper()
	SignUp(h.T, h.Mail, ids...)
}

// MessageID is the Message-ID of a test's nth mail.
func MessageID(n int) string { return fmt.Sprintf("m%d@client.example", n) }

// Password is the password SignUp gives the account id.
func Password(id string) string { return "pw-" + id }

// SignUp makes an account for each id, its mail going to id@example.org
// and its password Password(id), by the mail its player would send
// through mail (a harness's Mail); it fails t unless each is welcomed.
func SignUp(t testing.TB, mail func(from, subject, body string) []Sent, ids ...string) {
	t.Helper()
	for _, id := range ids {
		out := mail(id+"@example.org", "signup "+id+" "+Password(id), "")
		if len(out) != 1 || !strings.Contains(out[0].Subject, "welcome") {
			var got []string
			for _, r := range out {
				got = append(got, r.To+": "+r.Subject)
			}
			t.Fatalf("signup %s: got %q; want one welcome", id, got)
		}
	}
}
