package pbem

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// <game> challenge userid1 userid2 [-param ...] [--nagtime=D --forfeittime=D]
func (c *cmd) challenge(args []string) error {
	const form = "%s challenge userid1 userid2 [-option ...] [--nagtime=DAYS --forfeittime=DAYS]"
	var ids, params, server []string
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "--"):
			server = append(server, a)
		case strings.HasPrefix(a, "-"):
			params = append(params, a)
		default:
			ids = append(ids, a)
		}
	}
	if len(ids) != 2 {
		return c.fail("A challenge names two players, first the one who moves first; write: "+form, c.game.Name())
	}
	if ids[0] == "?" && ids[1] == "?" {
		return c.fail("A challenge with an open seat names its one player and a ?, e.g. %s challenge alice ?; both seats are open here", c.game.Name())
	}
	if strings.EqualFold(ids[0], ids[1]) {
		return c.fail("A challenge needs two different players; %s is named twice", ids[0])
	}
	if err := c.robotPair(ids); err != nil {
		return err
	}
	by := c.senderID("")
	var seats []string
	for _, id := range ids {
		if id == "?" {
			seats = append(seats, "") // an open seat: anyone may join
			continue
		}
		u, err := c.r.tx.User(id)
		if errNotFound(err) {
			return c.fail("There is no user %q to play; players must sign up first (signup userid password)", id)
		}
		if err != nil {
			return err
		}
		if contains(u.Refuses, c.game.Name()) && u.ID != by {
			return c.fail("%s refuses all %s challenges at present; challenge another player, or open a seat with: %s challenge USERID ?",
				u.ID, c.game.Title(), c.game.Name())
		}
		instead := "challenge another player"
		if u.ID == by {
			// The challenger's own limit: only he can lift it.
			instead = fmt.Sprintf("raise the limit with: %s limit %s PASSWORD NUMBER", c.game.Name(), u.ID)
		}
		if err := c.underLimit(u, instead); err != nil {
			return err
		}
		seats = append(seats, u.ID)
	}
	opts, err := rules.ParseOptions(c.game, params)
	if err != nil {
		return c.fail("%s", err.Error())
	}
	extra, err := c.timeOptions(server)
	if err != nil {
		return err
	}
	pos, err := c.game.Start(opts)
	if err != nil {
		return c.fail("%s", err.Error())
	}
	num, err := c.r.tx.NextBoard(c.game.Name())
	if err != nil {
		return err
	}
	rec := &store.Game{
		Kind:    c.game.Name(),
		Board:   num,
		Options: opts.Words(),
		Seats:   seats,
		Winner:  rules.Draw,
		Created: c.r.now,
		Updated: c.r.now,
		Thread:  fmt.Sprintf("%s.%d.%d@%s", c.game.Name(), num, c.r.now.Unix(), c.r.s.cfg.Domain),
		Extra:   extra,
	}
	b := &board{game: c.game, rec: rec, opts: opts, pos: pos, fresh: true}
	b.keepPosition()
	sides := c.game.Sides()
	notice := fmt.Sprintf("A new game: %s (%s) against %s (%s).", seatOrOpen(seats[0]), sides[0], seatOrOpen(seats[1]), sides[1])
	if !b.open() {
		rec.TurnSince = c.r.now
	}
	if err := c.r.saveAndAnnounce(b, c.commentBy(c.senderID(seats[0]), 0), notice); err != nil {
		return err
	}
	// A challenger who is not a player hears that the board exists, too.
	if u, err := c.r.tx.UserByAddress(c.r.sender()); errNotFound(err) || err == nil && b.seatOf(u.ID) < 0 {
		c.r.replyText(c.r.sender(), fmt.Sprintf("New %s Board %d", c.game.Title(), num),
			fmt.Sprintf("%s board %d has been created for %s and %s.\n", c.game.Title(), num, seatOrOpen(seats[0]), seatOrOpen(seats[1])))
	} else if err != nil && !errNotFound(err) {
		return err
	}
	return nil
}

// timeOptions reads --nagtime=D and --forfeittime=D.
func (c *cmd) timeOptions(words []string) (map[string]string, error) {
	extra := map[string]string{}
	for _, w := range words {
		name, value, _ := strings.Cut(strings.ToLower(strings.TrimPrefix(w, "--")), "=")
		if name != "nagtime" && name != "forfeittime" {
			return nil, c.fail("%q is not a server option; the server options are --nagtime=DAYS and --forfeittime=DAYS", w)
		}
		d, err := strconv.Atoi(value)
		if err != nil || d < 1 || d > 365 {
			return nil, c.fail("%q needs a number of days from 1 to 365, e.g. --%s=14", w, name)
		}
		extra[name] = strconv.Itoa(d)
	}
	nag, _ := strconv.Atoi(orDefault(extra["nagtime"], "7"))
	forfeit, _ := strconv.Atoi(orDefault(extra["forfeittime"], "21"))
	if forfeit <= nag {
		return nil, c.fail("The forfeit time (%d days) must be longer than the reminder time (%d days)", forfeit, nag)
	}
	if len(extra) == 0 {
		return nil, nil
	}
	return extra, nil
}

// <game> move board userid password move[#n]
func (c *cmd) move(args []string) error {
	if len(args) < 4 {
		return c.usage(c.game.Name() + " move board userid password move[#n]")
	}
	text := strings.Join(args[3:], " ")
	switch w := strings.ToLower(text); w {
	case "resign":
		return c.resign(args[:3])
	case "propose", "draw", "accept", "reject", "undo":
		return c.vote(args[:3], w)
	}
	b, u, err := c.player(args[0], args[1], args[2])
	if err != nil {
		return err
	}
	text, want, err := splitMoveNumber(text)
	if err != nil {
		return c.failOn(b, "%s", err)
	}
	if err := c.playable(b); err != nil {
		return err
	}
	seat := b.seatOf(u.ID)
	if b.pos.ToMove() != seat {
		return c.failOn(b, "It is not your turn on %s board %d: it is %s's turn; send your move when the board mail says it is yours",
			b.game.Title(), b.rec.Board, b.toMove())
	}
	if want != 0 && want != b.next() {
		return c.failOn(b, "Move %s#%d received as move #%d: the board has changed since it was sent, so it was not played; send it again with #%d if you still mean it",
			text, want, b.next(), b.next())
	}
	steps, err := b.play(seat, text, c.r.now, false)
	c.r.played += len(steps)
	if err != nil {
		return c.failOn(b, "%s is not a legal move on %s board %d: %s", text, b.game.Title(), b.rec.Board, moveReason(err, text))
	}
	comment := c.commentBy(u.ID, len(b.rec.Moves))
	notices := []string{fmt.Sprintf("%s played %s.", u.ID, stepsText(steps))}
	notices = append(notices, c.r.answerByMove(b, seat)...)
	queued, err := c.r.runQueue(b)
	if err != nil {
		return err
	}
	return c.r.saveAndAnnounce(b, comment, append(notices, queued...)...)
}

// splitMoveNumber takes "#n" off the end of a move: "e2e5#12" or "e2e5 #12".
func splitMoveNumber(text string) (string, int, error) {
	i := strings.LastIndexByte(text, '#')
	if i < 0 {
		return text, 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(text[i+1:]))
	if err != nil || n < 1 {
		return "", 0, fmt.Errorf("%q does not end in a move number; write the move number as #N after the move, e.g. e2-e5#3", text)
	}
	move := strings.TrimSpace(text[:i])
	if move == "" {
		return "", 0, fmt.Errorf("%q has no move before its number; write the move, then #N, e.g. e2-e5#3", text)
	}
	return move, n, nil
}

// <game> resign board userid password
func (c *cmd) resign(args []string) error {
	if len(args) != 3 {
		return c.usage(c.game.Name() + " resign board userid password")
	}
	b, u, err := c.player(args[0], args[1], args[2])
	if err != nil {
		return err
	}
	if b.rec.Over {
		return c.failOn(b, "%s board %d is already over; there is nothing to resign", b.game.Title(), b.rec.Board)
	}
	if b.open() {
		// Nobody has joined: the board is withdrawn, and nobody wins.
		b.end(c.r.now, rules.Drawn("withdrawn by "+u.ID+" before anyone joined"))
		return c.r.saveAndAnnounce(b, c.commentBy(u.ID, 0), fmt.Sprintf("%s withdrew the open seat board.", u.ID))
	}
	seat := b.seatOf(u.ID)
	if b.pos.ToMove() != seat {
		// As a move, a resignation waits for its player's turn.
		return c.queue([]string{args[0], args[1], args[2], "resign"})
	}
	b.end(c.r.now, rules.Win(1-seat, u.ID+" resigned"))
	return c.r.saveAndAnnounce(b, c.commentBy(u.ID, len(b.rec.Moves)), fmt.Sprintf("%s resigned.", u.ID))
}

// boardUser reads the "board userid password" words most board commands
// start with: it loads the board and checks the password. A wrong password's
// error reply shows the board.
func (c *cmd) boardUser(boardWord, id, password string) (*board, *store.User, error) {
	num, err := c.boardNumber(boardWord)
	if err != nil {
		return nil, nil, err
	}
	b, err := c.r.loadBoard(c.game.Name(), num)
	if err != nil {
		return nil, nil, err
	}
	u, err := c.r.auth(id, password)
	if err != nil {
		var f *failure
		if errors.As(err, &f) {
			f.game, f.board = c.game, b
		}
		return nil, nil, err
	}
	return b, u, nil
}

// player loads a board and checks that id, with password, holds a seat on it.
func (c *cmd) player(boardWord, id, password string) (*board, *store.User, error) {
	b, u, err := c.boardUser(boardWord, id, password)
	if err != nil {
		return nil, nil, err
	}
	if b.seatOf(u.ID) < 0 {
		return nil, nil, c.failOn(b, "%s is not a player of %s board %d; its players are %s",
			u.ID, b.game.Title(), b.rec.Board, strings.Join(b.rec.Seats, " and "))
	}
	return b, u, nil
}

// commentBy is the mail's comment as written by user id after moves moves,
// or nil when the mail has none.
func (c *cmd) commentBy(id string, moves int) *store.Comment {
	if strings.TrimSpace(c.comment) == "" {
		return nil
	}
	return &store.Comment{User: id, Text: c.comment, At: c.r.now, Move: moves}
}

// senderID is the user id of the sender's address, or def.
func (c *cmd) senderID(def string) string {
	if u, err := c.r.tx.UserByAddress(c.r.sender()); err == nil {
		return u.ID
	}
	return def
}

// <game> show board[#n] ... | <game> show userid ... [all|active|inactive|next]
func (c *cmd) show(args []string) error {
	const form = "%s show board[#n] ..., or %s show userid ... [all|active|inactive|next]"
	if len(args) > 0 && strings.EqualFold(args[0], "board") {
		args = args[1:]
	}
	words, filter := splitFilter(args, "active")
	if len(words) == 0 {
		return c.fail("Show needs a board number or a user id; write: "+form, c.game.Name(), c.game.Name())
	}
	const most = 10
	for _, w := range words {
		if w[0] >= '0' && w[0] <= '9' || w[0] == '#' {
			if err := c.showBoard(w); err != nil {
				return err
			}
			continue
		}
		refs, err := c.userBoards(w, filter)
		if err != nil {
			return err
		}
		if len(refs) == 0 {
			return c.fail("%s has no %s %s boards; try '%s show %s all'", w, filter, c.game.Title(), c.game.Name(), w)
		}
		if len(refs) > most {
			return c.fail("%s has %d %s %s boards, more than the %d one mail shows; send '%s games %s %s' for a list",
				w, len(refs), filter, c.game.Title(), most, c.game.Name(), w, filter)
		}
		for _, b := range refs {
			if err := c.sendBoard(b); err != nil {
				return err
			}
		}
	}
	return nil
}

// showBoard mails one board, or with "#n" the board as it stood after n moves, to the sender.
func (c *cmd) showBoard(word string) error {
	const form = "write the board number, then #N for the board after move N, e.g. %s show 101#3"
	// "#101" is board 101, as boardNumber reads it.
	numText, at, hasAt := strings.Cut(strings.TrimPrefix(word, "#"), "#")
	if numText == "" {
		return c.fail("%q has no board number; "+form, word, c.game.Name())
	}
	num, err := c.boardNumber(numText)
	if err != nil {
		return err
	}
	b, err := c.r.loadBoard(c.game.Name(), num)
	if err != nil {
		return err
	}
	if hasAt {
		n, err := strconv.Atoi(at)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return c.failOn(b, "%q does not end in a move number; "+form, word, c.game.Name())
		}
		if err != nil || n < 0 || n > len(b.rec.Moves) {
			return c.failOn(b, "%q asks for the board after move %s, but board %d has moves 0 to %d", word, at, num, len(b.rec.Moves))
		}
		past := *b.rec
		past.Moves = b.rec.Moves[:n]
		past.Over = false
		pos, err := replay(b.game, b.rec, b.opts, n)
		if err != nil {
			return err
		}
		if res := pos.Result(); res.Over {
			past.Over, past.Winner, past.EndReason = true, res.Winner, res.Reason
		}
		old := &board{game: b.game, rec: &past, opts: b.opts, pos: pos}
		v, err := c.r.boardView(old, nil, fmt.Sprintf("The board as it stood after move %d of %d.", n, len(b.rec.Moves)))
		if err != nil {
			return err
		}
		body, err := renderBoardBody(v)
		if err != nil {
			return err
		}
		c.r.reply(c.r.sender(), fmt.Sprintf("%s Board %d at move %d", b.game.Title(), num, n), body, "auto-replied", b.rec.Thread)
		return nil
	}
	return c.sendBoard(b)
}

// sendBoard mails a board to the sender only.
func (c *cmd) sendBoard(b *board) error {
	v, err := c.r.boardView(b, nil)
	if err != nil {
		return err
	}
	body, err := renderBoardBody(v)
	if err != nil {
		return err
	}
	c.r.reply(c.r.sender(), c.r.boardSubject(b, false, false), body, "auto-replied", b.rec.Thread)
	return nil
}

// filters are the last words of show and games that choose boards.
var filters = []string{"all", "active", "inactive", "next", "open"}

// splitFilter takes a filter word off the end of args.
func splitFilter(args []string, def string) ([]string, string) {
	if n := len(args); n > 0 && contains(filters, args[n-1]) {
		return args[:n-1], strings.ToLower(args[n-1])
	}
	return args, def
}

// keep reports whether a board passes a filter; user is "" for every
// board. It reads the record only, so long lists need no replays.
func keep(rec *store.Game, filter, user string) bool {
	open := contains(rec.Seats, "")
	switch filter {
	case "active":
		return !rec.Over
	case "inactive":
		return rec.Over
	case "next":
		// A board waiting for an opponent is nobody's turn yet.
		return !rec.Over && !open && user != "" && strings.EqualFold(rec.Seats[rec.ToMove], user)
	case "open":
		return !rec.Over && open
	}
	return true
}

// userBoards are the boards of this game where user id holds a seat.
func (c *cmd) userBoards(id, filter string) ([]*board, error) {
	u, err := c.r.tx.User(id)
	if errNotFound(err) {
		return nil, c.fail("There is no user %q; user ids are what players signed up with", id)
	}
	if err != nil {
		return nil, err
	}
	refs, err := c.r.tx.GamesOf(u.ID)
	if err != nil {
		return nil, err
	}
	var out []*board
	for _, ref := range refs {
		if ref.Kind != c.game.Name() {
			continue
		}
		b, err := c.r.loadBoard(ref.Kind, ref.Board)
		if err != nil {
			return nil, err
		}
		if keep(b.rec, filter, u.ID) {
			out = append(out, b)
		}
	}
	return out, nil
}

// <game> games [userid ...] [all|active|inactive|next|open]
func (c *cmd) games(args []string) error {
	ids, filter := splitFilter(args, "active")
	var recs []*store.Game
	if len(ids) == 0 {
		err := c.r.eachGame(c.game.Name(), filter != "all" && filter != "inactive", func(rec *store.Game) error {
			if keep(rec, filter, "") {
				recs = append(recs, rec)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	for _, id := range ids {
		bs, err := c.userBoards(id, filter)
		if err != nil {
			return err
		}
		for _, b := range bs {
			recs = append(recs, b.rec)
		}
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].Board < recs[j].Board })
	var rows []string
	for _, rec := range recs {
		rows = append(rows, gameRow(rec))
	}
	who := "all players"
	if len(ids) > 0 {
		who = strings.Join(ids, ", ")
	}
	body, err := render("games", map[string]any{
		"Title": c.game.Title(), "Filter": filter, "Who": who, "Rows": rows,
	})
	if err != nil {
		return err
	}
	c.r.replyText(c.r.sender(), fmt.Sprintf("%s games (%s)", c.game.Title(), filter), body)
	return nil
}

// gameRow is one line of a games list: board, players, moves, state. It
// reads the record only.
func gameRow(rec *store.Game) string {
	state := "to move: " + seatOrOpen(rec.Seats[rec.ToMove])
	switch {
	case !rec.Over && contains(rec.Seats, ""):
		state = "open seat"
	case rec.Over && rec.Winner == rules.Draw:
		state = "tie"
	case rec.Over:
		state = "won by " + rec.Seats[rec.Winner]
	}
	players := make([]string, len(rec.Seats))
	for i, s := range rec.Seats {
		players[i] = seatOrOpen(s)
	}
	return fmt.Sprintf("%5d  %-27s %5d  %s", rec.Board, strings.Join(players, " - "), len(rec.Moves), state)
}

func seatOrOpen(id string) string {
	if id == "" {
		return "?"
	}
	return id
}

// <game> subscribe board userid password
func (c *cmd) subscribe(args []string) error {
	return c.subscription(args, true)
}

// <game> unsubscribe board userid password
func (c *cmd) unsubscribe(args []string) error {
	return c.subscription(args, false)
}

func (c *cmd) subscription(args []string, on bool) error {
	verb := map[bool]string{true: "subscribe", false: "unsubscribe"}[on]
	if len(args) != 3 {
		return c.usage(fmt.Sprintf("%s %s board userid password", c.game.Name(), verb))
	}
	b, u, err := c.boardUser(args[0], args[1], args[2])
	if err != nil {
		return err
	}
	num := b.rec.Board
	has := contains(b.rec.Subscribers, u.ID)
	switch {
	case on && has:
		return c.failOn(b, "%s already receives every mail of %s board %d", u.ID, b.game.Title(), num)
	case on && b.seatOf(u.ID) >= 0:
		return c.failOn(b, "%s plays on %s board %d and receives its mails already", u.ID, b.game.Title(), num)
	case !on && !has:
		return c.failOn(b, "%s is not subscribed to %s board %d", u.ID, b.game.Title(), num)
	}
	if on {
		b.rec.Subscribers = append(b.rec.Subscribers, u.ID)
	} else {
		var keep []string
		for _, s := range b.rec.Subscribers {
			if !strings.EqualFold(s, u.ID) {
				keep = append(keep, s)
			}
		}
		b.rec.Subscribers = keep
	}
	if err := c.r.tx.PutGame(b.rec); err != nil {
		return err
	}
	v, err := c.r.boardView(b, nil, fmt.Sprintf("%s is now %sd to this board.", u.ID, verb))
	if err != nil {
		return err
	}
	body, err := renderBoardBody(v)
	if err != nil {
		return err
	}
	return c.r.mailUser(u.ID, c.r.boardSubject(b, false, false), body, b.rec.Thread)
}

// eachGame calls fn for the boards of a kind in order: only the running
// ones (read through the store's index) when running is true, else all.
func (r *request) eachGame(kind string, running bool, fn func(*store.Game) error) error {
	if !running {
		return r.tx.Games(kind, fn)
	}
	nums, err := r.tx.RunningBoards(kind)
	if err != nil {
		return err
	}
	for _, num := range nums {
		rec, err := r.tx.Game(kind, num)
		if err != nil {
			return err
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
	return nil
}

// listMost is how many boards in play "list" shows per game; "<game>
// games" lists them all.
const listMost = 50

// list [game ...]: the games offered, with their boards in play.
func (c *cmd) list(args []string) error {
	games := catalog.All()
	if len(args) > 0 {
		games = nil
		for _, a := range args {
			g, ok := catalog.Lookup(a)
			if !ok {
				return fail("%q is not a game of this server; the games are %s", a, strings.Join(catalog.Names(), ", "))
			}
			games = append(games, g)
		}
	}
	type section struct {
		Title, Name string
		Aliases     []string
		Rows        []string
		More        int // boards in play beyond listMost
	}
	var sections []section
	for _, g := range games {
		s := section{Title: g.Title(), Name: g.Name(), Aliases: g.Aliases()}
		running, err := c.r.tx.RunningBoards(g.Name())
		if err != nil {
			return err
		}
		if len(running) > listMost {
			s.More = len(running) - listMost
			running = running[:listMost]
		}
		for _, num := range running {
			rec, err := c.r.tx.Game(g.Name(), num)
			if err != nil {
				return err
			}
			s.Rows = append(s.Rows, gameRow(rec))
		}
		sections = append(sections, s)
	}
	body, err := render("list", map[string]any{"Sections": sections})
	if err != nil {
		return err
	}
	c.r.replyText(c.r.sender(), "pbemd: games offered", body)
	return nil
}

// moveReason is why a move was refused, without repeating the move when the
// rules quote it whole.
func moveReason(err error, text string) string {
	var re *rules.Error
	if errors.As(err, &re) && strings.EqualFold(re.Input, text) {
		return re.Msg
	}
	return err.Error()
}
