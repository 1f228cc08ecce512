package pbem

import (
	"fmt"
	"strconv"
	"strings"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/record"
	"github.com/pbemd/pbemd/store"
)

// The records of boards (docs/records.md): the one mapping of a stored
// board to a record's tags, moves and comments, which the record command,
// the web view and "pbemd export" share. The text itself is package
// rules/record's.

// RecordFile is one form of a board's record: its file name extension
// ("pgn", or "sgf" for a game that has that form) and its text.
type RecordFile struct {
	Ext  string
	Text string
}

// RecordType is the media type the records are served and attached with:
// text, so that any mail client and browser shows it.
const RecordType = "text/plain"

// maxRecordComments bounds the bytes of comments a record carries: a
// board's record stays readable in a mail however long its chat.
const maxRecordComments = 64 << 10

// RecordOf is the record of a stored board: Event, Site (site: the
// server's address), Date, Game, Board, the players by side, Options as a
// challenge writes them, Clock, Result, Termination (and Position for a
// board set up from a position of its own), its moves and the players'
// comments. A board not over has the result "*".
func RecordOf(rec *store.Game, site string) (*record.Record, rules.Game, error) {
	b, err := model.Of(rec)
	if err != nil {
		return nil, nil, err
	}
	g := b.Game
	r := &record.Record{}
	r.Set("Event", fmt.Sprintf("%s Board %d", g.Title(), rec.Board))
	r.Set("Site", site)
	r.Set("Date", rec.Created.UTC().Format("2006.01.02"))
	r.Set("Game", g.Name())
	r.Set("Board", strconv.Itoa(rec.Board))
	// White before Black, whatever the seat order (Tanbo's Black moves first).
	tags := record.SideTags(g)
	for _, i := range []int{0, 1} {
		if tags[1] == "White" {
			i = 1 - i
		}
		r.Set(tags[i], model.SeatName(rec, i))
	}
	r.Set("Options", strings.Join(rec.Options, " "))
	r.Set("Clock", clockTag(rec))
	res := rules.Ongoing
	if rec.Over {
		res = rules.Result{Over: true, Winner: rec.Winner, Reason: rec.EndReason}
	}
	r.Set("Result", record.ResultText(g, res))
	termination := "unterminated"
	if rec.Over {
		termination = rec.EndReason
	}
	r.Set("Termination", termination)
	if rec.StartPos != "" {
		r.Set("Position", rec.StartPos)
	}
	for _, m := range rec.Moves {
		r.Moves = append(r.Moves, record.Move{Text: m.Text, Seat: m.Seat & 1})
	}
	r.Comments = recordComments(rec)
	return r, g, nil
}

// recordComments are the comments of rec as a record carries them, "user:
// text", and the swap of the pie rule where it came; at most
// maxRecordComments bytes of them, then a line saying how many are left
// out.
func recordComments(rec *store.Game) []record.Comment {
	var out []record.Comment
	if rec.Swapped != "" {
		g, _ := model.Of(rec)
		if g != nil {
			out = append(out, record.Comment{After: openingMoves(rec), Text: swapLine(g.Game, rec)})
		}
	}
	size := 0
	for i, c := range rec.Comments {
		text := c.User + ": " + strings.Join(strings.Fields(c.Text), " ")
		if size+len(text) > maxRecordComments {
			left := len(rec.Comments) - i
			out = append(out, record.Comment{After: len(rec.Moves),
				Text: fmt.Sprintf("%d more comments are left out of this record; a record carries %d bytes of them.", left, maxRecordComments)})
			break
		}
		size += len(text)
		out = append(out, record.Comment{After: min(c.Move, len(rec.Moves)), Text: text})
	}
	return out
}

// clockTag is the board's clock: "days 7/21" (the days before a reminder
// and before a forfeit), or a Fischer clock as -clock= writes it.
func clockTag(rec *store.Game) string {
	if c := ClockOf(rec); c.Fischer {
		return c.Spec
	}
	d := model.DaysOf(rec)
	return fmt.Sprintf("days %d/%d", d.Nag, d.Forfeit)
}

// RecordFiles are the forms of the record of rec: the record, and for a
// game that has one (Tanbo) its SGF.
func RecordFiles(rec *store.Game, site string) ([]RecordFile, error) {
	r, g, err := RecordOf(rec, site)
	if err != nil {
		return nil, err
	}
	files := []RecordFile{{"pgn", r.String()}}
	if w, ok := g.(record.SGFWriter); ok {
		sgf, err := w.SGF(r)
		if err != nil {
			return nil, fmt.Errorf("%s board %d: %w", rec.Kind, rec.Board, err)
		}
		files = append(files, RecordFile{"sgf", sgf})
	}
	return files, nil
}

// <game> record board: the board's record, in the reply's text and
// attached (with its SGF for a game that has one), to anyone, as show.
func (c *cmd) record(args []string) error {
	if len(args) > 0 && strings.EqualFold(args[0], "board") {
		args = args[1:]
	}
	if len(args) != 1 {
		return c.usage()
	}
	num, err := c.boardNumber(args[0])
	if err != nil {
		return err
	}
	b, err := c.r.loadBoard(c.game.Name(), num)
	if err != nil {
		return err
	}
	files, err := RecordFiles(b.rec, c.r.s.cfg.Address)
	if err != nil {
		return err
	}
	var names []string
	var attach []mailmsg.Attachment
	for _, f := range files {
		name := fmt.Sprintf("%s-%d.%s", b.game.Name(), num, f.Ext)
		names = append(names, name)
		attach = append(attach, mailmsg.Attachment{Name: name, Type: RecordType, Text: f.Text})
	}
	state := "the game so far; it is not over"
	if b.rec.Over {
		state = "the whole game"
	}
	body := model.WrapText(fmt.Sprintf("The record of %s Board %d, %s. It is attached as %s; check it with \"pbemd rules replay %s\".",
		b.game.Title(), num, state, strings.Join(names, " and "), names[0])) + "\n\n" + files[0].Text
	c.r.reply(c.r.sender(), fmt.Sprintf("%s Board %d record", b.game.Title(), num), body, "auto-replied", b.rec.Thread)
	p := c.r.parts[len(c.r.parts)-1]
	p.own = true
	p.attach = attach
	return nil
}
