package pbem

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// victim is a harness where alice plays three boards of every game with bob,
// so that "all show alice all" answers with several boards, and the
// multiple mail of the issue: 20 such lines.
func victim(t *testing.T) (*harness, string) {
	t.Helper()
	h := newHarness(t)
	h.signup("alice", "bob")
	for _, g := range append(gameNames(), append(gameNames(), gameNames()...)...) {
		if out := h.send("alice@example.org", g+" challenge alice bob", ""); len(out) != 2 {
			t.Fatalf("%s challenge: %v", g, subjects(out))
		}
	}
	return h, strings.Repeat("all show alice all\n", 20)
}

// answerBytes is what the bounds count of a reply: its subject and text.
func answerBytes(out []reply) int {
	n := 0
	for _, r := range out {
		n += len(r.Subject) + len(r.Body)
	}
	return n
}

// flat is text with its line breaks and runs of spaces made single spaces.
func flat(text string) string { return strings.Join(strings.Fields(text), " ") }

// notice is the most a withheld-answer notice takes: the one that says a
// window's bound is spent goes even when it does not fit.
const notice = 1500

// TestBackscatterBounded is the issue's attack: a short mail of 20 "all show
// alice all" with alice's From forged. alice gets at most AnswerBytes of it,
// and a notice that says what was withheld, why and what works; her
// address at most AddressAnswerBytes in a window, then one notice, then
// nothing; the next window answers again. The same mail signed by alice's
// domain gets every board.
func TestBackscatterBounded(t *testing.T) {
	t.Parallel()
	h, body := victim(t)
	// The limit of commands per sender would silence alice's address
	// after three such mails; this test is about bytes.
	h.svc.cfg.Limits.Mails = 1000
	h.restart()
	lim := h.svc.limits
	whole := answerBytes(h.send("alice@example.org", "multiple", body))
	if whole < 4*lim.AddressAnswerBytes/3 {
		t.Fatalf("the signed mail got %d bytes; the test wants more than the hourly bound %d", whole, lim.AddressAnswerBytes)
	}
	h.now = h.now.Add(time.Minute)

	raw := h.forged("alice@example.org", "multiple", body)
	if len(raw) > 600 {
		t.Fatalf("the attack mail is %d bytes; the issue's was 520", len(raw))
	}
	// The boards come one a mail, as show's do, the rest in one.
	out := h.deliver(raw)
	for _, r := range out {
		if r.To != "alice@example.org" {
			t.Fatalf("the forged mail drew %q to %s", r.Subject, r.To)
		}
		checkWidth(t, "withheld", r)
	}
	if n := answerBytes(out); n > lim.AnswerBytes {
		t.Errorf("a forged mail drew %d bytes; want at most %d", n, lim.AnswerBytes)
	}
	r := merged(t, out)
	says(t, r.Body, "answers to your mail (",
		"were not sent:",
		"No signature of your address's domain (DKIM or DMARC) vouched for your mail, so anyone may have sent it in your name, and the answers to such mail are bounded: one mail gets at most 32768 bytes of them.",
		"Send from an address whose domain signs its mail, or ask for fewer boards in one mail.")
	if !strings.Contains(out[0].Body, "Summary of ") {
		t.Errorf("the answer kept none of the boards that fit:\n%s", out[0].Subject)
	}

	// Mail after mail, alice's address gets the hourly bound, then one
	// notice that says until when, then nothing.
	total, notices, silent := answerBytes(out), 0, 0
	for range 10 {
		out := h.deliver(h.forged("alice@example.org", "multiple", body))
		total += answerBytes(out)
		switch {
		case len(out) == 0:
			silent++
		case strings.Contains(flat(merged(t, out).Body), "one address gets at most 131072 bytes of them in 1h, and yours has had them; more go after 2026-11-22 13:01 UTC"):
			notices++
			says(t, merged(t, out).Body, "or send again after 2026-11-22 13:01 UTC.")
		}
	}
	if total > lim.AddressAnswerBytes+notice {
		t.Errorf("11 forged mails drew %d bytes to alice in an hour; want at most %d and one notice", total, lim.AddressAnswerBytes)
	}
	if notices != 1 || silent < 5 {
		t.Errorf("over the hourly bound: %d notices, %d mails unanswered; want one notice, then silence", notices, silent)
	}

	// Signed mail is not bounded, and the next window answers again.
	if n := answerBytes(h.send("alice@example.org", "multiple", body)); n != whole {
		t.Errorf("the signed mail got %d bytes with the bound spent; want all %d", n, whole)
	}
	h.now = h.now.Add(time.Hour)
	if n := answerBytes(h.deliver(h.forged("alice@example.org", "multiple", body))); n == 0 || n > lim.AnswerBytes {
		t.Errorf("in the next hour a forged mail drew %d bytes; want up to %d", n, lim.AnswerBytes)
	}
}

// All senders nobody vouches for share one budget a window: many forged
// Froms, one address each, draw no more than it; once spent, each address
// gets one notice saying so. Board mails to players are not answers: a
// player on a domain that signs nothing plays on.
func TestBackscatterAllSenders(t *testing.T) {
	t.Parallel()
	h, _ := victim(t)
	h.svc.cfg.Limits.AllAnswerBytes = 8000
	h.restart()
	lim := h.svc.limits
	total := 0
	var spent []reply
	for i := range 12 {
		from := fmt.Sprintf("u%d@example.net", i)
		h.signup(fmt.Sprintf("u%d", i)) // signed: not counted
		h.now = h.now.Add(time.Minute)
		out := h.deliver(h.forged(from, "ultima show alice all", ""))
		total += answerBytes(out)
		if len(out) == 1 && strings.Contains(flat(out[0].Body), "all such answers together are at most 8000 bytes in 1h, and those are spent until") {
			spent = append(spent, out[0])
		}
	}
	if total > lim.AllAnswerBytes+len(spent)*notice {
		t.Errorf("12 forged senders drew %d bytes; want at most the budget %d and a notice each once it is spent", total, lim.AllAnswerBytes)
	}
	if len(spent) < 3 {
		t.Errorf("%d senders were told the budget is spent; want every one after it was", len(spent))
	}
	// A player whose domain signs nothing still gets his board mails.
	out := h.deliver(h.forged("alice@example.org", "ultima move 101 alice pw-alice e2-e5", ""))
	boardMails(t, out, "Ultima Board 101 bob", "alice@example.org", "bob@example.org")
}
