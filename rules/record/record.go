// Package record is the record of a game: a text in the manner of PGN,
// tag pairs and then the numbered moves in the game's own notation with
// comments in braces, that the server writes (by mail, on the web, in an
// export) and "pbemd rules replay" reads back. It is written and read in
// this one place, for every game through the rules interface, so that
// whatever the server writes the tools read. docs/records.md describes it.
//
// Pure: it imports rules alone, and does no I/O but to the writer given.
package record

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pbemd/pbemd/rules"
)

// A Record is one game: its tags, its moves and the players' comments.
type Record struct {
	Tags     []Tag // in the order they are written
	Moves    []Move
	Comments []Comment
}

// A Tag is one tag pair: [Name "Value"].
type Tag struct{ Name, Value string }

// A Move is one move in the game's canonical notation and the seat (0 or
// 1) that played it. A Taratibu turn is several moves of one seat.
type Move struct {
	Text string
	Seat int
}

// A Comment is a comment written after the first After moves (0: before
// the first move).
type Comment struct {
	After int
	Text  string
}

// The results a record's Result tag and its movetext end in, as in PGN:
// the side named White (or the first seat, when no side is) won, the other
// side won, a draw, a game not over.
const (
	WhiteWins  = "1-0"
	BlackWins  = "0-1"
	DrawResult = "1/2-1/2"
	Unfinished = "*"
)

// Bounds of what Parse reads, so that a hostile file costs little.
const (
	MaxBytes   = 1 << 20 // a record's size
	MaxMoves   = 20000   // its moves
	MaxTags    = 64      // its tag pairs
	MaxTagText = 1024    // a tag's value
	MaxComment = 16384   // a comment's text
	maxMoveLen = 256     // a move's text
)

// LineWidth is the width movetext lines are wrapped to, so that a record
// reads in a mail.
const LineWidth = 72

// Get returns the value of the tag called name, or "".
func (r *Record) Get(name string) string {
	for _, t := range r.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// Set sets the tag called name, adding it at the end when it is new.
func (r *Record) Set(name, value string) {
	for i := range r.Tags {
		if r.Tags[i].Name == name {
			r.Tags[i].Value = value
			return
		}
	}
	r.Tags = append(r.Tags, Tag{name, value})
}

// Result is the record's Result tag, "*" when it has none.
func (r *Record) Result() string {
	if v := r.Get("Result"); v != "" {
		return v
	}
	return Unfinished
}

// firstSeat is the seat whose win is "1-0": the side named White, else the
// first seat.
func firstSeat(g rules.Game) int {
	if g.Sides()[1] == "White" {
		return 1
	}
	return 0
}

// SideTags are the names of the tags of the two players, by seat: the
// sides' names (White and Black for every game so far).
func SideTags(g rules.Game) [2]string { return g.Sides() }

// ResultText is res as a Result tag writes it.
func ResultText(g rules.Game, res rules.Result) string {
	switch {
	case !res.Over:
		return Unfinished
	case res.Winner == rules.Draw:
		return DrawResult
	case res.Winner == firstSeat(g):
		return WhiteWins
	default:
		return BlackWins
	}
}

// ParseResult reads a Result tag: whether the game is over and who won.
func ParseResult(g rules.Game, text string) (rules.Result, error) {
	switch text {
	case Unfinished:
		return rules.Ongoing, nil
	case DrawResult:
		return rules.Drawn(""), nil
	case WhiteWins:
		return rules.Win(firstSeat(g), ""), nil
	case BlackWins:
		return rules.Win(rules.Other(firstSeat(g)), ""), nil
	}
	return rules.Result{}, fmt.Errorf("result %q is none of 1-0, 0-1, 1/2-1/2 and *", text)
}

// String is the record as text: the tag pairs a line each, an empty line,
// and the movetext wrapped at LineWidth columns, ending in the result.
func (r *Record) String() string {
	var b strings.Builder
	for _, t := range r.Tags {
		fmt.Fprintf(&b, "[%s \"%s\"]\n", t.Name, escapeTag(t.Value))
	}
	if len(r.Tags) > 0 {
		b.WriteString("\n")
	}
	w := lineWriter{b: &b}
	comments := r.Comments
	comment := func(after int) bool {
		any := false
		for len(comments) > 0 && min(comments[0].After, len(r.Moves)) == after {
			w.comment(comments[0].Text)
			comments = comments[1:]
			any = true
		}
		return any
	}
	noted := comment(0)
	round := 0
	for i, m := range r.Moves {
		runStart := i == 0 || r.Moves[i-1].Seat != m.Seat
		if runStart && (m.Seat == 0 || i == 0) {
			round++
		}
		if runStart {
			switch {
			case m.Seat == 0:
				w.word(fmt.Sprintf("%d.", round))
			case noted || i == 0 || runLen(r.Moves, i) > 1 || runLen(r.Moves, runBegin(r.Moves, i-1)) > 1:
				w.word(fmt.Sprintf("%d...", round))
			}
		}
		w.word(m.Text)
		noted = comment(i + 1)
	}
	// Comments a record placed out of order come at the end.
	for _, c := range comments {
		w.comment(c.Text)
	}
	w.word(r.Result())
	w.end()
	return b.String()
}

// runLen is the length of the run of moves of one seat from i.
func runLen(moves []Move, i int) int {
	n := 1
	for i+n < len(moves) && moves[i+n].Seat == moves[i].Seat {
		n++
	}
	return n
}

// runBegin is where the run of moves of one seat holding i begins.
func runBegin(moves []Move, i int) int {
	for i > 0 && moves[i-1].Seat == moves[i].Seat {
		i--
	}
	return i
}

// A lineWriter writes words separated by spaces, in lines of at most
// LineWidth columns where the words allow it.
type lineWriter struct {
	b   *strings.Builder
	col int
}

func (w *lineWriter) word(s string) {
	switch {
	case w.col == 0:
	case w.col+1+len(s) > LineWidth:
		w.b.WriteString("\n")
		w.col = 0
	default:
		w.b.WriteString(" ")
		w.col++
	}
	w.b.WriteString(s)
	w.col += len(s)
}

// comment writes a comment in braces, its words wrapped as the moves are;
// a word longer than a line (a link) is cut to fit.
func (w *lineWriter) comment(text string) {
	var words []string
	for _, word := range strings.Fields(strings.Map(spaceControls, text)) {
		words = append(words, cutEscaped(word, LineWidth-2)...)
	}
	if len(words) == 0 {
		w.word("{}")
		return
	}
	words[0] = "{" + words[0]
	words[len(words)-1] += "}"
	for _, s := range words {
		w.word(s)
	}
}

func (w *lineWriter) end() {
	if w.col > 0 {
		w.b.WriteString("\n")
	}
}

// cutEscaped escapes word as escapeComment does, cut into pieces of at
// most width bytes, never within an escape or a character.
func cutEscaped(word string, width int) []string {
	var pieces []string
	var b strings.Builder
	for _, r := range word {
		e := escapeComment(string(r))
		if b.Len()+len(e) > width {
			pieces = append(pieces, b.String())
			b.Reset()
		}
		b.WriteString(e)
	}
	return append(pieces, b.String())
}

// escapeTag writes a tag's value as a PGN string holds it: a backslash
// before '\' and '"'; other control characters become spaces.
func escapeTag(v string) string {
	v = strings.Map(spaceControls, v)
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v)
}

// escapeComment writes a comment so that nothing in it can end it early:
// '\' as "\\" and '}' as "\x7d" (no reader of braces stops at that); other
// control characters become spaces.
func escapeComment(v string) string {
	v = strings.Map(spaceControls, v)
	return strings.NewReplacer(`\`, `\\`, `}`, `\x7d`).Replace(v)
}

func spaceControls(r rune) rune {
	if unicode.IsControl(r) || r == utf8.RuneError {
		return ' '
	}
	return r
}

// An SGFWriter is a game whose records have a second form in SGF (FF[4]),
// such as Tanbo: the server offers it beside the record wherever a game's
// Game value has the method.
type SGFWriter interface {
	SGF(r *Record) (string, error)
}
