package pbem

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/templates"
)

// TestEveryReplyFits drives every command of the table, each form with its
// examples and with wrong words (none, too many, a wrong password, a
// stranger's huge word), from players, a stranger and forged Froms, and
// checks every reply of every kind: no line wider than 72 columns but
// quoted lines and board diagrams, and every error mail ending with the
// command that would work.
func TestEveryReplyFits(t *testing.T) { everyReplyFits(t, "") }

// TestEveryGermanReplyFits is TestEveryReplyFits with players who chose
// German: its sentences are longer, and must be wrapped alike.
func TestEveryGermanReplyFits(t *testing.T) { everyReplyFits(t, "de") }

// everyReplyFits runs TestEveryReplyFits, its players' mails in lang when
// it is set.
func everyReplyFits(t *testing.T, lang string) {
	h := newHarness(t)
	h.svc.cfg.Limits.Mails, h.svc.cfg.Limits.Reads = 100000, 100000 // this test is about the replies
	h.svc.cfg.Limits.BadPasswords, h.svc.cfg.Limits.AnswerBytes = 100000, 1<<20
	h.svc.cfg.Limits.AddressAnswerBytes, h.svc.cfg.Limits.AllAnswerBytes = 1<<30, 1<<30
	h.restart()
	kinds := map[string]bool{}
	check := func(sent string, out []reply) {
		for _, r := range out {
			kinds[kindOf(r.Subject)] = true
			checkReplyWidth(t, sent, r)
			if strings.HasSuffix(r.Subject, "error") || strings.HasSuffix(r.Subject, "Error") {
				if refusalCommand(r.Body) == "" {
					t.Errorf("%.60s: the error mail does not end with a command:\n%s", sent, r.Body)
				}
			}
		}
	}
	for _, id := range []string{"alice", "bob", "carol", "dave"} {
		check("signup", h.send(id+"@example.org", "signup "+id+" secret", ""))
		if lang != "" {
			check("set language", h.send(id+"@example.org", "set language "+id+" secret "+lang, ""))
		}
	}
	// Boards of every game: in play, with a move, over, open.
	for _, g := range gameNames() {
		check("challenge", h.send("alice@example.org", g+" challenge alice bob", ""))
		check("challenge", h.send("bob@example.org", g+" challenge bob alice", ""))
		check("resign", h.send("alice@example.org", g+" resign 102 alice secret", ""))
		check("seat", h.send("carol@example.org", g+" challenge carol ?", ""))
	}
	long := strings.Repeat("x", 5000)
	var subjectsSent []string
	for _, row := range commands {
		games := []string{""}
		if row.game {
			games = gameNames()
		}
		for _, g := range games {
			name := row.name
			if row.game {
				name = g + " " + row.name
			}
			subjectsSent = append(subjectsSent, name, name+" "+long, name+" alice wrong", name+" 101 alice wrong extra words here")
			for _, f := range row.forms {
				words := strings.Fields(strings.Replace(f.words, "GAME", g, 1))
				subjectsSent = append(subjectsSent, strings.Join(words, " ")) // the form itself, as a newcomer copies it
				for _, ex := range f.examples {
					ex, _, _ = strings.Cut(ex, " (body:")
					if row.game {
						// The example's game, and every other.
						ex = g + ex[strings.Index(ex, " "):]
					}
					subjectsSent = append(subjectsSent, ex, ex+" extra", strings.Replace(ex, "secret", "wrong", 1))
				}
			}
		}
	}
	subjectsSent = append(subjectsSent, "", "hello", long, "tanbo", "tnabo show 101", "multiple", "help "+long)
	for i, subject := range subjectsSent {
		from := []string{"alice@example.org", "bob@example.org", "carol@example.org", "stranger@example.net"}[i%4]
		raw := h.mail(from, subject, "a comment")
		if i%5 == 0 {
			raw = h.forged(from, subject, "a comment")
		}
		h.now = h.now.Add(time.Minute)
		check(subject, h.deliver(raw))
	}
	// A stranger's huge word is quoted cut at a word's end, with an
	// ellipsis that says so.
	r := one(t, h.send("alice@example.org", "help "+long, ""), "alice@example.org")
	has(t, r.Body, `"`+strings.Repeat("x", maxQuotedWord)+` ..."`)
	// Many answers in one mail, and more commands than a mail runs.
	check("multiple", h.send("dave@example.org", "multiple", strings.Join(subjectsSent[:40], "\n")))
	t.Logf("%d mails, %d kinds of reply: %v", len(subjectsSent), len(kinds), kinds)
	if len(kinds) < 30 {
		t.Errorf("only %d kinds of reply: %v", len(kinds), kinds)
	}
}

// kindOf is a reply's subject without its numbers and user ids: its kind.
func kindOf(subject string) string {
	var out []string
	for _, w := range strings.Fields(subject) {
		if w[0] >= '0' && w[0] <= '9' || strings.Contains("alice bob carol dave", strings.ToLower(w)) {
			continue
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

// checkReplyWidth fails a reply with a line wider than model.LineWidth outside
// the quoted mail ("> ") and the board diagram (from a line of column
// letters to the next one).
func checkReplyWidth(t *testing.T, sent string, r reply) {
	t.Helper()
	inBoard := false
	for _, l := range strings.Split(r.Body, "\n") {
		if diagramEdge(l) {
			inBoard = !inBoard
			continue
		}
		if n := utf8.RuneCountInString(l); n > model.LineWidth && !strings.HasPrefix(l, ">") && !inBoard {
			t.Errorf("%.60s: a line of the reply %q to %s is %d columns wide:\n%s", sent, r.Subject, r.To, n, l)
		}
	}
}

// diagramEdge reports whether a line is the column letters above or below
// a board diagram ("    a b c d ...").
func diagramEdge(l string) bool {
	f := strings.Fields(l)
	return len(f) > 4 && strings.HasPrefix(l, "   ") && f[0] == "a" && f[1] == "b" && f[2] == "c"
}

// refusalCommand is the command an error mail ends with: the last line of
// its text before the board and the quoted mail, when it is a command set
// apart by two spaces; "" when it is none.
func refusalCommand(body string) string {
	text := body
	for _, lang := range templates.Languages() { // the text ends where the board or the original starts
		text, _, _ = strings.Cut(text, "\n"+templates.T(lang, "Original message follows:"))
		text, _, _ = strings.Cut(text, "\n"+strings.Fields(templates.Sprintf(lang, "Summary of %s Board %d", "", 0))[0]+" ")
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "  ") {
		return ""
	}
	return strings.TrimSpace(last)
}
