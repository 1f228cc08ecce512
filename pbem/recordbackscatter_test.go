package pbem

import (
	"strings"
	"testing"
)

// sentBytes is what a reply puts in its recipient's mailbox as the
// bounds count it: its subject, its text and its attached files.
func sentBytes(t *testing.T, out []reply) int {
	t.Helper()
	n := answerBytes(out)
	for _, r := range out {
		if !strings.Contains(string(r.Raw), "multipart/mixed") {
			continue
		}
		for _, text := range attachments(t, r) {
			n += len(text)
		}
	}
	return n
}

// recordVictim is a harness where alice has commented her move on Tanbo
// board 101, whose record any forged mail in her name may ask for.
func recordVictim(t *testing.T, comment string) *harness {
	t.Helper()
	h := twoPlayers(t)
	h.svc.cfg.Limits.Mails = 1000 // these tests are about bytes
	h.restart()
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", comment)
	return h
}

// A record comes attached as well as inline, and its files count against
// the bounds of answers to forged mail as its text does: mail after mail
// of "tanbo record 101" lines in alice's name draws no more to her address
// in a window than AddressAnswerBytes and one notice.
func TestRecordBackscatterBounded(t *testing.T) {
	t.Parallel()
	h := recordVictim(t, strings.Repeat("a long comment ", 100))
	lim := h.svc.limits
	body := strings.Repeat("tanbo record 101\n", 20)
	total := 0
	for range 20 {
		out := h.deliver(h.forged("alice@example.org", "multiple", body))
		for _, r := range out {
			if r.To != "alice@example.org" {
				t.Fatalf("the forged mail drew %q to %s", r.Subject, r.To)
			}
		}
		n := sentBytes(t, out)
		if n > lim.AnswerBytes+notice {
			t.Errorf("a forged mail drew %d bytes; want at most %d", n, lim.AnswerBytes)
		}
		total += n
	}
	if total > lim.AddressAnswerBytes+notice {
		t.Errorf("20 forged mails of records drew %d bytes to alice in an hour; want at most %d and one notice", total, lim.AddressAnswerBytes)
	}
}

// A record of comments in letters beyond ASCII goes quoted-printable,
// some three bytes on the wire for each of their bytes: a forged mail
// draws no more bytes of mail to the address it names than the bounds,
// as they go, not as their text counts before encoding.
func TestRecordBackscatterCountsEncodedBytes(t *testing.T) {
	t.Parallel()
	h := recordVictim(t, strings.Repeat("Grüße, àéîõü ", 600))
	lim := h.svc.limits
	const headers = 2000 // a mail's header and MIME parts' heads, which the bounds leave out
	total := 0
	for range 10 {
		out := h.deliver(h.forged("alice@example.org", "tanbo record 101", ""))
		n := 0
		for _, r := range out {
			n += len(r.Raw)
		}
		if n > lim.AnswerBytes+notice+headers*len(out) {
			t.Errorf("a forged mail drew %d bytes of mail in %d mails; want at most %d and a notice", n, len(out), lim.AnswerBytes)
		}
		total += n
	}
	if total > lim.AddressAnswerBytes+10*(notice+headers) {
		t.Errorf("10 forged mails drew %d bytes of mail to alice in an hour; want at most %d and notices", total, lim.AddressAnswerBytes)
	}
}
