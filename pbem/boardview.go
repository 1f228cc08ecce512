package pbem

import (
	"fmt"
	"strings"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

func seatOrOpen(id string) string {
	if id == "" {
		return "?"
	}
	return id
}

// boardSubject is "<Game> Board <n> <userid to move>[ **]", with "New " before
// it for a new game; a finished game names its end instead of a player.
func (r *request) boardSubject(b *board, isNew, withComment bool) string {
	s := fmt.Sprintf("%s Board %d ", b.game.Title(), b.rec.Board)
	switch {
	case !b.rec.Over:
		s += seatOrOpen(b.toMove())
	case b.rec.Withdrawn != "":
		s += "withdrawn"
	case b.rec.Winner == rules.Draw:
		s += "tie"
	default:
		s += "won by " + seatOrOpen(b.rec.Seats[b.rec.Winner])
	}
	if isNew {
		s = "New " + s
	}
	if withComment {
		s += " **"
	}
	return s
}

// boardView is what the board template shows.
type boardView struct {
	Title       string
	Board       int
	Notices     []string
	State       []string
	Ratings     []string
	MoveList    string
	Diagram     string
	Subscribers string
	Notifiers   string // who is told of the board's end
	Comment     *store.Comment
	Times       []string
	Link        string // the board's web page, when the web view is public
	ByReply     string // what the player the mail goes to may answer by reply (byreply.go)
}

func (r *request) boardView(b *board, comment *store.Comment, notices ...string) (*boardView, error) {
	v := &boardView{
		Title:    b.game.Title(),
		Board:    b.rec.Board,
		Notices:  wrapAll(append(append([]string(nil), notices...), r.boardNotices(b)...), lineWidth),
		MoveList: moveList(b.game, b.rec, recentRows),
		Diagram:  strings.TrimRight(b.pos.Board(), "\n"),
	}
	if comment != nil {
		c := *comment
		c.Text = reflow(c.Text)
		v.Comment = &c
	}
	sides := b.game.Sides()
	switch {
	case !b.rec.Over && len(b.pending()) > 0:
		v.State = b.pendingState()
	case !b.rec.Over && b.open():
		v.State = []string{"Waiting for an opponent; anyone may take the open seat with:",
			fmt.Sprintf("  %s join %d userid password", b.game.Name(), b.rec.Board)}
	case !b.rec.Over && b.rec.Board == 0 && b.toMove() == sides[b.pos.ToMove()]:
		// A preview of a new game has no players: its seats are the sides.
		v.State = []string{fmt.Sprintf("%s plays move #%d.", sides[b.pos.ToMove()], b.next())}
	case !b.rec.Over:
		v.State = []string{
			fmt.Sprintf("It is %s's turn.", seatOrOpen(b.toMove())),
			fmt.Sprintf("%s (%s) plays move #%d.", sides[b.pos.ToMove()], seatOrOpen(b.toMove()), b.next()),
		}
	case b.rec.Withdrawn != "":
		v.State = []string{"Game withdrawn, not rated.", "Reason: " + b.rec.EndReason + "."}
	case b.rec.Winner == rules.Draw:
		v.State = []string{"Game was a tie.", "Reason: " + b.rec.EndReason + "."}
	default:
		v.State = []string{
			fmt.Sprintf("Game won by %s.", seatOrOpen(b.rec.Seats[b.rec.Winner])),
			"Reason: " + b.rec.EndReason + ".",
		}
	}
	if len(b.rec.Options) > 0 {
		v.State = append(v.State, "Options: "+strings.Join(b.rec.Options, " "))
	}
	if b.fresh || b.rec.Over {
		v.MoveList = moveList(b.game, b.rec, 0)
	}
	v.Ratings = ratingLines(b)
	v.Subscribers = strings.Join(b.rec.Subscribers, " ")
	v.Notifiers = strings.Join(b.rec.Notify, " ")
	v.Times = timeBlock(b.rec)
	v.Link = r.s.boardLink(b.rec)
	return v, nil
}

// timeBlock tells when the game started and moved last, shown when the game
// is over or its times are not the default.
func timeBlock(rec *store.Game) []string {
	nag, forfeit := rec.Extra["nagtime"], rec.Extra["forfeittime"]
	clocks := clockLines(rec)
	if !rec.Over && nag == "" && forfeit == "" && clocks == nil {
		return nil
	}
	lines := []string{"Started:   " + rec.Created.UTC().Format(timeFormat)}
	if rec.Over {
		lines = append(lines, "Ended:     "+rec.Updated.UTC().Format(timeFormat))
	} else {
		lines = append(lines, "Last move: "+rec.Updated.UTC().Format(timeFormat))
	}
	if nag != "" || forfeit != "" {
		lines = append(lines, fmt.Sprintf("Reminder after %s days, forfeit after %s days without a move.",
			orDefault(nag, "7"), orDefault(forfeit, "21")))
	}
	return append(lines, clocks...)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func renderBoardBody(v *boardView) (string, error) { return render("board", v) }

// render fills a template; a template that fails is a bug, reported as an
// error so the mail stays unprocessed and the bug shows in the log.
func render(name string, data any) (string, error) {
	s, err := templates.Render(name, data)
	if err != nil {
		return "", fmt.Errorf("template %s: %w", name, err)
	}
	return s, nil
}

// recentRows is how many rows of the move list an ordinary board mail
// shows; the first mail, the end mail and "show" show them all.
const recentRows = 6

// moveList lays the moves out as MoveRows does, every move with the number
// "#n" gives it: two columns, one per seat, or a line per turn when moves
// come in runs (Taratibu) or are long. With last > 0 only the last rows are
// shown, and a line says how to get the others.
func moveList(g rules.Game, rec *store.Game, last int) string {
	sides := g.Sides()
	heads := [2]string{}
	for i := range heads {
		heads[i] = fmt.Sprintf("%s: %s", sides[i], seatName(rec, i))
		if seatName(rec, i) == sides[i] { // a preview of a new game
			heads[i] = sides[i]
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
		fmt.Fprintf(&b, "Moves 1 to %d are not shown; for the whole list send:\n  %s show %d\n\n", upTo, g.Name(), rec.Board)
		rows = rows[len(rows)-last:]
	}
	if len(rows) > 0 && rows[0].Turn > 0 || longRows(rows) {
		fmt.Fprintf(&b, "%s, %s\n", heads[0], heads[1])
		for _, row := range rows {
			b.WriteString(turnLine(row, sides))
		}
		if len(rows) == 0 {
			b.WriteString("No moves yet.\n")
		}
		return strings.TrimRight(b.String(), "\n")
	}
	// The headings stand over the moves: a cell is "%4d. " and the move.
	width := len(heads[0]) - 6
	for _, row := range rows {
		width = max(width, len(cellText(row.Seats[0])))
	}
	fmt.Fprintf(&b, "      %-*s%s\n", width+8, heads[0], heads[1])
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
		b.WriteString("      No moves yet.\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// cellText is the moves of one cell of the two-column layout, which holds
// one move each.
func cellText(cell []MoveRef) string {
	t := ""
	for _, m := range cell {
		t += m.Text
		if m.Auto {
			t += " (Auto)"
		}
	}
	return t
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
// 21-33  5. 33-45  6. 45-57", each move with its number, wrapped at 72
// columns with the continuation indented; a row that is no turn starts
// with the side.
func turnLine(row MoveRow, sides [2]string) string {
	seat := 0
	if row.Seats[0] == nil {
		seat = 1
	}
	head := sides[seat] + ":"
	if row.Turn > 0 {
		head = fmt.Sprintf("Turn %d, %s:", row.Turn, sides[seat])
	}
	words := []string{head}
	for _, m := range row.Seats[seat] {
		w := fmt.Sprintf("%d. %s", m.Number, m.Text)
		if m.Auto {
			w += " (Auto)"
		}
		words = append(words, w)
	}
	var b strings.Builder
	line := ""
	for _, w := range words {
		if line != "" && len(line)+2+len(w) > 72 {
			b.WriteString(line + "\n")
			line = "     "
		}
		switch line {
		case "", "     ":
		case head:
			line += " "
		default:
			line += "  "
		}
		line += w
	}
	return b.String() + line + "\n"
}

func seatName(rec *store.Game, seat int) string {
	if seat >= len(rec.Seats) || rec.Seats[seat] == "" {
		return "?"
	}
	return rec.Seats[seat]
}
