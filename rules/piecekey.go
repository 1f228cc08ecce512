package rules

import "strings"

// keyWidth is the longest line of a piece key: the board mails' 72
// columns.
const keyWidth = 72

// PieceKey is the key a board diagram prints under the board when it
// writes pieces as letters: each letter with its piece's name, then the
// note, if any (such as that Black's letters are the lower case of
// White's), on lines of at most 72 columns. letters[i] is the letter of
// names[i].
func PieceKey(letters string, names []string, note string) string {
	words := make([]string, 0, len(names)+1)
	for i, name := range names {
		words = append(words, letters[i:i+1]+" "+name)
	}
	if note != "" {
		words = append(words, note)
	}
	var b strings.Builder
	line := ""
	for _, w := range words {
		if line != "" && len(line)+2+len(w) > keyWidth {
			b.WriteString(line + "\n")
			line = ""
		}
		if line != "" {
			line += "  "
		}
		line += w
	}
	return b.String() + line + "\n"
}

// CaseNote is the note of a key that lists White's letters only.
const CaseNote = "(White upper case, Black lower case)"

// A Keyed game prints a PieceKey under its boards. A help mail, which
// draws many boards, prints the key under the first only.
type Keyed interface {
	PieceKey() string
}
