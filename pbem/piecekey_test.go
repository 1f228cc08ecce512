package pbem

import (
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// Issue 27, item 8: Ultima and Taratibu board mails had no key of the
// piece letters (nor had Tobit's, whose w and W differ). Through mails:
// the board mail of a new game of each names every letter its board
// shows, in lines of at most 72 columns. The letters are those of the
// board's position, which the diagram prints as they are.
func TestBoardMailsKeyTheirLetters(t *testing.T) {
	for _, kind := range []string{"ultima", "taratibu", "tobit"} {
		t.Run(kind, func(t *testing.T) {
			h := newHarness(t)
			h.signup("alice")
			h.signup("bob")
			out := h.send("alice@example.org", kind+" challenge alice bob", "")
			if len(out) == 0 {
				t.Fatal("no board mail")
			}
			mail := out[0]
			checkWidth(t, kind, mail)
			board, _, _ := strings.Cut(h.game(kind, 101).Position, " ")
			seen := map[rune]bool{}
			for _, c := range board {
				if !unicode.IsLetter(c) || seen[c] {
					continue
				}
				seen[c] = true
				if keyNames(mail.Body, c) {
					continue
				}
				if unicode.IsLower(c) && keyNames(mail.Body, unicode.ToUpper(c)) && strings.Contains(mail.Body, "Black lower case") {
					continue
				}
				t.Errorf("the %s board mail shows %q but does not name it:\n%s", kind, c, mail.Body)
			}
			if len(seen) < 2 {
				t.Fatalf("the %s position %q shows %d letters; the test reads no board", kind, board, len(seen))
			}
		})
	}
}

// keyNames reports whether a key in body names the letter c: "c name" at
// the start of a line or after two spaces.
func keyNames(body string, c rune) bool {
	return regexp.MustCompile(`(?m)(^|  )` + regexp.QuoteMeta(string(c)) + ` [A-Za-z]{2,}`).MatchString(body)
}
