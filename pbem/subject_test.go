package pbem

import (
	"strings"
	"testing"
)

// Odd subjects from a user each get one error reply to him, with a subject
// of the forms docs/commands.md lists, and change nothing.
func TestOddSubjects(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.svc.limits = Limits{Mails: 1000, BadPasswords: 1000}.withDefaults()
	big := "1000000000000000000000000000000"
	words500 := strings.TrimSpace(strings.Repeat("word ", 500))
	for _, c := range []struct{ subject, errSubject, first string }{
		{"", "pbemd error", "The subject is empty; "},
		{"**", "pbemd error", "The subject is empty; "},
		{"Re:", "pbemd error", "The subject is empty; "},
		{"Re: Fwd: **", "pbemd error", "The subject is empty; "},
		{words500, "pbemd error", `"word" is not a command; `},
		{"tanbo move 101 alice pw-alice " + words500, "Tanbo Board 101 Error", "word word word"},
		{"tänbo show 101", "pbemd error", `"tänbo" is not a command; `},
		{"tanbo show " + big, "tanbo error", `"` + big + `" is not a board number; `},
		{"tanbo move " + big + " alice pw-alice h7", "tanbo error", `"` + big + `" is not a board number; `},
		{"tanbo move 101 alice pw-alice h7#" + big, "Tanbo Board 101 Error", `"h7#` + big + `" does not end in a move number; `},
		{"tanbo show 101#" + big, "Tanbo Board 101 Error", `"101#` + big + `" asks for the board after move `},
		{"tanbo move 101 alice pw-alice #", "Tanbo Board 101 Error", `"#" does not end in a move number; `},
		{"tanbo move 101 alice pw-alice ü", "Tanbo Board 101 Error", "ü is not a legal move on Tanbo board 101: "},
		{"tanbo", "tanbo error", `"tanbo" needs a command after it: `},
		{"tanbo show", "tanbo error", "Show needs a board number or a user id; "},
		{"tanbo show board", "tanbo error", "Show needs a board number or a user id; "},
		{"tanbo challenge ? ?", "tanbo error", "A challenge with an open seat names its one player and a ?"},
	} {
		// The subject as the body too: "", "**" and "Re:" are the same
		// command, and the same mail refused again within a day is not
		// answered.
		out := h.send("alice@example.org", c.subject, c.subject)
		if len(out) != 1 || out[0].To != "alice@example.org" {
			t.Errorf("%.60q: got %v, want one error reply to alice", c.subject, subjects(out))
			continue
		}
		if out[0].Subject != c.errSubject {
			t.Errorf("%.60q: subject %q, want %q", c.subject, out[0].Subject, c.errSubject)
		}
		if !strings.HasPrefix(strings.ReplaceAll(out[0].Body, "\n", " "), c.first) || !strings.Contains(out[0].Body, "\nOriginal message follows:\n") {
			t.Errorf("%.60q: reply does not start with %q and quote the mail:\n%.600s", c.subject, c.first, out[0].Body)
		}
	}
	if g := h.game("tanbo", 101); len(g.Moves) != 0 {
		t.Errorf("odd subjects played moves: %+v", g.Moves)
	}
	// A stranger's empty or Re:-only subject is no command: one how-to a day.
	one(t, h.send("stranger@example.org", "Re:", ""), "stranger@example.org")
	if out := h.send("stranger@example.org", "**", ""); len(out) != 0 {
		t.Errorf("a second how-to the same day: %v", subjects(out))
	}
}

// User ids are case-insensitive wherever they are written; passwords are not.
func TestCaseOfUserIDsAndPasswords(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice")
	one(t, h.send("BOB@Example.org", "signup Bob Secret-Pw", ""), "bob@example.org")
	out := h.send("alice@example.org", "tanbo chall ALICE bob -size=9", "")
	boardMails(t, out, "New Tanbo Board 101 alice", "alice@example.org", "bob@example.org")
	if g := h.game("tanbo", 101); g.Seats[0] != "alice" || g.Seats[1] != "bob" {
		t.Errorf("seats %q, want the user ids", g.Seats)
	}
	boardMails(t, h.send("alice@example.org", "tanbo move 101 Alice pw-alice h7", ""), "Tanbo Board 101 bob",
		"alice@example.org", "bob@example.org")
	errorReply(t, h.send("bob@example.org", "tanbo move 101 bob secret-pw b7", ""), "bob@example.org",
		"The password for Bob is wrong; passwords are case-sensitive. A forgotten one can be reset: send 'reset bob' and a code comes to the account's addresses.")
	boardMails(t, h.send("bob@example.org", "tanbo move 101 BOB Secret-Pw b7", ""), "Tanbo Board 101 alice",
		"alice@example.org", "bob@example.org")
	if r := one(t, h.send("x@example.org", "tanbo show BOB", ""), "x@example.org"); r.Subject != "Tanbo Board 101 alice" {
		t.Errorf("show BOB: %q", r.Subject)
	}
	errorReply(t, h.send("x@example.org", "signup ALICE 0ther-pw", ""), "x@example.org",
		"The user id ALICE is taken; choose another one.")
}

// FuzzSubject: whatever the subject, a registered user's mail is
// handled without an error and answered.
func FuzzSubject(f *testing.F) {
	for _, s := range []string{"", "**", "Re:", "tanbo move 101 alice pw-alice #", "tanbo show 101#", "tanbo show #",
		"tanbo move 101 alice pw-alice h7#1", "multiple", "tanbo preview new h7", "all show alice", "tanbo games alice next",
		"tanbo chall alice bob -size=9 --nagtime=2", "ultima show 1000000000000000000000000000000", "help tanbo"} {
		f.Add(s, "tanbo show 101\n")
	}
	f.Fuzz(func(t *testing.T, subject, body string) {
		subject = strings.Map(func(r rune) rune {
			if r == '\r' || r == '\n' {
				return ' '
			}
			return r
		}, subject)
		h := twoPlayers(t)
		h.svc.limits = Limits{Mails: 1000, BadPasswords: 1000}.withDefaults()
		raw := h.mail("alice@example.org", subject, body)
		if err := h.svc.Deliver(raw); err != nil {
			t.Fatalf("Deliver(%q): %v", subject, err)
		}
		if out := h.outbox(); len(out) == 0 {
			t.Errorf("subject %q got no reply", subject)
		}
	})
}
