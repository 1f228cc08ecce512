package pbem

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/store"
)

// stampedCopy is one recipient's copy of an outbox mail as the outbox
// sends it: its envelope sender and its header with the stamped fields.
type stampedCopy struct {
	to, from string // envelope recipient and sender
	mail     *mailmsg.Incoming
}

// watchHarness is a harness whose mail leaves with a tokened return path
// and has a web view: tanbo board 101 between alice and bob, watched by
// dead, whose account has the addresses dead@example.net and
// alive@example.org.
func watchHarness(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t)
	h.svc.cfg.Bounces = Bounces{ReturnPath: "pbem+{token}@example.org"}
	h.svc.cfg.PublicURL = "https://pbem.example.org"
	h.svc.tokens = NewTokens(h.db, h.svc.cfg)
	h.signup("alice")
	h.signup("bob")
	h.send("dead@example.net", "signup dead pw-dead", "")
	if err := h.db.Update(func(tx *store.Tx) error {
		u, err := tx.User("dead")
		if err != nil {
			return err
		}
		u.Addresses = append(u.Addresses, "alive@example.org")
		return tx.PutUser(u)
	}); err != nil {
		t.Fatal(err)
	}
	h.send("alice@example.org", "tanbo challenge alice bob -size=9", "")
	h.send("dead@example.net", "tanbo subscribe 101 dead pw-dead", "")
	return h
}

// sendStamped delivers a mail and returns the copies it caused as the
// outbox sends them.
func (h *harness) sendStamped(raw []byte) []stampedCopy {
	h.t.Helper()
	if err := h.svc.Deliver(raw); err != nil {
		h.t.Fatal(err)
	}
	return h.stamped()
}

// stamped takes the outbox's mails as the outbox sends them.
func (h *harness) stamped() []stampedCopy {
	h.t.Helper()
	var out []stampedCopy
	for _, p := range h.take() {
		for _, to := range p.To {
			data, err := p.Data, error(nil)
			if p.ToAt > 0 {
				if data, err = mailmsg.Copy(p.Data, p.ToAt, to); err != nil {
					h.t.Fatal(err)
				}
			}
			from, fields, err := h.svc.tokens.Stamp(&p, to)
			if err != nil {
				h.t.Fatal(err)
			}
			m, err := mailmsg.ReadMail(mailmsg.WithFields(data, fields...))
			if err != nil {
				h.t.Fatal(err)
			}
			out = append(out, stampedCopy{to, from, m})
		}
	}
	return out
}

// copyTo is the copy to the address, or nil.
func copyTo(out []stampedCopy, to string) *stampedCopy {
	for i := range out {
		if out[i].to == to {
			return &out[i]
		}
	}
	return nil
}

// chat has alice chat on board 101, as a board mail to its watchers.
func (h *harness) chat(text string) []stampedCopy {
	return h.sendStamped(h.mail("alice@example.org", "tanbo chat 101 alice pw-alice", text))
}

// report is the delivery report of the fixture file as it comes back to
// the return path, with its own Message-ID.
func report(t *testing.T, file, returnPath, id string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "bounces", file))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(raw), "RETURNPATH", returnPath)
	s = "Message-ID: <" + id + "@bounce.example>\n" + s
	return []byte(s)
}

// A dead address's hard bounces, as four servers write them, pause it
// after three days with one: nothing answers a report, a second report
// of a day counts nothing, the account's other address is told, board
// mail stops going there, and a mail that proves the address resumes it.
func TestBouncePausesDeadAddress(t *testing.T) {
	h := watchHarness(t)
	var counted int
	h.svc.cfg.OnBounce = func() { counted++ }
	reports := []string{"postfix.eml", "gmail.eml", "exchange.eml"}
	for day, file := range reports {
		out := h.chat(fmt.Sprintf("day %d", day))
		dead, alive := copyTo(out, "dead@example.net"), copyTo(out, "alive@example.org")
		if dead == nil || alive == nil {
			t.Fatalf("day %d: the chat went to %d copies, none to dead's addresses", day, len(out))
		}
		if !strings.HasPrefix(dead.from, "pbem+b.") || !strings.HasSuffix(dead.from, "@example.org") || dead.from == alive.from {
			t.Fatalf("day %d: return paths %q and %q; want one of each address's own", day, dead.from, alive.from)
		}
		if got := h.sendStamped(report(t, file, dead.from, fmt.Sprint("r", day))); len(got) > 0 && day < 2 {
			t.Fatalf("day %d: the %s report was answered: %d mails to %s", day, file, len(got), got[0].to)
		} else if day == 2 {
			// The third day pauses: alive is told, the report's sender nothing.
			if len(got) != 1 || got[0].to != "alive@example.org" || !strings.Contains(got[0].mail.Subject, "paused") {
				t.Fatalf("the pause told %d: %+v; want alive@example.org alone", len(got), got)
			}
			checkWidth(t, "pause notice", reply{Subject: got[0].mail.Subject, Body: got[0].mail.Text})
		}
		if day == 0 {
			// The same day's second report counts nothing more.
			if got := h.sendStamped(report(t, "exim.eml", dead.from, "r0b")); len(got) > 0 {
				t.Fatalf("the Exim report was answered")
			}
		}
		if paused := pausedNow(h, "dead@example.net"); paused != (day == 2) {
			t.Fatalf("after day %d: paused %v", day, paused)
		}
		h.now = h.now.Add(25 * time.Hour)
	}
	if counted != len(reports)+1 {
		t.Errorf("OnBounce told of %d reports; want %d", counted, len(reports)+1)
	}
	out := h.chat("while paused")
	if copyTo(out, "dead@example.net") != nil || copyTo(out, "alive@example.org") == nil {
		t.Fatalf("while paused, the chat went to %v", recipients(out))
	}
	// A forged mail of the address resumes nothing; its own signed mail does.
	h.sendStamped(h.forged("dead@example.net", "help", ""))
	if !pausedNow(h, "dead@example.net") {
		t.Fatal("a forged From resumed the paused address")
	}
	out = h.sendStamped(h.mail("dead@example.net", "help", ""))
	if len(out) != 1 || !strings.Contains(out[0].mail.Text, "board mail goes to it from now on") {
		t.Fatalf("the signed mail's answer does not say board mail resumed: %+v", out)
	}
	if pausedNow(h, "dead@example.net") || copyTo(h.chat("back"), "dead@example.net") == nil {
		t.Fatal("board mail did not resume")
	}
}

// Only a report to a return path whose token is of the address it
// reports, and no older than bounceTokenDays, counts: a stranger cannot
// pause an address by writing reports, to the plain address, to his own
// return path or to an old one, and mail to a return path is never run
// as a command.
func TestForgedBouncesPauseNothing(t *testing.T) {
	h := watchHarness(t)
	h.svc.cfg.Bounces.PauseAfter = 1
	h.svc.tokens = NewTokens(h.db, h.svc.cfg)
	out := h.chat("hello")
	alive, old := copyTo(out, "alive@example.org"), copyTo(out, "dead@example.net")
	h.now = h.now.Add((bounceTokenDays + 1) * day)
	key, err := h.svc.tokens.secret(nil)
	if err != nil {
		t.Fatal(err)
	}
	wrongMAC := "pbem+" + bounceToken(key, "dead@example.net", h.now)[:len("b.20419.")] + strings.Repeat("a", macChars) + "@example.org"
	for i, rp := range []string{"pbem@example.org", alive.from, old.from, wrongMAC} {
		for _, file := range []string{"postfix.eml", "exim.eml", "qmail.eml"} {
			if got := h.sendStamped(report(t, file, rp, fmt.Sprint("f", i, file))); len(got) > 0 {
				t.Fatalf("a report to %s was answered", rp)
			}
		}
	}
	if pausedNow(h, "dead@example.net") {
		t.Fatal("forged reports paused dead@example.net")
	}
	// A command mailed to a return path runs nothing and is not answered.
	rp := copyTo(h.chat("again"), "dead@example.net").from
	cmd := h.mail("alice@example.org", "tanbo resign 101 alice pw-alice", "")
	cmd = []byte(strings.Replace(string(cmd), "To: pbem@example.org", "To: "+rp, 1))
	if got := h.sendStamped(cmd); len(got) > 0 {
		t.Fatalf("a command to the return path was answered: %s", got[0].mail.Subject)
	}
	// A delay is no hard bounce, even with a good token.
	h.sendStamped(report(t, "postfix-delay.eml", rp, "delay"))
	if pausedNow(h, "dead@example.net") {
		t.Fatal("a delay warning paused the address")
	}
	if got := h.sendStamped(report(t, "postfix.eml", rp, "good")); len(got) != 1 || !pausedNow(h, "dead@example.net") {
		t.Fatalf("the one good report (pause_after 1) did not pause: %d mails", len(got))
	}
}

func pausedNow(h *harness, addr string) bool {
	var ok bool
	h.db.View(func(tx *store.Tx) error { _, ok = PausedSince(tx, addr, h.now); return nil })
	return ok
}

func recipients(out []stampedCopy) []string {
	var to []string
	for _, c := range out {
		to = append(to, c.to)
	}
	return to
}

// pause pauses the address as three days of hard bounces do.
func (h *harness) pause(addr string) {
	h.t.Helper()
	for day := range 3 {
		rp := copyTo(h.chat(fmt.Sprint("day ", day)), addr).from
		h.sendStamped(report(h.t, "postfix.eml", rp, fmt.Sprint("p", day)))
		h.now = h.now.Add(25 * time.Hour)
	}
	if !pausedNow(h, addr) {
		h.t.Fatalf("%s not paused after three days of bounces", addr)
	}
}

// A mail that names the paused address in its From resumes it only when
// it proves it comes from there: a wrong password, or another account's
// right one, does not; the account's own password does.
func TestResumeNeedsProof(t *testing.T) {
	h := watchHarness(t)
	h.pause("dead@example.net")
	for _, subject := range []string{"tanbo limit dead wrong-pw", "tanbo limit alice pw-alice", "help"} {
		h.sendStamped(h.forged("dead@example.net", subject, ""))
		if !pausedNow(h, "dead@example.net") {
			t.Fatalf("%q from a forged From resumed the address", subject)
		}
	}
	out := h.sendStamped(h.forged("dead@example.net", "tanbo limit dead pw-dead", ""))
	if pausedNow(h, "dead@example.net") || len(out) != 1 || !strings.Contains(out[0].mail.Text, "board mail goes to it from now on") {
		t.Fatalf("the account's password did not resume the address: %d answers", len(out))
	}
}
