package web

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"html/template"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/rules/record"
	"github.com/pbemd/pbemd/store"
)

// How much one page shows, which bounds what it reads.
const (
	boardsPerPage = 50 // boards on a game's page and a player's page
	frontBoards   = 8  // boards in play per game on the front page
	frontResults  = 5  // recent results per game on the front page
	frontScan     = 40 // newest boards read per game to find them
	frontSeeks    = 8  // newest seeks per game on the front page, of the frontScan newest open seats
	timeLayout    = "2006-01-02 15:04 MST"
)

// chrome is what every page's frame shows.
type chrome struct {
	Site  string
	Title string
	Games []rules.Game
}

func (s *Server) chrome(title string) chrome {
	return chrome{Site: s.opts.Name, Title: title, Games: catalog.All()}
}

type errorView struct {
	chrome
	Status  int
	Message string
}

// html renders a page template into a page.
func (s *Server) html(name string, data any) (page, error) {
	b := getBuffer()
	if err := s.render(b, name, data); err != nil {
		putBuffer(b)
		return page{}, err
	}
	return page{body: b.Bytes(), ctype: "text/html; charset=utf-8", buf: b}, nil
}

// Page buffers are reused: a board page is some 30 kB, and growing a new
// buffer to that size for every request is most of a request's garbage.
var buffers = sync.Pool{New: func() any { return bytes.NewBuffer(make([]byte, 0, 64<<10)) }}

func getBuffer() *bytes.Buffer { b := buffers.Get().(*bytes.Buffer); b.Reset(); return b }

func putBuffer(b *bytes.Buffer) {
	if b != nil && b.Cap() <= 1<<20 {
		buffers.Put(b)
	}
}

// A boardRow is one board in a list: number, players, moves and state, as
// the mails' games list shows it, read from the record alone.
type boardRow struct {
	Kind    string
	Board   int
	Players []string // user ids in seat order, "" for an open seat
	Sides   [2]string
	Moves   int
	State   string
	Ended   string // date, for finished boards
}

func rowOf(g rules.Game, rec *store.GameHead) boardRow {
	row := boardRow{Kind: rec.Kind, Board: rec.Board, Players: rec.Seats, Sides: g.Sides(), Moves: rec.Moves}
	invited := board.InvitedIn(rec.Extra)
	switch {
	case !rec.Over && len(invited) > 0:
		row.State = "invited: " + strings.Join(invited, ", ")
	case !rec.Over && slices.Contains(rec.Seats, ""):
		row.State = "open seat"
	case !rec.Over:
		row.State = "to move: " + board.NameAt(rec.Seats, rec.ToMove)
	case rec.Withdrawn != "":
		row.State = "withdrawn (" + rec.EndReason + ")"
	case rec.Winner == rules.Draw:
		row.State = "tie (" + rec.EndReason + ")"
	default:
		row.State = "won by " + board.NameAt(rec.Seats, rec.Winner) + " (" + rec.EndReason + ")"
	}
	if rec.Over {
		row.Ended = rec.Updated.UTC().Format("2006-01-02")
	}
	return row
}

type frontView struct {
	chrome
	Mail  string
	Kinds []frontKind
}

type frontKind struct {
	Game    rules.Game
	Robot   string // the easiest robot's user id, for a first game
	Running int
	Boards  []boardRow
	Results []boardRow
	Seeks   []seekRow
}

// frontPage is the front page, kept a few seconds (pageCache): it reads
// the newest boards of every game and the count of those running.
func (s *Server) frontPage() (page, error) {
	return s.cache.get("front", s.opts.Now(), s.makeFrontPage)
}

func (s *Server) makeFrontPage() (page, error) {
	v := frontView{chrome: s.chrome("Games"), Mail: s.opts.Mail}
	err := s.db.View(func(tx *store.Tx) error {
		for _, g := range catalog.All() {
			k := frontKind{Game: g, Robot: pbem.RobotID(g.Name(), 1)}
			k.Running = tx.RunningCount(g.Name())
			// The newest, and some more in case of damaged records.
			newest, _ := tx.KindBoards(g.Name(), store.RunningNewest, store.Page{Size: 2 * frontBoards})
			for _, n := range newest {
				if len(k.Boards) == frontBoards {
					break
				}
				rec, err := tx.GameHead(g.Name(), n)
				if tx.PassOver(err) {
					continue // logged; the page shows the others
				}
				if err != nil {
					return err
				}
				k.Boards = append(k.Boards, rowOf(g, rec))
			}
			recent, err := tx.GamesBefore(g.Name(), tx.LastBoard(g.Name())+1, frontScan)
			if err != nil {
				return err
			}
			for _, rec := range recent {
				if rec.Over && len(k.Results) < frontResults {
					k.Results = append(k.Results, rowOf(g, rec))
				}
			}
			if k.Seeks, err = seeksOf(tx, g); err != nil {
				return err
			}
			v.Kinds = append(v.Kinds, k)
		}
		return nil
	})
	if err != nil {
		return page{}, err
	}
	return s.html("front", v)
}

type gameView struct {
	chrome
	Game   rules.Game
	Rows   []boardRow
	Older  int // the ?before= of the next page, 0 when none
	Paged  bool
	Newest int
}

// gamePage lists a game's boards newest first, a page at a time:
// ?before=N shows the boards numbered below N.
func (s *Server) gamePage(g rules.Game, q url.Values) (page, error) {
	if err := onlyParams(q, "before"); err != nil {
		return page{}, err
	}
	v := gameView{chrome: s.chrome(g.Title() + " boards"), Game: g}
	err := s.db.View(func(tx *store.Tx) error {
		last := tx.LastBoard(g.Name())
		v.Newest = last
		before := last + 1
		if q.Has("before") {
			n, err := number(q.Get("before"), "before", 1, math.MaxInt32)
			if err != nil {
				return err
			}
			before, v.Paged = n, true
		}
		recs, err := tx.GamesBefore(g.Name(), before, boardsPerPage)
		if err != nil {
			return err
		}
		for _, rec := range recs {
			v.Rows = append(v.Rows, rowOf(g, rec))
		}
		if len(recs) == boardsPerPage && recs[len(recs)-1].Board > 1 {
			v.Older = recs[len(recs)-1].Board
		}
		return nil
	})
	if err != nil {
		return page{}, err
	}
	return s.html("game", v)
}

// onlyParams refuses a query with parameters other than those named, or a
// parameter given twice: a page means one thing.
func onlyParams(q url.Values, names ...string) error {
	for k, v := range q {
		if !slices.Contains(names, k) {
			if len(names) == 0 {
				return badRequest("This page takes no parameters, not %q.", k)
			}
			return badRequest("This page takes only %s, not %q.", strings.Join(names, " and "), k)
		}
		if len(v) > 1 {
			return badRequest("The parameter %s is given %d times; give it once.", k, len(v))
		}
	}
	return nil
}

// number reads a parameter that must be a whole number from lo to hi.
func number(text, name string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(text)
	if err != nil || n < lo || n > hi {
		return 0, badRequest("%s=%q is not a number from %d to %d.", name, text, lo, hi)
	}
	return n, nil
}

// boardAt is a board and its position after a number of its moves.
type boardAt struct {
	game rules.Game
	rec  *store.Game
	at   int // moves played in the position shown
	pos  rules.Position
	past bool // at is before the last move
}

// loadBoard reads the board named by text ("101") and its position after
// ?move=N (default: all its moves).
func (s *Server) loadBoard(g rules.Game, text string, q url.Values) (*boardAt, error) {
	if err := onlyParams(q, "move"); err != nil {
		return nil, err
	}
	num, err := strconv.Atoi(text)
	if err != nil || num <= 0 || text[0] == '0' && len(text) > 1 || len(text) > 9 {
		return nil, notFound("There is no %s board %q; boards are numbered from 101, see /%s/ for those there are.", g.Title(), text, g.Name())
	}
	var rec *store.Game
	err = s.db.View(func(tx *store.Tx) error {
		rec, err = tx.Game(g.Name(), num)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil, notFound("There is no %s board %d; see /%s/ for the boards there are.", g.Title(), num, g.Name())
	}
	if err != nil {
		return nil, err
	}
	b := &boardAt{game: g, rec: rec, at: len(rec.Moves)}
	if q.Has("move") {
		if b.at, err = number(q.Get("move"), "move", 0, len(rec.Moves)); err != nil {
			return nil, badRequest("%s Board %d has moves 0 to %d; move=%q is none of them.", g.Title(), num, len(rec.Moves), q.Get("move"))
		}
		b.past = b.at < len(rec.Moves)
	}
	if b.past {
		_, b.pos, err = board.Replay(rec, b.at)
	} else {
		_, b.pos, err = board.Current(rec)
	}
	if err != nil {
		return nil, err
	}
	return b, nil
}

// result is the board's result at the position shown: the record's when
// the last move is shown (it knows of resignations, forfeits and agreed
// draws), the position's before.
func (b *boardAt) result() rules.Result {
	if b.past {
		return b.pos.Result()
	}
	if b.rec.Over {
		return rules.Result{Over: true, Winner: b.rec.Winner, Reason: b.rec.EndReason}
	}
	return rules.Ongoing
}

// lastMove is the move that led to the position shown, "" at the start.
func (b *boardAt) lastMove() string {
	if b.at == 0 {
		return ""
	}
	return b.rec.Moves[b.at-1].Text
}

// open reports whether the board waits for a player to take a seat.
func (b *boardAt) open() bool {
	return !b.rec.Over && (&board.Board{Rec: b.rec}).Open()
}

// status is the board's state in a sentence, as the board mails put it.
func (b *boardAt) status() string {
	sides := b.game.Sides()
	res := b.result()
	switch {
	case res.Over && b.rec.Withdrawn != "":
		return "Game withdrawn, not rated (" + res.Reason + ")."
	case res.Over && res.Winner == rules.Draw:
		return "Game was a tie (" + res.Reason + ")."
	case res.Over:
		return fmt.Sprintf("Game won by %s, %s (%s).", board.SeatName(b.rec, res.Winner), sides[res.Winner], res.Reason)
	case len(board.Invited(b.rec)) > 0:
		return fmt.Sprintf("Waiting for %s to accept the challenge by mail: %s join %d USERID PASSWORD",
			strings.Join(board.Invited(b.rec), " and "), b.game.Name(), b.rec.Board)
	case b.open():
		return fmt.Sprintf("Waiting for an opponent; anyone may take the open seat by mail: %s join %d userid password", b.game.Name(), b.rec.Board)
	}
	seat := b.pos.ToMove()
	return fmt.Sprintf("It is %s's turn: %s plays move #%d.", board.SeatName(b.rec, seat), sides[seat], b.at+1)
}

type boardView struct {
	chrome
	Game        rules.Game
	Rec         *store.Game
	Status      string
	Players     []playerView
	SVG         template.HTML
	Text        string
	Rows        []board.MoveRow
	MoveRows    template.HTML // the rows of the move table
	Legend      template.HTML // what the drawing's shapes and letters mean
	At, Total   int
	Past        bool
	Prev, Next  int // -1 when there is none
	Clocks      []string
	Ratings     []string
	Subscribers string
	Runs        bool         // the move table has a row for each run of moves, no column for each side
	SGF         bool         // the game's records have an SGF form too (records.go)
	BySquare    []sidePieces // a drawn board's pieces in words
}

type playerView struct {
	Side, User string
	ToMove     bool
}

// boardPage is the board drawn, its players, whose turn, clocks and moves.
func (s *Server) boardPage(g rules.Game, text string, q url.Values) (page, error) {
	b, err := s.loadBoard(g, text, q)
	if err != nil {
		return page{}, err
	}
	v := boardView{
		chrome: s.chrome(fmt.Sprintf("%s Board %d", g.Title(), b.rec.Board)),
		Game:   g, Rec: b.rec, Status: b.status(),
		Text: strings.TrimRight(b.pos.Board(), "\n"),
		Rows: board.MoveRows(b.rec), At: b.at, Total: len(b.rec.Moves), Past: b.past,
		Prev: b.at - 1, Next: b.at + 1,
		Subscribers: strings.Join(b.rec.Subscribers, " "),
	}
	v.MoveRows = moveRowsHTML(v.Rows, g.Sides(), b.at)
	v.Runs = board.RunsARow(v.Rows)
	_, v.SGF = g.(record.SGFWriter)
	if d, ok := drawing(b.pos, b.lastMove()); ok {
		title, desc := b.describe(d)
		v.SVG = template.HTML(boardSVG(g, d, title, desc)) // every text escaped
		v.Legend = legend(d)
		v.BySquare = bySquare(g, d)
	}
	if v.Next > v.Total {
		v.Next = -1
	}
	res := b.result()
	for i, side := range g.Sides() {
		v.Players = append(v.Players, playerView{Side: side, User: board.SeatName(b.rec, i),
			ToMove: !res.Over && !b.open() && b.pos.ToMove() == i})
	}
	if !b.past {
		v.Clocks = s.clocks(b.rec)
		v.Ratings = board.RatingChanges(b.rec)
	}
	return s.html("board", v)
}

// clocks tells when the game started, when it last moved, since when the
// player to move has had the turn, and the board's reminder and forfeit
// times: what the board mails tell.
func (s *Server) clocks(rec *store.Game) []string {
	lines := []string{"Started: " + rec.Created.UTC().Format(timeLayout)}
	if rec.Over {
		return append(lines, "Ended: "+rec.Updated.UTC().Format(timeLayout))
	}
	lines = append(lines, "Last move: "+rec.Updated.UTC().Format(timeLayout))
	if since := board.TurnSince(rec); !slices.Contains(rec.Seats, "") {
		lines = append(lines, fmt.Sprintf("%s has had the move since %s (%s).",
			board.SeatName(rec, rec.ToMove), since.UTC().Format(timeLayout), board.Waited(s.opts.Now().Sub(since))))
	}
	c := pbem.ClockOf(rec)
	if c.Fischer {
		return append(lines, c.Lines...) // its bank, not days, runs out
	}
	lines = append(lines, board.DaysOf(rec).String())
	return append(lines, c.Lines...)
}

// boardFile is the board as SVG or JSON.
func (s *Server) boardFile(g rules.Game, text string, q url.Values, kind string) (page, error) {
	b, err := s.loadBoard(g, text, q)
	if err != nil {
		return page{}, err
	}
	if kind == "svg" {
		d, ok := drawing(b.pos, b.lastMove())
		if !ok {
			return page{}, notFound("%s boards are not drawn; /%s/%d shows the board as mails do.", g.Title(), g.Name(), b.rec.Board)
		}
		title, desc := b.describe(d)
		svg := boardSVG(g, d, title, desc)
		return page{body: []byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + svg + "\n"), ctype: "image/svg+xml"}, nil
	}
	return jsonPage(boardJSON(b))
}

// ratingView is a rating as the standings print it: rounded, with the
// provisional mark and the games won, lost and drawn.
type ratingView struct {
	Rating           int
	Provisional      bool
	Won, Lost, Drawn int
}

func viewRating(r *store.Rating) ratingView {
	return ratingView{Rating: rounded(r.Rating), Provisional: pbem.Provisional(*r),
		Won: r.Won, Lost: r.Lost, Drawn: r.Drawn}
}

type userView struct {
	chrome
	User    string
	Ratings []userRating
	Rows    []boardRow
	Page    int
	Prev    int
	Next    int
	Total   int
	// Paused counts his addresses whose board mail is paused after
	// their bounces (pbem's bounces.go): he is told, never which.
	Paused int
	// Todo are the boards at his move, the most urgent first.
	Todo     []pbem.TodoItem
	TodoMore bool
	recs     []*store.GameHead // the boards of Rows, for the JSON
}

type userRating struct {
	Game rules.Game
	ratingView
	games int // rated games finished
}

// userPage is a player's ratings and boards (newest first, a page at a
// time), never his addresses; NAME.json is the same as data, the API's
// /api/v1/users/NAME.
func (s *Server) userPage(name string, q url.Values) (page, error) {
	name, asJSON := strings.CutSuffix(name, ".json")
	v, err := s.readUser(name, q)
	if err != nil {
		return page{}, err
	}
	if asJSON {
		return jsonPage(userJSON(v))
	}
	v.chrome = s.chrome(v.User)
	return s.html("user", v)
}

// readUser reads what a player's page shows: his ratings, the boards at
// his move, and the page of his boards that ?page=N asks for.
func (s *Server) readUser(name string, q url.Values) (userView, error) {
	v := userView{Page: 1}
	if err := onlyParams(q, "page"); err != nil {
		return v, err
	}
	if name == "" || strings.ContainsAny(name, "/\x00") || len(name) > 64 {
		return v, notFound("There is no user %q; user ids are what players signed up with.", name)
	}
	if q.Has("page") {
		n, err := number(q.Get("page"), "page", 1, math.MaxInt32)
		if err != nil {
			return v, err
		}
		v.Page = n
	}
	err := s.db.View(func(tx *store.Tx) error {
		u, err := tx.User(name)
		if errors.Is(err, store.ErrNotFound) {
			return notFound("There is no user %q; user ids are what players signed up with.", name)
		}
		if err != nil {
			return err
		}
		v.User = u.ID
		for _, a := range u.Addresses {
			if _, ok := pbem.PausedSince(tx, a, s.opts.Now()); ok {
				v.Paused++
			}
		}
		// The boards at his move, as "todo" lists them (a bounded read).
		if v.Todo, v.TodoMore, err = pbem.Todo(tx, u.ID, ""); err != nil {
			return err
		}
		for _, g := range catalog.All() {
			if r, ok := u.Ratings[g.Name()]; ok && r != nil && r.Games > 0 {
				v.Ratings = append(v.Ratings, userRating{Game: g, ratingView: viewRating(r), games: r.Games})
			}
		}
		v.Total = tx.CountUserBoards(u.ID)
		from := (v.Page - 1) * boardsPerPage
		if from > 0 && from >= v.Total {
			return notFound("%s has %d boards; there is no page %d of them.", u.ID, v.Total, v.Page)
		}
		for _, ref := range newestBoards(tx, u.ID, from, boardsPerPage) {
			g, _ := catalog.Lookup(ref.Kind)
			rec, err := tx.GameHead(ref.Kind, ref.Board)
			if tx.PassOver(err) {
				continue // logged; the page shows the others
			}
			if err != nil {
				return err
			}
			v.Rows = append(v.Rows, rowOf(g, rec))
			v.recs = append(v.recs, rec)
		}
		if v.Page > 1 {
			v.Prev = v.Page - 1
		}
		if from+boardsPerPage < v.Total {
			v.Next = v.Page + 1
		}
		return nil
	})
	return v, err
}

// newestBoards are n of the user's boards of the games offered, the
// newest (the highest numbered) first and after the first skip of them;
// of boards numbered alike in several games, the game first whose name
// sorts first. It reads the seat index of each game up to the page, not
// all of a player's boards: a robot's may be many thousands.
func newestBoards(tx *store.Tx, user string, skip, n int) []store.GameRef {
	var refs []store.GameRef
	for _, g := range catalog.All() {
		kind, _ := tx.UserBoards(user, g.Name(), nil, true, store.Page{Size: skip + n})
		refs = append(refs, kind...)
	}
	slices.SortFunc(refs, func(a, b store.GameRef) int {
		if a.Board != b.Board {
			return b.Board - a.Board
		}
		return strings.Compare(a.Kind, b.Kind)
	})
	return refs[min(skip, len(refs)):min(skip+n, len(refs))]
}

// moveRowsHTML writes the rows of a board's move table, each move a link to
// the board after it, the move shown marked. It is built here rather than
// in the template because a long game has hundreds of moves and each
// template action costs a reflective call; every text is escaped.
//
// The rows are laid out as the mails lay them out: two columns, one per
// side, or a row for each run of moves (a Taratibu turn) headed "Turn 3,
// White", its moves in one cell across both columns. A move and its
// number never part at a line's end.
func moveRowsHTML(rows []board.MoveRow, sides [2]string, at int) template.HTML {
	var b strings.Builder
	runs := board.RunsARow(rows)
	for _, row := range rows {
		// Numbered as the mails number them: by "#n", each move that is
		// not the row's first with its own number, and turns by turn.
		cells := row.Seats[:]
		switch {
		case runs:
			seat := 0
			if row.Seats[0] == nil {
				seat = 1
			}
			head := sides[seat]
			if row.Turn > 0 {
				head = fmt.Sprintf("Turn %d, %s", row.Turn, sides[seat])
			}
			b.WriteString(`<tr><th class="num" scope="row">` + html.EscapeString(head) + `</th>`)
			cells = row.Seats[seat : seat+1]
		default:
			fmt.Fprintf(&b, `<tr><td class="num">%d.</td>`, row.Number)
		}
		for _, cell := range cells {
			if runs {
				b.WriteString(`<td colspan="2">`)
			} else {
				b.WriteString("<td>")
			}
			if cell == nil {
				b.WriteString("…")
			}
			for i, m := range cell {
				if i > 0 {
					b.WriteByte(' ')
				}
				n := strconv.Itoa(m.Number)
				b.WriteString(`<span class="move">`)
				if runs || m.Number != row.Number {
					b.WriteString("<small>" + n + ".</small> ")
				}
				b.WriteString(`<a href="?move=` + n + `"`)
				if m.Number == at {
					b.WriteString(` class="current" aria-current="step"`)
				}
				b.WriteString(` title="move #` + n + `">` + html.EscapeString(m.Text) + `</a>`)
				if m.Auto {
					b.WriteString(" <small>(Auto)</small>")
				}
				b.WriteString(`</span>`)
			}
			b.WriteString("</td>")
		}
		b.WriteString("</tr>\n")
	}
	return template.HTML(b.String())
}
