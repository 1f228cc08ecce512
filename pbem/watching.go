package pbem

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

// <game> show board[#n] ... | <game> show userid ... [all|active|inactive|next]
func (c *cmd) show(args []string) error {
	if len(args) > 0 && strings.EqualFold(args[0], "board") {
		args = args[1:]
	}
	words, filter := splitFilter(args, "active")
	if len(words) == 0 {
		return c.fail("Show needs a board number or a user id; write: %s", strings.Join(formWords(c.forms()), ", or "))
	}
	// At most most boards in all, whatever the number of words: one mail
	// costs at most ten board mails' worth of reply.
	const most = maxShown
	shown := 0
	seen := map[string]bool{} // a word written twice shows its boards once
	for _, w := range words {
		key := strings.ToLower(strings.TrimPrefix(w, "#")) // "#101" is 101
		if seen[key] {
			continue
		}
		seen[key] = true
		if shown == most {
			return c.fail("One show mail shows at most %d boards; send the rest in another mail", most)
		}
		if w[0] >= '0' && w[0] <= '9' || w[0] == '#' {
			if err := c.showBoard(w); err != nil {
				return err
			}
			shown++
			continue
		}
		refs, more, err := c.userBoards(w, filter, store.Page{Size: most - shown})
		if err != nil {
			return err
		}
		if len(refs) == 0 {
			return c.fail("%s; try \"%s show %s all\"", noBoards(w, filter, c.game.Title()), c.game.Name(), w)
		}
		if more {
			return c.fail("%s has more %s %s boards than the %d one mail shows; send \"%s games %s %s\" for a list",
				w, filter, c.game.Title(), most, c.game.Name(), w, filter)
		}
		shown += len(refs)
		for _, b := range refs {
			if err := c.sendBoard(b); err != nil {
				return err
			}
		}
	}
	return nil
}

// maxShown is the most boards one show (or subscribe) names.
const maxShown = 10

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
	b, err := c.r.loadShownBoard(c.game.Name(), num)
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
		pos, err := b.model().Replay(n)
		if err != nil {
			return err
		}
		if res := pos.Result(); res.Over {
			past.Over, past.Winner, past.EndReason = true, res.Winner, res.Reason
		}
		old := &board{game: b.game, rec: &past, opts: b.opts, pos: pos}
		return c.mailWholeBoard(old, false, fmt.Sprintf("%s Board %d at move %d", b.game.Title(), num, n),
			c.r.say("The board as it stood after move %d of %d.", n, len(b.rec.Moves)))
	}
	return c.sendBoard(b)
}

// sendBoard mails a board to the sender only.
func (c *cmd) sendBoard(b *board) error {
	return c.mailWholeBoard(b, true, c.r.boardSubject(b, false, false))
}

// mailWholeBoard mails the board, with its whole move list (as show gives
// it), to the sender only, in the board's thread. The board as it stands
// (live) can be answered by reply, as a board mail; a past one cannot.
func (c *cmd) mailWholeBoard(b *board, live bool, subject string, notices ...string) error {
	v, err := c.r.boardView(b, nil, notices...)
	if err != nil {
		return err
	}
	v.MoveList = model.MoveListIn(v.lang, b.game, b.rec, 0)
	if live {
		return c.r.answerBoard(b, v, subject, func(board string) (string, error) { return board, nil })
	}
	body, err := renderBoardBody(v)
	if err != nil {
		return err
	}
	c.r.reply(c.r.sender(), subject, body, "auto-replied", b.rec.Thread)
	c.r.parts[len(c.r.parts)-1].own = true
	return nil
}

// filters are the last words of show and games that choose boards.
var filters = []string{"all", "active", "inactive", "next", "open"}

// splitFilter takes a filter word off the end of args, or off their start
// when a user id follows it.
func splitFilter(args []string, def string) ([]string, string) {
	if n := len(args); n > 0 && contains(filters, strings.ToLower(args[n-1])) {
		return args[:n-1], strings.ToLower(args[n-1])
	}
	// pbmserv's players write it first too: "games next alice".
	if len(args) > 1 && contains(filters, strings.ToLower(args[0])) {
		return args[1:], strings.ToLower(args[0])
	}
	return args, def
}

// userBoards are the page of the boards of this game where user id holds
// a seat and which pass the filter, and whether more follow. Only the
// boards of the page are read, as boards to show (loadShownBoard).
func (c *cmd) userBoards(id, filter string, p store.Page) ([]*board, bool, error) {
	u, err := c.r.tx.User(id)
	if errNotFound(err) {
		return nil, false, c.fail("There is no user %q; user ids are what players signed up with", id)
	}
	if err != nil {
		return nil, false, err
	}
	refs, more := c.r.tx.UserBoards(u.ID, c.game.Name(), seatFilter(filter), false, p)
	var out []*board
	for _, ref := range refs {
		b, err := c.r.loadShownBoard(ref.Kind, ref.Board)
		if err != nil {
			return nil, false, err
		}
		out = append(out, b)
	}
	return out, more, nil
}

// <game> games [userid ...] [all|active|inactive|next|open] [page N]: a
// page of boards, by number (the inactive ones of all players: the last
// ended first).
func (c *cmd) games(args []string) error {
	args, pg, err := splitPage(args)
	if err != nil {
		return err
	}
	ids, filter := splitFilter(args, "active")
	kind := c.game.Name()
	var recs []*store.GameHead
	more := false
	if len(ids) == 0 {
		if state, ok := kindState(filter); ok {
			nums, m := c.r.tx.KindBoards(kind, state, page(pg, pageRows))
			if recs, err = c.r.heads(refsOf(kind, nums)); err != nil {
				return err
			}
			more = m
		}
	}
	for _, id := range ids {
		u, err := c.r.tx.User(id)
		if errNotFound(err) {
			return c.fail("There is no user %q; user ids are what players signed up with", id)
		}
		if err != nil {
			return err
		}
		refs, m := c.r.tx.UserBoards(u.ID, kind, seatFilter(filter), false, page(pg, pageRows))
		rs, err := c.r.heads(refs)
		if err != nil {
			return err
		}
		recs, more = append(recs, rs...), more || m
	}
	if len(ids) > 0 {
		sort.SliceStable(recs, func(i, j int) bool { return recs[i].Board < recs[j].Board })
	}
	lang := c.r.language()
	var rows []string
	for _, rec := range recs {
		rows = append(rows, gameRow(lang, rec))
	}
	who := "all players"
	if len(ids) > 0 {
		who = strings.Join(ids, ", ")
	}
	body, err := renderIn(lang, "games", map[string]any{
		"Title": c.game.Title(), "Filter": filter, "Who": who, "Rows": rows,
		"Next": nextPageIn(lang, command(kind, "games", strings.Join(ids, " "), filter), pg, more),
	})
	if err != nil {
		return err
	}
	c.r.replyText(c.r.sender(), fmt.Sprintf("%s games (%s)", c.game.Title(), filter), body)
	return nil
}

// gameRow is one line of a games list: board, players, moves, state. It
// reads the record only.
func gameRow(lang string, rec *store.GameHead) string {
	tr := func(format string, args ...any) string { return templates.Sprintf(lang, format, args...) }
	state := tr("to move: %s", model.Name(rec.Seats[rec.ToMove]))
	switch {
	case !rec.Over && contains(rec.Seats, ""):
		state = tr("open seat")
	case rec.Over && rec.Withdrawn != "":
		state = tr("withdrawn")
	case rec.Over && rec.Winner == rules.Draw:
		state = tr("tie")
	case rec.Over:
		state = tr("won by %s", rec.Seats[rec.Winner])
	}
	players := make([]string, len(rec.Seats))
	for i, s := range rec.Seats {
		players[i] = model.Name(s)
	}
	return fmt.Sprintf("%5d  %-27s %5d  %s", rec.Board, strings.Join(players, " - "), rec.Moves, state)
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
	if len(args) >= 3 && !strings.EqualFold(args[0], "all") && !isBoardWord(args[0]) {
		return c.subscribeNamed(args, on) // pbmserv's order
	}
	if len(args) != 3 {
		return c.usage()
	}
	if strings.EqualFold(args[0], "all") {
		return c.subscribeAll(args[1], args[2], on)
	}
	b, u, err := c.boardUser(args[0], args[1], args[2])
	if err != nil {
		return err
	}
	if why := c.subscribeRefusal(b, u, on); why != "" {
		return c.failOn(b, "%s", why)
	}
	if err := c.r.setSubscribed(b, u, on); err != nil {
		return err
	}
	notice := c.r.say("%s is now subscribed to this board.", u.ID)
	if verb == "unsubscribe" {
		notice = c.r.say("%s is now unsubscribed from this board.", u.ID)
	}
	v, err := c.r.boardView(b, nil, notice)
	if err != nil {
		return err
	}
	body, err := renderBoardBody(v)
	if err != nil {
		return err
	}
	n := len(c.r.parts)
	if err := c.r.mailUser(u.ID, c.r.boardSubject(b, false, false), body, b.rec.Thread); err != nil {
		return err
	}
	if on {
		c.r.listed(b, n) // the first of a subscriber's mails
	}
	return nil
}

// subscribeRefusal is why user u may not subscribe to board b (on), or
// unsubscribe from it; "" when he may.
func (c *cmd) subscribeRefusal(b *board, u *store.User, on bool) string {
	num, has := b.rec.Board, contains(b.rec.Subscribers, u.ID)
	switch {
	case on && has:
		return fmt.Sprintf("%s already receives every mail of %s board %d", u.ID, b.game.Title(), num)
	case on && b.seatOf(u.ID) >= 0:
		return fmt.Sprintf("%s plays on %s board %d and receives its mails already", u.ID, b.game.Title(), num)
	case !on && !has:
		return fmt.Sprintf("%s is not subscribed to %s board %d", u.ID, b.game.Title(), num)
	case on && len(b.rec.Subscribers) >= c.r.s.limits.Watchers:
		return fmt.Sprintf("%s board %d has the most subscribers a board may have (%d); '%s notify %s PASSWORD %d' sends %s its final mail instead",
			b.game.Title(), num, c.r.s.limits.Watchers, b.game.Name(), u.ID, num, u.ID)
	}
	return ""
}

// setSubscribed subscribes user u to board b (on), or unsubscribes him,
// and stores the board.
func (r *request) setSubscribed(b *board, u *store.User, on bool) error {
	if on {
		b.rec.Subscribers = append(b.rec.Subscribers, u.ID)
		// A subscribe lifts the one-click unsubscribe of his addresses.
		if err := r.unmute(u.Addresses, b); err != nil {
			return err
		}
	} else {
		b.rec.Subscribers = remove(b.rec.Subscribers, u.ID)
	}
	return r.tx.PutGame(b.rec)
}

// isBoardWord reports whether a word is a board number ("101", "#101").
func isBoardWord(w string) bool {
	w = strings.TrimPrefix(w, "#")
	return w != "" && w[0] >= '0' && w[0] <= '9'
}

// <game> notify userid password [off] [board ...]: the final mail of the
// boards named, or without boards of every board of this game, also goes to
// the user. "off" stops it.
func (c *cmd) notify(args []string) error {
	if len(args) < 2 {
		return c.usage()
	}
	u, err := c.r.auth(args[0], args[1])
	if err != nil {
		return err
	}
	on, off := true, false
	words := args[2:]
	if len(words) > 0 && strings.EqualFold(words[0], "off") {
		on, off, words = false, true, words[1:]
	}
	kind := c.game.Name()
	var text string
	if len(words) == 0 {
		has := contains(u.NotifyKinds, kind)
		if !off {
			on = !has // bare, it toggles, as on pbmserv
		}
		switch {
		case on && has:
			return c.fail("%s is told of the end of every %s game already; \"%s notify %s PASSWORD off\" stops it", u.ID, c.game.Title(), kind, u.ID)
		case !on && !has:
			return c.fail("%s is not told of the end of every %s game; \"%s notify %s PASSWORD\" starts it", u.ID, c.game.Title(), kind, u.ID)
		case on && len(c.r.tx.NotifyUsers(kind)) >= c.r.s.limits.Watchers:
			return c.fail("As many users as may be (%d) are told of the end of every %s game already; name the boards instead: \"%s notify %s PASSWORD BOARD ...\"",
				c.r.s.limits.Watchers, c.game.Title(), kind, u.ID)
		case on:
			u.NotifyKinds = append(u.NotifyKinds, kind)
			text = fmt.Sprintf("%s receives the final mail of every %s game from now on.\n", u.ID, c.game.Title())
		default:
			u.NotifyKinds = remove(u.NotifyKinds, kind)
			text = fmt.Sprintf("%s no longer receives the final mail of every %s game.\n", u.ID, c.game.Title())
		}
		if err := c.r.tx.PutUser(u); err != nil {
			return err
		}
	} else {
		var boards []*board
		for _, w := range words {
			b, err := c.boardOf(w)
			if err != nil {
				return err
			}
			num, has := b.rec.Board, contains(b.rec.Notify, u.ID)
			switch {
			case on && b.seatOf(u.ID) >= 0:
				return c.failOn(b, "%s plays on %s board %d and receives its final mail anyway", u.ID, b.game.Title(), num)
			case on && b.rec.Over:
				return c.failOn(b, "%s board %d is over already; send '%s show %d' for its final board", b.game.Title(), num, kind, num)
			case on && has:
				return c.failOn(b, "%s is told of the end of %s board %d already", u.ID, b.game.Title(), num)
			case !on && !has:
				return c.failOn(b, "%s is not told of the end of %s board %d", u.ID, b.game.Title(), num)
			case on && len(b.rec.Notify) >= c.r.s.limits.Watchers:
				return c.failOn(b, "As many users as may be (%d) are told of the end of %s board %d already", c.r.s.limits.Watchers, b.game.Title(), num)
			}
			if on {
				b.rec.Notify = append(b.rec.Notify, u.ID)
				if err := c.r.unmute(u.Addresses, b); err != nil {
					return err
				}
			} else {
				b.rec.Notify = remove(b.rec.Notify, u.ID)
			}
			boards = append(boards, b)
		}
		var nums []string
		for _, b := range boards {
			if err := c.r.tx.PutGame(b.rec); err != nil {
				return err
			}
			nums = append(nums, strconv.Itoa(b.rec.Board))
		}
		if on {
			text = fmt.Sprintf("%s receives the final mail of %s board %s when it ends.\n", u.ID, c.game.Title(), strings.Join(nums, ", "))
		} else {
			text = fmt.Sprintf("%s no longer receives the final mail of %s board %s.\n", u.ID, c.game.Title(), strings.Join(nums, ", "))
		}
	}
	c.r.replyText(c.r.sender(), fmt.Sprintf("%s: notify for %s", c.game.Title(), u.ID), text)
	return nil
}

// notifiers are the users told of the end of a board beyond its audience:
// those who asked for the board, and those who asked for every board of
// its kind.
//
// Each list counts at most limits.watchers users: one stored before the
// limit may hold more, and the first ones are told.
func (r *request) notifiers(b *board) ([]string, error) {
	most := r.s.limits.Watchers
	board, kind := b.rec.Notify, r.tx.NotifyUsers(b.rec.Kind)
	ids := append([]string(nil), board[:min(len(board), most)]...)
	return append(ids, kind[:min(len(kind), most)]...), nil
}

// remove is list without s.
func remove(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if !strings.EqualFold(x, s) {
			out = append(out, x)
		}
	}
	return out
}

// <game> history [userid] [page N]: the finished boards of this game, the
// last ended first (a player's: the highest board first), a page at a time.
func (c *cmd) history(args []string) error {
	args, pg, err := splitPage(args)
	if err != nil {
		return err
	}
	if len(args) > 1 {
		return c.usage()
	}
	kind := c.game.Name()
	var refs []store.GameRef
	var more bool
	var who string
	if len(args) == 1 {
		u, err := c.r.tx.User(args[0])
		if errNotFound(err) {
			return c.fail("There is no user %q; user ids are what players signed up with", args[0])
		}
		if err != nil {
			return err
		}
		who = u.ID
		refs, more = c.r.tx.UserBoards(u.ID, kind, seatFilter("inactive"), true, page(pg, pageRows))
	} else {
		var nums []int
		nums, more = c.r.tx.KindBoards(kind, store.FinishedBoards, page(pg, pageRows))
		refs = refsOf(kind, nums)
	}
	recs, err := c.r.heads(refs) // a row shows no move: the heads, not the moves
	if err != nil {
		return err
	}
	lang := c.r.language()
	var lines []string
	for _, rec := range recs {
		if rec.Withdrawn != "" {
			// A board withdrawn before it was played (declined, a seat
			// never taken) is no game: history leaves it out, as
			// pbmserv's; "GAME games inactive" still lists it.
			continue
		}
		result := templates.T(lang, "tie")
		if rec.Winner != rules.Draw && rec.Winner < len(rec.Seats) {
			result = templates.Sprintf(lang, "won by %s", rec.Seats[rec.Winner])
		}
		players := make([]string, len(rec.Seats))
		for i, s := range rec.Seats {
			players[i] = model.Name(s)
		}
		// The reason goes on a line of its own when the row would pass
		// 72 columns.
		line := fmt.Sprintf("%5d  %-17s %5d  %s  %s", rec.Board, strings.Join(players, " - "),
			rec.Moves, rec.Updated.UTC().Format("2006-01-02"), result)
		if reason := " (" + endReason(lang, rec.EndReason) + ")"; utf8.RuneCountInString(line+reason) <= model.LineWidth {
			line += reason
		} else {
			line += "\n" + strings.Repeat(" ", 7) + reason[1:]
		}
		lines = append(lines, line)
	}
	whose := "all players"
	if who != "" {
		whose = who
	}
	body, err := renderIn(lang, "history", map[string]any{"Title": c.game.Title(), "Who": whose, "Rows": lines,
		"Next": nextPageIn(lang, command(kind, "history", who), pg, more)})
	if err != nil {
		return err
	}
	c.r.replyText(c.r.sender(), c.game.Title()+" history", body)
	return nil
}

// noBoards says that a user has no boards of a filter, in words: "bob has
// no Tanbo board where bob is to move" rather than "no next boards". An
// empty title means every game.
func noBoards(user, filter, title string) string {
	kind := title + " boards"
	if title == "" {
		kind = "boards"
	}
	switch filter {
	case "next":
		return fmt.Sprintf("%s has no %s where %s is to move", user, strings.TrimSuffix(kind, "s"), user)
	case "all":
		return fmt.Sprintf("%s has no %s", user, kind)
	}
	return fmt.Sprintf("%s has no %s %s", user, filter, kind)
}
