package pbem

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The final board of a game, whether a move or the sweep's forfeit ended
// it, goes to its players, its subscriber, and more notifiers than one
// mail in copies holds: each gets exactly one mail of his own, addressed
// To him alone, the same bytes as a mail composed for him alone always
// were (the golden files; only the Message-ID is left out).
func TestEndMailToNotifiers(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.signup("carol")
	h.send("carol@example.org", "tanbo subscribe 101 carol pw-carol", "")
	var notifiers []string
	// As many as a game may have (limits.watchers): with its players and
	// subscriber, more than one mail in copies holds.
	for i := range h.svc.limits.Watchers {
		id := fmt.Sprintf("n%03d", i)
		h.signup(id)
		one(t, h.send(id+"@example.org", "tanbo notify "+id+" pw-"+id, ""), id+"@example.org")
		notifiers = append(notifiers, id+"@example.org")
	}
	want := append([]string{"alice@example.org", "bob@example.org", "carol@example.org"}, notifiers...)
	check := func(name, subject string, out []reply) {
		t.Helper()
		var got []string
		for _, r := range out {
			got = append(got, r.To)
			if r.Subject != subject {
				t.Errorf("%s: the mail to %s is %q; want %q", name, r.To, r.Subject, subject)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: mails went to %v; want one to each of %v", name, got, want)
		}
		// Each mail is the one to its recipient alone: all alike but for
		// the To field, which names him.
		var texts []string
		for _, r := range out {
			raw := sameID(string(r.Raw))
			to := "\r\nTo: " + r.To + "\r\n"
			if !strings.Contains(raw, to) {
				t.Errorf("%s: the mail to %s lacks %q:\n%s", name, r.To, to, raw)
			}
			texts = append(texts, strings.Replace(raw, to, "\r\nTo: RECIPIENT\r\n", 1))
		}
		for i := range texts {
			if texts[i] != texts[0] {
				t.Fatalf("%s: the mail to %s differs from that to %s but for To:\n%s\n---\n%s", name, out[i].To, out[0].To, texts[i], texts[0])
			}
		}
		goldenText(t, name, strings.ReplaceAll(sameID(string(out[2].Raw)), "\r\n", "\n"))
	}

	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "")
	h.send("alice@example.org", "tanbo move 101 alice pw-alice b3", "")
	check("end-notifiers-move", "Tanbo Board 101 won by alice", h.send("bob@example.org", "tanbo resign 101 bob pw-bob", ""))

	h.send("alice@example.org", "tanbo challenge alice bob -size=9", "")
	h.send("alice@example.org", "tanbo move 102 alice pw-alice h7", "")
	h.send("bob@example.org", "tanbo move 102 bob pw-bob b7", "")
	h.send("carol@example.org", "tanbo subscribe 102 carol pw-carol", "")
	h.now = h.now.Add(21 * day)
	if err := h.svc.Sweep(h.now); err != nil {
		t.Fatal(err)
	}
	// Composed once, and stored in mails of at most copiesPerMail
	// recipients.
	queued, err := h.db.Pending(h.now, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(queued) != 2 || len(queued[0].To) != copiesPerMail || len(queued[1].To) != len(want)-copiesPerMail {
		t.Errorf("the end is queued as %d mails; want one of %d recipients and one of the other %d", len(queued), copiesPerMail, len(want)-copiesPerMail)
	}
	out := h.outbox()
	if len(out) > 0 && strings.HasPrefix(out[0].Subject, "Nag:") {
		t.Fatalf("the sweep sent a reminder, not the forfeit: %v", subjects(out))
	}
	check("end-notifiers-forfeit", "Tanbo Board 102 won by bob", out)
	if out := h.sweep(); len(out) != 0 {
		t.Errorf("the next sweep sent %v", subjects(out))
	}
}

// sameID is a mail with its ids made by the server (numbered in the
// harness: how many depends on how many mails were composed) as one.
func sameID(raw string) string {
	return regexp.MustCompile(`reply\d+@example\.org`).ReplaceAllString(raw, "reply@example.org")
}
