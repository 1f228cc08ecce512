package pbem

import (
	"strings"
	"testing"
)

// Each form of a row starts with the words that name the row's command,
// so the help, the docs and the usage errors show a form under the
// command that runs it.
func TestCommandTableFormsNameTheirCommand(t *testing.T) {
	t.Parallel()
	for _, c := range commands {
		start := c.name
		if c.game {
			start = "GAME " + c.name
		}
		if len(c.forms) == 0 {
			t.Errorf("%s has no form: the help would not show it", start)
		}
		for _, f := range c.forms {
			if f.words != start && !strings.HasPrefix(f.words, start+" ") {
				t.Errorf("the form %q is a row of %q", f.words, start)
			}
			if f.text == "" {
				t.Errorf("the form %q says nothing of what it does", f.words)
			}
		}
	}
}

// The words of the table name their commands, and no others: aliases,
// shortest prefixes, and a prefix shorter than that names nothing.
func TestCommandWordsComeFromTheTable(t *testing.T) {
	t.Parallel()
	for subject, want := range map[string]string{
		"tanbo ratings":  "standings",
		"tanbo RATINGS":  "standings",
		"tanbo chall":    "challenge",
		"tanbo challen":  "challenge",
		"tanbo cha":      "",
		"tanbo challenz": "",
		"tanbo prev":     "preview",
		"tanbo pre":      "",
		"tanbo sub":      "subscribe",
		"tanbo su":       "",
		"tanbo unsub":    "unsubscribe",
		"tanbo uns":      "",
		"tanbo mvoe":     "move",
		"tanbo boardq":   "queue",
		"delete":         "signoff",
		"DELETE":         "signoff",
		"multiple":       "multiple",
		"tanbo delete":   "", // a global alias is no game command
		"signup":         "signup",
		"tanbo signup":   "",
		"nosuchgame sub": "",
	} {
		if got := commandVerb(strings.Fields(subject)); got != want {
			t.Errorf("%q names %q, want %q", subject, got, want)
		}
	}
}

// The commands that only read are counted as such by the limits; every
// other one, as a change.
func TestReadOnlyComesFromTheTable(t *testing.T) {
	t.Parallel()
	for subject, want := range map[string]bool{
		"help":                          true,
		"tanbo help":                    true,
		"tanbo ratings":                 true,
		"tanbo prev 101 h7":             true,
		"all show alice":                true,
		"tanbo move 101 alice pw h7":    false,
		"tanbo board 101 alice pw h7":   false,
		"multiple":                      false,
		"tanbo sub 101 alice pw":        false,
		"signup alice pw":               false,
		"nonsense words of no command":  false,
		"tanbo showme 101 as read-only": false,
	} {
		if got := readOnly(strings.Fields(subject)); got != want {
			t.Errorf("readOnly(%q) = %v, want %v", subject, got, want)
		}
	}
}

// A wrong number of words is answered with the forms of the command's row,
// one for each number of words, with the game's name; what stands in a
// form's password or code place is masked in the quoted mail, whoever
// sent it.
func TestUsageComesFromTheTable(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice")
	for _, e := range []struct{ from, subject, want, secret string }{
		{"mallory@example.net", "reset alice k7qxm2pa9d", "The command has the wrong number of words; write it as: reset userid reset userid code newpassword", "k7qxm2pa9d"},
		{"alice@example.org", "confirm alice", "The command has the wrong number of words; write it as: confirm userid code", ""},
		{"mallory@example.net", "TANBO Mvoe 101 alice Hunter2pw", "The command has the wrong number of words; write it as: tanbo move board userid password move[#n]", "Hunter2pw"},
		{"alice@example.org", "ultima sub 101", "The command has the wrong number of words; write it as: ultima subscribe board userid password ultima subscribe userid password board|userid ...", ""},
		{"alice@example.org", "tanbo show", "Show needs a board number or a user id; write: tanbo show board[#n] ..., or tanbo show userid ... [all|active|inactive|next].", ""},
	} {
		r := errorReply(t, h.send(e.from, e.subject, ""), e.from, e.want)
		if e.secret != "" && strings.Contains(r.Body, e.secret) {
			t.Errorf("%s: the error quotes %q unmasked:\n%s", e.subject, e.secret, r.Body)
		}
	}
}
