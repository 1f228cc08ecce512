package pbem

import (
	"regexp"
	"strings"
	"testing"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/templates"
)

// TestGermanNewcomerSession is issue 31's proof: the newcomer's first hour
// (TestNewcomerSession: help, the tutorial, a game against a robot, shows,
// mistakes and replies to the errors) by a player who chooses German right
// after signing up. Every answer from then on is German: none holds a
// sentence of the English catalog or a line of an English template that
// German translates, and the German of each kind of mail turns up. The
// commands in them stay English.
func TestGermanNewcomerSession(t *testing.T) {
	leaks := englishPhrases(t, "de")
	want := map[string]string{
		"the language set":         "Ab jetzt kommen die Mails von nina auf Deutsch.",
		"the help index":           "pbemd: Brettspiele per Mail",
		"the tutorial":             "Ein erstes Spiel, Schritt für Schritt",
		"a board mail":             "Übersicht: Tanbo, Brett 101",
		"whose turn it is":         "ist am Zug.",
		"the move played":          "hat",
		"the command to send":      "Du bist am Zug. Schicke eine Mail mit diesem Betreff",
		"that command, in English": "  tanbo move 101 nina PASSWORD MOVE#",
		"an error mail":            "Es folgt die ursprüngliche Nachricht:",
		"an illegal move":          "kein erlaubter Zug",
		"the command that works":   "Schreibe den Befehl so:",
		"the sides":                "Schwarz: ",
	}
	if !englishLine("The board as it stood after move 1 of 30.") || englishLine("Das Brett, wie es nach Zug 1 von 30 stand.") {
		t.Fatal("englishLine does not tell English from German")
	}
	seen := map[string]bool{}
	newcomerSession(t, "de", func(sent string, r reply) {
		for what, phrase := range want {
			if strings.Contains(r.Body, phrase) {
				seen[what] = true
			}
		}
		if staysEnglish(r.Subject) {
			return
		}
		body := ownText(r.Body)
		if debugLang {
			t.Logf("=== %s -> %s\n%s", sent, r.Subject, r.Body)
		}
		for _, p := range leaks {
			if strings.Contains(body, p) {
				t.Errorf("%.40s: the German reply %q holds the English %q:\n%s", sent, r.Subject, p, r.Body)
			}
		}
		for _, l := range strings.Split(body, "\n") {
			if englishLine(l) {
				t.Errorf("%.40s: the German reply %q has an English line %q", sent, r.Subject, l)
			}
		}
	})
	for what, phrase := range want {
		if !seen[what] {
			t.Errorf("no German reply showed %s (%q)", what, phrase)
		}
	}
}

const debugLang = false

// TestSetLanguage: a player chooses the language of his mails; a language
// not offered, a forged mail without his password or hostile words change
// nothing. Each player of a board gets its mails in his own language,
// with the same commands; a player who chose none gets English.
func TestSetLanguage(t *testing.T) {
	h := twoPlayers(t)
	says(t, one(t, h.send("alice@example.org", "set language alice pw-alice", ""), "alice@example.org").Body,
		"The mails of alice are in English.")
	r := one(t, h.send("alice@example.org", "set language alice pw-alice DE", ""), "alice@example.org")
	says(t, r.Body, "Ab jetzt kommen die Mails von alice auf Deutsch.")
	for _, bad := range []string{"klingon", "x-" + strings.Repeat("a", 500), "de extra", "../de", "en-", "deutsch"} {
		r := one(t, h.send("alice@example.org", "set language alice pw-alice "+bad, ""), "alice@example.org")
		says(t, r.Body, "ist keine Sprache, die es hier gibt; schreibe eine von en, de", "Es folgt die ursprüngliche Nachricht:")
		says(t, r.Body, "Schreibe den Befehl so:\n  set language userid password [en|de]")
		hasNot(t, r.Body, "pw-alice")
		hasNot(t, ownText(r.Body), strings.Repeat("a", 100))
	}
	// A forged mail without alice's password sets nothing, and its
	// answer, to her address, is in her language.
	r = one(t, h.deliver(h.forged("alice@example.org", "set language alice guessed en", "")), "alice@example.org")
	says(t, r.Body, "Das Passwort für alice ist falsch")
	if got := h.user("alice").Extra[languageKey]; got != "de" {
		t.Errorf("language stored: %q, want de", got)
	}

	// One move: alice reads German, bob English, the commands alike.
	out := h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	a, b := to(t, out, "alice@example.org"), to(t, out, "bob@example.org")
	if a.Subject != b.Subject {
		t.Errorf("subjects differ: %q and %q; a subject stays English", a.Subject, b.Subject)
	}
	says(t, a.Body, "alice hat h7 gespielt.", "bob ist am Zug.", "Weiß (bob) spielt Zug #2.", "Schwarz: alice")
	says(t, b.Body, "alice played h7.", "It is bob's turn.", "White (bob) plays move #2.", "Black: alice",
		"Your move. Send a mail", "tanbo move 101 bob PASSWORD MOVE#2")
	hasNot(t, b.Body, "Zug", "Schwarz")
	// An illegal move: the game's reason, in German.
	_, pos, err := model.Replay(h.game("tanbo", 101), 1)
	if err != nil {
		t.Fatal(err)
	}
	to(t, h.send("bob@example.org", "tanbo move 101 bob pw-bob "+pos.Legal()[0], ""), "alice@example.org")
	r = one(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice z99", ""), "alice@example.org")
	says(t, r.Body, "z99 ist auf Tanbo-Brett 101 kein erlaubter Zug: z99 liegt nicht auf dem Brett; die Punkte gehen von a1 bis i9.",
		"Schreibe den Befehl so:", "tanbo move board userid password move[#n]")

	// Answers of several commands in one mail, todo, a vacation.
	r = one(t, h.send("alice@example.org", "multiple", "todo\nvacation alice pw-alice 3"), "alice@example.org")
	says(t, r.Body, "Diese Mail enthält 2 Antworten auf deine Mail",
		"Die Bretter, auf denen alice am Zug ist, das dringendste zuerst:",
		"Tanbo-Brett 101 gegen bob: bob hat", "tanbo move 101 alice PASSWORD MOVE#3",
		"alice ist bis", "im Urlaub.", "vacation alice PASSWORD 0")

	says(t, one(t, h.send("alice@example.org", "help clocks", ""), "alice@example.org").Body,
		"Bedenkzeit, Urlaub und deine Bretter", "Jeder Spieler hat 30 Urlaubstage im Kalenderjahr.")

	one(t, h.send("alice@example.org", "set language alice pw-alice en", ""), "alice@example.org")
	says(t, one(t, h.send("alice@example.org", "tanbo show 101", ""), "alice@example.org").Body, "It is alice's turn.", "Black: alice")
}

// to is the one reply of out to the address.
func to(t *testing.T, out []reply, addr string) reply {
	t.Helper()
	var got []reply
	for _, r := range out {
		if r.To == addr {
			got = append(got, r)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d replies to %s among %v", len(got), addr, subjects(out))
	}
	return got[0]
}

// staysEnglish reports whether a reply is of a kind that is English in
// every language: the rules of a game ("Tanbo help"), which are the
// game's own text, and the forms of the command table ("pbemd help
// commands", "pbemd help move").
func staysEnglish(subject string) bool {
	return strings.HasSuffix(subject, " help") ||
		strings.HasPrefix(subject, "pbemd help ") && subject != "pbemd help tutorial" && subject != "pbemd help clocks"
}

// englishLine reports whether a line reads as English, a sentence the
// catalogs do not know yet: two or more of English's commonest small
// words, which German does not use.
func englishLine(l string) bool {
	n := 0
	for _, w := range strings.Fields(strings.ToLower(l)) {
		switch strings.Trim(w, ".,;:()\"'") {
		case "the", "is", "your", "you", "of", "and", "with", "this", "are", "has", "for":
			n++
		}
	}
	return n >= 2
}

// ownText is a reply without the mail it quotes.
func ownText(body string) string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		if !strings.HasPrefix(l, ">") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// verb is a verb of a fmt format.
var verb = regexp.MustCompile(`%(\[\d+\])?[-+# 0-9.*]*[a-zA-Z%]`)

// englishPhrases are what of English a reply in lang must not hold: the
// fixed parts of each sentence lang translates, and the lines of each
// English template lang has a file of its own for, those long enough to
// be telling.
func englishPhrases(t *testing.T, lang string) []string {
	var out []string
	for _, key := range templates.Keys(lang) {
		for _, part := range verb.Split(key, -1) {
			for _, line := range strings.Split(part, "\n") {
				if line = strings.TrimSpace(line); len(line) >= 16 {
					out = append(out, line)
				}
			}
		}
	}
	for _, name := range templates.Names() {
		if _, ok := templates.Source(lang, name); !ok {
			continue
		}
		src, _ := templates.Source(templates.English, name)
		for _, line := range strings.Split(src, "\n") {
			line = strings.TrimSpace(line)
			if len(line) >= 20 && !strings.Contains(line, "{{") && !strings.HasPrefix(line, `"`) && !isCommand(line) {
				out = append(out, line)
			}
		}
	}
	if len(out) < 100 {
		t.Fatalf("only %d English phrases of what %s translates", len(out), lang)
	}
	return out
}

// isCommand reports whether a line of a template is a command, which every
// language writes alike.
func isCommand(line string) bool {
	w := strings.Fields(line)
	return len(w) > 1 && (w[0] == "Subject:" || strings.ToLower(w[0]) == w[0] && !strings.ContainsAny(line, ",.;:\""))
}

// A signup that names a language last gets its welcome in it, and the
// account's mails after; a last word that is no language offered is an
// address as before, refused as one.
func TestSignupInGerman(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	r := one(t, h.send("erika@example.org", "signup erika geheim1 de", ""), "erika@example.org")
	says(t, r.Body, "Willkommen bei pbemd, erika.")
	hasNot(t, r.Body, "Welcome")
	r = one(t, h.send("erika@example.org", "vacation erika geheim1 3", ""), "erika@example.org")
	says(t, r.Body, "erika ist bis", "im Urlaub")
	r = one(t, h.send("otto@example.org", "signup otto geheim1 klingon", ""), "otto@example.org")
	says(t, r.Body, `"klingon" is not a mail address`)
}
