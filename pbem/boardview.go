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
	ByReply     bool   // the mail goes to a player, who may answer it by reply
}

func (r *request) boardView(b *board, comment *store.Comment, notices ...string) (*boardView, error) {
	v := &boardView{
		Title:    b.game.Title(),
		Board:    b.rec.Board,
		Notices:  wrapAll(append(append([]string(nil), notices...), r.boardNotices(b)...), 76),
		MoveList: moveList(b.game, b.rec),
		Diagram:  strings.TrimRight(b.pos.Board(), "\n"),
		Comment:  comment,
	}
	sides := b.game.Sides()
	switch {
	case !b.rec.Over && b.open():
		v.State = []string{"Waiting for an opponent; anyone may take the open seat with:",
			fmt.Sprintf("  %s join %d userid password", b.game.Name(), b.rec.Board)}
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
	if !rec.Over && nag == "" && forfeit == "" {
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
	return lines
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

// moveList lays the moves out in numbered rows, one column per seat: a run
// of moves by one seat (a Taratibu turn) is one entry. Long entries get a
// line each.
func moveList(g rules.Game, rec *store.Game) string {
	type entry struct {
		seat int
		text string
	}
	var entries []entry
	for _, e := range moveEntries(rec) {
		entries = append(entries, entry{e.seat, e.text()})
	}
	sides := g.Sides()
	heads := [2]string{}
	for i := range heads {
		heads[i] = fmt.Sprintf("%s: %s", sides[i], seatName(rec, i))
	}
	width := max(len(heads[0]), 12)
	for _, e := range entries {
		if e.seat == 0 {
			width = max(width, len(e.text))
		}
	}
	long := false
	for _, e := range entries {
		long = long || len(e.text) > 30
	}
	var b strings.Builder
	if long {
		for i, e := range entries {
			fmt.Fprintf(&b, "%4d. %s: %s\n", i+1, heads[e.seat], e.text)
		}
		if len(entries) == 0 {
			fmt.Fprintf(&b, "      %s, %s\n      No moves yet.\n", heads[0], heads[1])
		}
		return strings.TrimRight(b.String(), "\n")
	}
	fmt.Fprintf(&b, "      %-*s  %s\n", width, heads[0], heads[1])
	row := 0
	for i := 0; i < len(entries); i++ {
		row++
		left, right := "", ""
		if entries[i].seat == 0 {
			left = entries[i].text
			if i+1 < len(entries) && entries[i+1].seat == 1 {
				right = entries[i+1].text
				i++
			}
		} else {
			left, right = "...", entries[i].text
		}
		line := fmt.Sprintf("%4d. %-*s  %s", row, width, left, right)
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	if len(entries) == 0 {
		b.WriteString("      No moves yet.\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func seatName(rec *store.Game, seat int) string {
	if seat >= len(rec.Seats) || rec.Seats[seat] == "" {
		return "?"
	}
	return rec.Seats[seat]
}

// wrapAll breaks each text into lines of at most width columns at spaces,
// so that long notices read well in any mail client.
func wrapAll(texts []string, width int) []string {
	out := make([]string, 0, len(texts))
	for _, t := range texts {
		var lines []string
		line := ""
		for _, w := range strings.Fields(t) {
			if line != "" && len(line)+1+len(w) > width {
				lines = append(lines, line)
				line = ""
			}
			if line != "" {
				line += " "
			}
			line += w
		}
		out = append(out, strings.Join(append(lines, line), "\n"))
	}
	return out
}
