package board

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

// A MoveRow is one line of a board's move list: what each seat played, as
// in the board mails. In two columns a row holds one move of each seat; when
// a seat plays runs of moves (a Taratibu turn) or a move is too long for a
// column, each run is a row of its own.
type MoveRow struct {
	Number int          // the number of the row's first move, as "#n" counts
	Turn   int          // the turn the row is, when rows are runs of moves; else 0
	Seats  [2][]MoveRef // nil where the seat has no entry in the row
}

// A MoveRef is one stored move: its number (as in "plays move #n", and
// "show board#n" for the board after it), its text, and whether a queue
// played it.
type MoveRef struct {
	Number int
	Text   string
	Auto   bool
}

// MoveRows lays out the moves of rec in the rows of the board mails' move
// list, so that every view numbers moves alike: by the number "#n" gives a
// move, and by turn where a seat plays several moves in a row.
func MoveRows(rec *store.Game) []MoveRow {
	entries := moveEntries(rec)
	var rows []MoveRow
	turns := false
	for _, e := range entries {
		turns = turns || len(e.moves) > 1
	}
	if turns || longEntries(entries) {
		for i, e := range entries {
			row := MoveRow{Number: e.moves[0].Number}
			if turns {
				row.Turn = i + 1
			}
			row.Seats[e.seat] = e.moves
			rows = append(rows, row)
		}
		return rows
	}
	for i := 0; i < len(entries); i++ {
		row := MoveRow{Number: entries[i].moves[0].Number}
		row.Seats[entries[i].seat] = entries[i].moves
		if entries[i].seat == 0 && i+1 < len(entries) && entries[i+1].seat == 1 {
			row.Seats[1] = entries[i+1].moves
			i++
		}
		rows = append(rows, row)
	}
	return rows
}

// A moveEntry is a run of moves by one seat: one move, or a Taratibu turn.
type moveEntry struct {
	seat  int
	moves []MoveRef
}

// text is the entry as the mails' move list prints it.
func (e moveEntry) text() string { return cellText(e.moves) }

// moveEntries groups the moves of rec into runs by seat.
func moveEntries(rec *store.Game) []moveEntry {
	var entries []moveEntry
	for i, m := range rec.Moves {
		ref := MoveRef{Number: i + 1, Text: m.Text, Auto: m.Auto}
		if n := len(entries); n > 0 && entries[n-1].seat == m.Seat {
			entries[n-1].moves = append(entries[n-1].moves, ref)
			continue
		}
		entries = append(entries, moveEntry{m.Seat & 1, []MoveRef{ref}})
	}
	return entries
}

// longEntries reports whether an entry is too long for the two-column
// layout, so that every entry gets a line of its own.
func longEntries(entries []moveEntry) bool {
	for _, e := range entries {
		if len(e.text()) > 30 {
			return true
		}
	}
	return false
}

// MoveList lays the moves out as MoveRows does, every move with the number
// "#n" gives it: two columns, one per seat, or a line per turn when moves
// come in runs (Taratibu) or are long. With last > 0 only the last rows are
// shown, and a line says how to get the others.
func MoveList(g rules.Game, rec *store.Game, last int) string {
	return MoveListIn(templates.English, g, rec, last)
}

// MoveListIn is MoveList in the language lang: its headings and the sides'
// names; the moves are the game's notation in every language.
func MoveListIn(lang string, g rules.Game, rec *store.Game, last int) string {
	tr := func(format string, args ...any) string { return templates.Sprintf(lang, format, args...) }
	sides := g.Sides()
	heads := [2]string{}
	for i := range heads {
		heads[i] = fmt.Sprintf("%s: %s", tr("%s", sides[i]), SeatName(rec, i))
		if SeatName(rec, i) == sides[i] { // a preview of a new game
			heads[i] = tr("%s", sides[i])
		}
	}
	rows := MoveRows(rec)
	var b strings.Builder
	if last > 0 && len(rows) > last {
		skipped := rows[len(rows)-last-1]
		upTo := skipped.Number
		for _, m := range skipped.Seats[1] {
			upTo = m.Number
		}
		fmt.Fprintf(&b, "%s\n  %s show %d\n\n", tr("Moves 1 to %d are not shown; for the whole list send:", upTo), g.Name(), rec.Board)
		rows = rows[len(rows)-last:]
	}
	if RunsARow(rows) {
		fmt.Fprintf(&b, "%s, %s\n", heads[0], heads[1])
		for _, row := range rows {
			b.WriteString(turnLine(lang, row, sides))
		}
		if len(rows) == 0 {
			b.WriteString(tr("No moves yet.") + "\n")
		}
		return strings.TrimRight(b.String(), "\n")
	}
	// The headings stand over the moves: a cell is "%4d. " and the move.
	width := utf8.RuneCountInString(heads[0]) - 6
	for _, row := range rows {
		width = max(width, len(cellText(row.Seats[0])))
	}
	fmt.Fprintf(&b, "      %s%s%s\n", heads[0], strings.Repeat(" ", max(width+8-utf8.RuneCountInString(heads[0]), 0)), heads[1])
	for _, row := range rows {
		left := "      ..."
		if row.Seats[0] != nil {
			left = fmt.Sprintf("%4d. %s", row.Seats[0][0].Number, cellText(row.Seats[0]))
		}
		line := fmt.Sprintf("%-*s", width+6, left)
		if row.Seats[1] != nil {
			line += fmt.Sprintf("  %4d. %s", row.Seats[1][0].Number, cellText(row.Seats[1]))
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	if len(rows) == 0 {
		b.WriteString("      " + tr("No moves yet.") + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// cellText is the moves of a cell of the move list, or of an entry: each
// move's text, "(Auto)" after one a queue played.
func cellText(cell []MoveRef) string {
	t := ""
	for i, m := range cell {
		if i > 0 {
			t += " "
		}
		t += m.Text
		if m.Auto {
			t += " (Auto)"
		}
	}
	return t
}

// RunsARow reports whether rows are laid out a run of moves a row (a
// Taratibu turn, or a move too long for a column), each row with the
// moves of one seat, rather than in two columns: how the board mails lay
// out rows, so that the web view lays them out alike.
func RunsARow(rows []MoveRow) bool {
	return len(rows) > 0 && rows[0].Turn > 0 || longRows(rows)
}

// longRows reports whether a cell is too long for two columns.
func longRows(rows []MoveRow) bool {
	for _, row := range rows {
		for _, cell := range row.Seats {
			if len(cellText(cell)) > 30 {
				return true
			}
		}
	}
	return false
}

// turnLine is one row of the one-line-a-turn layout: "Turn 3, White: 4.
// 21-33  5. 33-45  6. 45-57", each move with its number, wrapped at LineWidth
// columns with the continuation indented; a row that is no turn starts
// with the side.
func turnLine(lang string, row MoveRow, sides [2]string) string {
	seat := 0
	if row.Seats[0] == nil {
		seat = 1
	}
	head := templates.Sprintf(lang, "%s:", sides[seat])
	if row.Turn > 0 {
		head = templates.Sprintf(lang, "Turn %d, %s:", row.Turn, sides[seat])
	}
	words := []string{head}
	for _, m := range row.Seats[seat] {
		w := fmt.Sprintf("%d. %s", m.Number, m.Text)
		if m.Auto {
			w += " (Auto)"
		}
		words = append(words, w)
	}
	return rules.Fill(words, " ", "     ")
}

// RatingLines are the rating changes of a finished game as its final mail
// shows them: the heading "Rating changes:", then RatingChanges indented;
// none for a game not (yet) rated.
func RatingLines(rec *store.Game) []string { return RatingLinesIn(templates.English, rec) }

// RatingLinesIn is RatingLines in the language lang.
func RatingLinesIn(lang string, rec *store.Game) []string {
	changes := ratingChanges(lang, rec)
	if len(changes) == 0 {
		return nil
	}
	lines := []string{templates.Sprintf(lang, "Rating changes:")}
	for _, c := range changes {
		lines = append(lines, "  "+c)
	}
	return lines
}

// RatingChanges are the rating changes of a finished game, a line a
// player: "alice            1600 -> 1640 (+40)", "provisional" after it
// while the new rating is.
func RatingChanges(rec *store.Game) []string { return ratingChanges(templates.English, rec) }

func ratingChanges(lang string, rec *store.Game) []string {
	if !rec.Over {
		return nil
	}
	var lines []string
	for _, c := range rec.Ratings {
		o, n := math.Round(c.Old), math.Round(c.New)
		line := fmt.Sprintf("%-16s %4.0f -> %4.0f (%+.0f)", c.User, o, n, n-o)
		if c.Provisional {
			line += " " + templates.Sprintf(lang, "provisional")
		}
		lines = append(lines, line)
	}
	return lines
}
