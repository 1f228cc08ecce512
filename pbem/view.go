package pbem

import (
	"fmt"
	"strings"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// This file is what the read-only views beside the mail service (the web
// pages) need of the core: a board's position after any move, and its move
// list numbered as the board mails number it.

// Replay returns the game of rec and its position after the first n moves,
// played from the board's start with its options, as "show board#n" does.
func Replay(rec *store.Game, n int) (rules.Game, rules.Position, error) {
	g, ok := catalog.Lookup(rec.Kind)
	if !ok {
		return nil, nil, fmt.Errorf("board %s %d: no such game in this server", rec.Kind, rec.Board)
	}
	if n < 0 || n > len(rec.Moves) {
		return nil, nil, fmt.Errorf("%s board %d has moves 0 to %d, not %d", rec.Kind, rec.Board, len(rec.Moves), n)
	}
	opts, err := rules.ParseOptions(g, rec.Options)
	if err != nil {
		return nil, nil, fmt.Errorf("%s board %d: stored options: %w", g.Name(), rec.Board, err)
	}
	pos, err := replay(g, rec, opts, n)
	return g, pos, err
}

// Current returns the game of rec and its position after all its moves,
// read from the position the record keeps rather than replayed, which is
// what a view needs: the drawing, the side to move and the position text
// (a replay would add only what the rules remember beyond the position,
// such as Tobit's repetitions, which the record's result already tells).
// A record without a readable position is replayed.
func Current(rec *store.Game) (rules.Game, rules.Position, error) {
	g, ok := catalog.Lookup(rec.Kind)
	if !ok || rec.Position == "" {
		return Replay(rec, len(rec.Moves))
	}
	opts, err := rules.ParseOptions(g, rec.Options)
	if err != nil {
		return Replay(rec, len(rec.Moves))
	}
	pos, err := g.ParsePosition(rec.Position, opts)
	if err != nil {
		return Replay(rec, len(rec.Moves))
	}
	return g, pos, nil
}

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

// RunsARow reports whether rows are laid out a run of moves a row (a
// Taratibu turn, or a move too long for a column), each row with the
// moves of one seat, rather than in two columns: how the board mails lay
// out rows, so that the web view lays them out alike.
func RunsARow(rows []MoveRow) bool {
	return len(rows) > 0 && rows[0].Turn > 0 || longRows(rows)
}

// A moveEntry is a run of moves by one seat: one move, or a Taratibu turn.
type moveEntry struct {
	seat  int
	moves []MoveRef
}

// text is the entry as the mails' move list prints it.
func (e moveEntry) text() string {
	t := ""
	for i, m := range e.moves {
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

// Provisional reports whether a rating is still provisional (fewer than 20
// rated games), which standings mark with a P.
func Provisional(r store.Rating) bool { return provisional(r) }

// boardLink is the address of the board's web page, or "" when the web view
// has no public address.
func (s *Service) boardLink(rec *store.Game) string {
	if s.cfg.PublicURL == "" {
		return ""
	}
	return fmt.Sprintf("%s/%s/%d", strings.TrimRight(s.cfg.PublicURL, "/"), rec.Kind, rec.Board)
}

// RatingLines are the rating changes of a finished game as its final mail
// shows them, after the heading "Rating changes:"; none for a game not
// (yet) rated.
func RatingLines(rec *store.Game) []string {
	var lines []string
	for i, l := range ratingLines(&board{rec: rec}) {
		if i > 0 {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	return lines
}
