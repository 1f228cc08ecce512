package pbem

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

// board is a stored game with its rules and current position.
type board struct {
	game rules.Game
	rec  *store.Game
	opts rules.Options
	pos  rules.Position

	fresh bool // a game just created or joined: its mail says "New"
}

// loadBoard reads a board and brings its position up to date by replaying the
// move list, the source of truth (a position text alone would forget what a
// game remembers, such as Tobit's repetitions). Replays are cached.
func (r *request) loadBoard(kind string, num int) (*board, error) {
	g, ok := catalog.Lookup(kind)
	if !ok {
		return nil, fmt.Errorf("board %s %d: no such game in this server", kind, num)
	}
	rec, err := r.tx.Game(g.Name(), num)
	if errNotFound(err) {
		f := fail("There is no %s board %d; send '%s games all' for the boards there are", g.Title(), num, g.Name())
		f.game = g
		return nil, f
	}
	if err != nil {
		return nil, err
	}
	opts, err := rules.ParseOptions(g, rec.Options)
	if err != nil {
		return nil, fmt.Errorf("%s board %d: stored options: %w", g.Name(), num, err)
	}
	b := &board{game: g, rec: rec, opts: opts}
	if b.pos = r.s.positions.get(rec); b.pos != nil {
		return b, nil
	}
	if b.pos, err = replay(g, rec, opts, len(rec.Moves)); err != nil {
		return nil, err
	}
	r.s.positions.put(rec, b.pos)
	return b, nil
}

// replay plays the first n moves of rec from its start.
func replay(g rules.Game, rec *store.Game, opts rules.Options, n int) (rules.Position, error) {
	var pos rules.Position
	var err error
	if rec.StartPos != "" {
		pos, err = g.ParsePosition(rec.StartPos, opts)
	} else {
		pos, err = g.Start(opts)
	}
	if err != nil {
		return nil, fmt.Errorf("%s board %d: start position: %w", g.Name(), rec.Board, err)
	}
	for i, m := range rec.Moves[:n] {
		if _, err := pos.Play(m.Text); err != nil {
			return nil, fmt.Errorf("%s board %d: stored move %d %q does not replay: %w", g.Name(), rec.Board, i+1, m.Text, err)
		}
	}
	return pos, nil
}

// seatOf is the seat user id holds, or -1.
func (b *board) seatOf(id string) int {
	for i, s := range b.rec.Seats {
		if s != "" && strings.EqualFold(s, id) {
			return i
		}
	}
	return -1
}

// toMove is the user id whose turn it is.
func (b *board) toMove() string { return b.rec.Seats[b.pos.ToMove()] }

// next is the number the next move will get.
func (b *board) next() int { return len(b.rec.Moves) + 1 }

// open reports whether the board still waits for a player to take a seat.
func (b *board) open() bool {
	for _, s := range b.rec.Seats {
		if s == "" {
			return true
		}
	}
	return false
}

// end records the end of the game. Open proposals and queued moves end
// with it.
func (b *board) end(now time.Time, res rules.Result) {
	b.rec.Over = true
	b.rec.Winner = res.Winner
	b.rec.EndReason = res.Reason
	b.rec.Updated = now
	b.rec.Vote = nil
	b.rec.Queue = nil
}

// keepPosition writes the position and the seat to move into the record,
// where lists read them without a replay.
func (b *board) keepPosition() {
	b.rec.Position = b.pos.String()
	b.rec.ToMove = b.pos.ToMove()
}

// play applies a submission of seat and records its moves.
func (b *board) play(seat int, text string, now time.Time, auto bool) ([]rules.Step, error) {
	steps, err := b.pos.Play(text)
	if err != nil {
		return nil, err
	}
	for _, st := range steps {
		b.rec.Moves = append(b.rec.Moves, store.Move{Seat: seat, Text: st.Move, Captured: st.Captured, At: now, Auto: auto})
	}
	b.keepPosition()
	b.rec.Updated = now
	b.rec.TurnSince = now
	if res := b.pos.Result(); res.Over {
		b.end(now, res)
	}
	return steps, nil
}

// saveAndAnnounce stores the board and mails it to every player and
// subscriber, with the notices on top and the comment, if any, below.
//
// A game that has just ended is rated first, and its final mail also goes
// to the users who asked to be told of its end.
func (r *request) saveAndAnnounce(b *board, comment *store.Comment, notices ...string) error {
	if comment != nil {
		b.rec.Comments = append(b.rec.Comments, *comment)
	}
	ended := b.rec.Over && !b.rec.Rated
	if ended {
		if err := r.rate(b); err != nil {
			return err
		}
	}
	if err := r.tx.PutGame(b.rec); err != nil {
		return err
	}
	r.cacheAfterCommit(b)
	r.robotAfterCommit(b)
	v, err := r.boardView(b, comment, notices...)
	if err != nil {
		return err
	}
	body, err := renderBoardBody(v)
	if err != nil {
		return err
	}
	subject := r.boardSubject(b, b.fresh && !b.rec.Over, comment != nil)
	audience := b.audience()
	if ended {
		more, err := r.notifiers(b)
		if err != nil {
			return err
		}
		audience = union(audience, more)
	}
	for _, id := range audience {
		if err := r.mailUser(id, subject, body, b.rec.Thread); err != nil {
			return err
		}
	}
	return nil
}

// cacheAfterCommit remembers the board's position once the transaction has
// committed; a rolled-back change must not be remembered.
func (r *request) cacheAfterCommit(b *board) {
	rec, pos := b.rec, b.pos.Clone()
	r.after = append(r.after, func() { r.s.positions.put(rec, pos) })
}

// audience is every user who gets a board's mails: players, then subscribers.
func (b *board) audience() []string {
	var ids []string
	for _, s := range b.rec.Seats {
		if s != "" && !contains(ids, s) {
			ids = append(ids, s)
		}
	}
	for _, s := range b.rec.Subscribers {
		if !contains(ids, s) {
			ids = append(ids, s)
		}
	}
	return ids
}

// mailUser sends one copy of a mail to each address of a user. A user who has
// gone (signed off) gets nothing.
func (r *request) mailUser(id, subject, body, thread string) error {
	u, err := r.tx.User(id)
	if errNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, a := range u.Addresses {
		r.reply(a, subject, body, r.autoKind(), thread)
	}
	return nil
}

// autoKind is the Auto-Submitted value of the request's mails: replies to a
// player's mail are auto-replied, the sweep's reminders and forfeits (which
// answer no mail) auto-generated.
func (r *request) autoKind() string {
	if r.mail == nil {
		return "auto-generated"
	}
	return "auto-replied"
}

// boardSubject is "<Game> Board <n> <userid to move>[ **]", with "New " before
// it for a new game; a finished game names its end instead of a player.
func (r *request) boardSubject(b *board, isNew, withComment bool) string {
	s := fmt.Sprintf("%s Board %d ", b.game.Title(), b.rec.Board)
	switch {
	case !b.rec.Over:
		s += seatOrOpen(b.toMove())
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
	Comment     *store.Comment
	Times       []string
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
	v.Times = timeBlock(b.rec)
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
	for _, m := range rec.Moves {
		t := m.Text
		if m.Auto {
			t += " (Auto)"
		}
		if n := len(entries); n > 0 && entries[n-1].seat == m.Seat {
			entries[n-1].text += " " + t
			continue
		}
		entries = append(entries, entry{m.Seat, t})
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

// positionCache keeps the replayed positions of recently used boards.
type positionCache struct {
	mu    sync.Mutex
	max   int
	items map[string]cachedPosition
}

type cachedPosition struct {
	moves int
	text  string
	pos   rules.Position
}

func newPositionCache(max int) *positionCache {
	return &positionCache{max: max, items: map[string]cachedPosition{}}
}

func cacheKey(rec *store.Game) string { return fmt.Sprintf("%s/%d", rec.Kind, rec.Board) }

// get returns a copy of the cached position of rec, or nil when the cache
// holds none for its current move count and position.
func (c *positionCache) get(rec *store.Game) rules.Position {
	c.mu.Lock()
	defer c.mu.Unlock()
	it, ok := c.items[cacheKey(rec)]
	if !ok || it.moves != len(rec.Moves) || it.text != rec.Position {
		return nil
	}
	return it.pos.Clone()
}

func (c *positionCache) put(rec *store.Game, pos rules.Position) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.items) >= c.max {
		clear(c.items) // crude, but a replay is cheap and misses are rare
	}
	c.items[cacheKey(rec)] = cachedPosition{moves: len(rec.Moves), text: pos.String(), pos: pos.Clone()}
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
