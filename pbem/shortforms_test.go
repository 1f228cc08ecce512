package pbem

import (
	"strings"
	"testing"
)

// TestPbmservShortForms: the short forms pbmserv accepted run their
// commands, and help commands names them.
func TestPbmservShortForms(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob", "carol")
	// Every prefix of challenge from 5 letters; options by a unique start.
	for i, verb := range []string{"chall", "challe", "challen", "challeng", "CHALLENGE"} {
		out := h.send("alice@example.org", "tanbo "+verb+" alice bob -si=9", "")
		if len(out) != 2 || !strings.HasPrefix(out[0].Subject, "New Tanbo Board ") {
			t.Fatalf("%s: %v", verb, subjects(out))
		}
		if g := h.game("tanbo", 101+i); strings.Join(g.Options, " ") != "-size=9" {
			t.Errorf("%s: options %q, want -size=9", verb, g.Options)
		}
	}
	errorReply(t, h.send("alice@example.org", "tanbo chal alice bob", ""), "alice@example.org",
		`"chal" is not a command of Tanbo; the commands are accept, challenge, chat, decline, games, help, history, join, limit, move, notify, preview, queue, record, reject, rematch, resign, seek, seeks, show, standings, subscribe, swap, todo, unsubscribe.`)
	errorReply(t, h.send("alice@example.org", "tanbo challenge alice bob -s=9 -swap", ""), "alice@example.org",
		`"-s=9" is the start of more than one option of Tanbo; write more of its name.`)
	// subscribe from 3 letters, unsubscribe from 5.
	for _, verb := range []string{"sub", "subs", "subscr", "subscribe"} {
		boardMails(t, h.send("carol@example.org", "tanbo "+verb+" 101 carol pw-carol", ""), "Tanbo Board 101 alice", "carol@example.org")
		boardMails(t, h.send("carol@example.org", "tanbo unsub 101 carol pw-carol", ""), "Tanbo Board 101 alice", "carol@example.org")
	}
	for _, verb := range []string{"unsubs", "unsubscri", "unsubscribe"} {
		h.send("carol@example.org", "tanbo sub 101 carol pw-carol", "")
		boardMails(t, h.send("carol@example.org", "tanbo "+verb+" 101 carol pw-carol", ""), "Tanbo Board 101 alice", "carol@example.org")
	}
	// prev... is preview.
	for _, verb := range []string{"prev", "previ", "previe"} {
		r := one(t, h.send("carol@example.org", "tanbo "+verb+" 101 h7", ""), "carol@example.org")
		if r.Subject != "Tanbo Board 101 preview" {
			t.Errorf("%s: subject %q", verb, r.Subject)
		}
	}
	// qboard, moveq and boardq queue a move.
	for _, verb := range []string{"qboard", "moveq", "boardq"} {
		r := one(t, h.send("bob@example.org", "tanbo "+verb+" 101 bob pw-bob b7", ""), "bob@example.org")
		if r.Subject != "Tanbo Board 101 queued" {
			t.Errorf("%s: subject %q", verb, r.Subject)
		}
		h.send("bob@example.org", "tanbo queue 101 bob pw-bob clear", "")
	}
	// help tutorial, and delete = signoff.
	r := one(t, h.send("x@example.org", "help tutorial", ""), "x@example.org")
	if r.Subject != "pbemd help tutorial" || !strings.Contains(r.Body, "signup alice secret") {
		t.Errorf("help tutorial: %q\n%s", r.Subject, r.Body)
	}
	out := h.send("carol@example.org", "delete carol pw-carol", "")
	if len(out) != 1 || out[0].Subject != "pbemd: goodbye carol" {
		t.Errorf("delete: %v", subjects(out))
	}
	help := one(t, h.send("x@example.org", "help commands", ""), "x@example.org").Body
	says(t, help, "\n  challenge: any start of it from 5 letters (chall)\n", "\n  subscribe: any start of it from 3 letters (sub)\n",
		"\n  unsubscribe: any start of it from 5 letters (unsub)\n", "\n  preview: any start of it from 4 letters (prev)\n",
		"\n  queue: qmove, qboard, moveq, boardq\n", "\n  signoff: delete\n", "options by a unique start",
		"help [commands | tutorial | clocks | GAME | COMMAND]")
}
