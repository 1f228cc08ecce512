package pbem

import (
	"fmt"
	"strings"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

// boardSubject is "<Game> Board <n> <userid to move>[ **]", with "New " before
// it for a new game; a finished game names its end instead of a player.
func (r *request) boardSubject(b *board, isNew, withComment bool) string {
	s := fmt.Sprintf("%s Board %d ", b.game.Title(), b.rec.Board)
	switch {
	case !b.rec.Over:
		s += model.Name(b.toMove())
	case b.rec.Withdrawn != "":
		s += "withdrawn"
	case b.rec.Winner == rules.Draw:
		s += "tie"
	default:
		s += "won by " + model.Name(b.rec.Seats[b.rec.Winner])
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

	// lang is the language the view is in; comment and notices what it
	// was made of, for the same view in another language (in), which
	// others keeps: a board's mail to many makes it once a language.
	lang    string
	comment *store.Comment
	notices []string
	others  map[string]*boardView
}

// boardView is the view of b in the language of the sender's answers.
func (r *request) boardView(b *board, comment *store.Comment, notices ...string) (*boardView, error) {
	return r.boardViewIn(r.language(), b, comment, notices...)
}

// in is v in lang: v itself when it is in lang already.
func (r *request) in(lang string, b *board, v *boardView) (*boardView, error) {
	if v.lang == lang {
		return v, nil
	}
	if o := v.others[lang]; o != nil {
		return o, nil
	}
	o, err := r.boardViewIn(lang, b, v.comment, v.notices...)
	if err != nil {
		return nil, err
	}
	if v.others == nil {
		v.others = map[string]*boardView{}
	}
	v.others[lang] = o
	return o, nil
}

func (r *request) boardViewIn(lang string, b *board, comment *store.Comment, notices ...string) (*boardView, error) {
	tr := func(format string, args ...any) string { return templates.Sprintf(lang, format, args...) }
	v := &boardView{
		Title:    b.game.Title(),
		Board:    b.rec.Board,
		Notices:  model.Wrap(r.trLines(lang, append(append([]string(nil), notices...), r.boardNotices(b)...)), model.LineWidth),
		MoveList: model.MoveListIn(lang, b.game, b.rec, recentRows),
		Diagram:  strings.TrimRight(b.pos.Board(), "\n"),
		lang:     lang,
		comment:  comment,
		notices:  notices,
	}
	if comment != nil {
		c := *comment
		c.Text = model.Reflow(c.Text)
		v.Comment = &c
	}
	sides := b.game.Sides()
	switch {
	case !b.rec.Over && len(b.pending()) > 0:
		v.State = b.pendingState(lang)
	case !b.rec.Over && b.open():
		v.State = []string{tr("Waiting for an opponent; anyone may take the open seat with:"),
			fmt.Sprintf("  %s join %d userid password", b.game.Name(), b.rec.Board)}
	case !b.rec.Over && b.rec.Board == 0 && b.toMove() == sides[b.pos.ToMove()]:
		// A preview of a new game has no players: its seats are the sides.
		v.State = []string{tr("%s plays move #%d.", sides[b.pos.ToMove()], b.next())}
	case !b.rec.Over:
		v.State = []string{
			tr("It is %s's turn.", model.Name(b.toMove())),
			tr("%s (%s) plays move #%d.", sides[b.pos.ToMove()], model.Name(b.toMove()), b.next()),
		}
	case b.rec.Withdrawn != "":
		v.State = []string{tr("Game withdrawn, not rated."), tr("Reason: %s.", endReason(lang, b.rec.EndReason))}
	case b.rec.Winner == rules.Draw:
		v.State = []string{tr("Game was a tie."), tr("Reason: %s.", endReason(lang, b.rec.EndReason))}
	default:
		v.State = []string{
			tr("Game won by %s.", model.Name(b.rec.Seats[b.rec.Winner])),
			tr("Reason: %s.", endReason(lang, b.rec.EndReason)),
		}
	}
	if len(b.rec.Options) > 0 {
		v.State = append(v.State, tr("Options: %s", strings.Join(b.rec.Options, " ")))
	}
	if b.fresh || b.rec.Over {
		v.MoveList = model.MoveListIn(lang, b.game, b.rec, 0)
	}
	v.Ratings = model.RatingLinesIn(lang, b.rec)
	v.Subscribers = strings.Join(b.rec.Subscribers, " ")
	v.Notifiers = strings.Join(b.rec.Notify, " ")
	v.Times = timeBlock(lang, b.rec)
	v.Link = r.s.boardLink(b.rec)
	return v, nil
}

// timeBlock tells when the game started and moved last, shown when the game
// is over or its times are not the default.
func timeBlock(lang string, rec *store.Game) []string {
	own := model.OwnDays(rec)
	clocks := clockLines(lang, rec)
	if !rec.Over && !own && clocks == nil {
		return nil
	}
	tr := func(format string, args ...any) string { return templates.Sprintf(lang, format, args...) }
	lines := []string{tr("Started:   %s", rec.Created.UTC().Format(timeFormat))}
	if rec.Over {
		lines = append(lines, tr("Ended:     %s", rec.Updated.UTC().Format(timeFormat)))
	} else {
		lines = append(lines, tr("Last move: %s", rec.Updated.UTC().Format(timeFormat)))
	}
	if own {
		d := model.DaysOf(rec)
		lines = append(lines, tr(model.DaysFormat, d.Nag, d.Forfeit))
	}
	return append(lines, model.Wrap(clocks, model.LineWidth)...)
}

// endReason is the reason a game ended in lang: a word of the catalog
// ("checkmate"), or a player's act ("bob resigned": the catalog's
// "%s resigned").
func endReason(lang, reason string) string {
	if lang == templates.English || templates.Has(lang, reason, true) {
		return templates.Sprintf(lang, "%s", reason)
	}
	if id, rest, ok := strings.Cut(reason, " "); ok && templates.Has(lang, "%s "+rest, false) {
		return templates.Sprintf(lang, "%s "+rest, id)
	}
	return reason
}

// boardLink is the address of the board's web page, or "" when the web view
// has no public address.
func (s *Service) boardLink(rec *store.Game) string {
	if s.cfg.PublicURL == "" {
		return ""
	}
	return fmt.Sprintf("%s/%s/%d", strings.TrimRight(s.cfg.PublicURL, "/"), rec.Kind, rec.Board)
}

func renderBoardBody(v *boardView) (string, error) { return renderIn(v.lang, "board", v) }

// render fills a template in English; a template that fails is a bug,
// reported as an error so the mail stays unprocessed and the bug shows in
// the log.
func render(name string, data any) (string, error) { return renderIn(templates.English, name, data) }

// recentRows is how many rows of the move list an ordinary board mail
// shows; the first mail, the end mail and "show" show them all.
const recentRows = 6
