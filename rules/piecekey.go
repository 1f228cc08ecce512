package rules

// LineWidth is the widest line of prose in a mail: 72 columns leave
// room for the "> " of a quoting reply within the 78 that mail clients
// show. A piece key keeps to it, and so do the server's replies.
const LineWidth = 72

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
	return Fill(words, "  ", "")
}

// CaseNote is the note of a key that lists White's letters only.
const CaseNote = "(White upper case, Black lower case)"

// A Keyed game prints a PieceKey under its boards. A help mail, which
// draws many boards, prints the key under the first only.
type Keyed interface {
	PieceKey() string
}
