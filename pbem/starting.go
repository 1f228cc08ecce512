package pbem

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/clock"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
)

// <game> challenge userid1 userid2 [-param ...] [--nagtime=D --forfeittime=D] [-clock=CLOCK]
func (c *cmd) challenge(args []string) error {
	const form = "%s challenge userid1 userid2 [-option ...] [--nagtime=DAYS --forfeittime=DAYS] [-clock=CLOCK]"
	ids, params, server := splitOptions(args)
	if len(ids) != 2 {
		return c.fail("A challenge names two players, first the one who moves first; write: "+form, c.game.Name())
	}
	return c.newBoard(ids, params, server, "")
}

// splitOptions sorts the words of a challenge (or seek): the server's
// options (--nagtime=D, -clock=C), the game's (-size=9), and the other
// words.
func splitOptions(args []string) (words, params, server []string) {
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "--"), len(a) > 7 && strings.EqualFold(a[:7], "-clock="):
			server = append(server, a)
		case strings.HasPrefix(a, "-"):
			params = append(params, a)
		default:
			words = append(words, a)
		}
	}
	return words, params, server
}

// newBoard starts a board for the players ids ("?" for an open seat) with
// the game's options params and the server's (--nagtime, --forfeittime):
// the challenge, and the seek and the rematch, which name a player proved
// by his password (proved; "" for none). Who is only invited follows the
// trust rules (inviteOnly).
func (c *cmd) newBoard(ids, params, server []string, proved string) error {
	if ids[0] == "?" && ids[1] == "?" {
		return c.fail("A challenge with an open seat names its one player and a ?, e.g. %s challenge alice ?; both seats are open here", c.game.Name())
	}
	if strings.EqualFold(ids[0], ids[1]) {
		return c.fail("A challenge needs two different players; %s is named twice", ids[0])
	}
	if err := c.robotPair(ids); err != nil {
		return err
	}
	// Who challenges: a player his password proves, or one his domain
	// vouches for; a bare From line names nobody, so that it can pass no
	// refusal of the player it names.
	by := proved
	if by == "" && c.r.authenticated() {
		by = c.senderID("")
	}
	var seats []string
	var players []*store.User
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
			return c.fail("%s refuses all %s challenges at present; challenge another player, or open a seat with \"%s challenge USERID ?\"",
				u.ID, c.game.Title(), c.game.Name())
		}
		players = append(players, u)
		seats = append(seats, u.ID)
	}
	// An invitation seats a robot it names only once it is accepted,
	// and its share is checked then. Its budget is counted before the
	// players' limits are read, so that a stranger's invitations cost
	// their reads once each, not again and again.
	invited, err := c.inviteOnly(seats, proved)
	if err != nil {
		return err
	}
	if len(invited) > 0 {
		if err := c.allowInvitations(invited); err != nil {
			return err
		}
	} else if err := c.robotShare(seats); err != nil {
		return err
	}
	for _, u := range players {
		instead := "challenge another player"
		if u.ID == by {
			// The challenger's own limit: only he can lift it.
			instead = fmt.Sprintf("raise the limit with \"%s limit %s PASSWORD NUMBER\"", c.game.Name(), u.ID)
		}
		if err := c.underLimit(u, instead); err != nil {
			return err
		}
	}
	opts, err := rules.ParseOptions(c.game, params)
	if err != nil {
		return c.fail("%s", err.Error())
	}
	extra, err := c.timeOptions(server)
	if err != nil {
		return err
	}
	if k := boardClock(&store.Game{Extra: extra}); k.Cap > time.Duration(robotForfeitDays)*day && hasRobotID(seats) {
		return c.fail("A game with a robot holds at most %d days in a Fischer bank, so that no one holds a robot's seats for long; write a cap of %dd or less",
			robotForfeitDays, robotForfeitDays)
	}
	if model.ParseDays(extra).Forfeit > robotForfeitDays && hasRobotID(seats) {
		return c.fail("A game with a robot forfeits after %d days at most, so that no one holds a robot's seats for long; write --forfeittime=%d or less",
			robotForfeitDays, robotForfeitDays)
	}
	b, err := c.r.makeBoard(c.game, opts, seats, extra)
	if f := (*failure)(nil); errors.As(err, &f) {
		f.game = c.game // the error reply names the game
	}
	if err != nil {
		return err
	}
	rec := b.rec
	for i, s := range seats {
		if s == "" {
			if rec.Extra == nil {
				rec.Extra = map[string]string{}
			}
			rec.Extra[openSeatKey] = strconv.Itoa(i)
		}
	}
	if len(invited) > 0 {
		if rec.Extra == nil {
			rec.Extra = map[string]string{}
		}
		rec.Extra[model.PendingKey] = strings.Join(invited, " ")
		holdRobotSeat(rec)
	} else if err := c.r.subscribeWatchers(rec); err != nil {
		// An invitation is announced to the watchers of every new board
		// once it is accepted, not before.
		return err
	}
	num := rec.Board
	sides := c.game.Sides()
	notices := []string{c.r.say("A new game: %s (%s) against %s (%s).", model.Name(seats[0]), sides[0], model.Name(seats[1]), sides[1])}
	if len(invited) > 0 {
		notices = append(notices, c.inviteNotice(b))
		c.r.outcome.note(resultInvited, "nothing vouches for the sender: the players named are invited")
	}
	if !b.open() {
		rec.TurnSince = c.r.now
	}
	// The comment is the challenger's, and only a player's: a stranger's
	// challenge relays no text to the players it names, nor does one that
	// proves nothing, which may put words in a player's mouth.
	var comment *store.Comment
	if by != "" && b.seatOf(by) >= 0 && len(invited) == 0 {
		comment = c.commentBy(by, 0)
	}
	if err := c.r.saveAndAnnounce(b, comment, notices...); err != nil {
		return err
	}
	// A challenger who is not a player hears that the board exists, too.
	if u, err := c.r.tx.UserByAddress(c.r.sender()); errNotFound(err) || err == nil && b.seatOf(u.ID) < 0 {
		c.r.replyText(c.r.sender(), fmt.Sprintf("New %s Board %d", c.game.Title(), num),
			fmt.Sprintf("%s board %d has been created for %s and %s.\n", c.game.Title(), num, model.Name(seats[0]), model.Name(seats[1])))
	} else if err != nil && !errNotFound(err) {
		return err
	}
	return nil
}

// makeBoard makes a new board of the game for the seats, with the game's
// options and the board's Extra, at its start position and with the next
// number of its game: a challenge's, a seek's, a tournament's.
func (r *request) makeBoard(g rules.Game, opts rules.Options, seats []string, extra map[string]string) (*board, error) {
	pos, err := g.Start(opts)
	if err != nil {
		return nil, fail("%s", err.Error())
	}
	num, err := r.tx.NextBoard(g.Name())
	if err != nil {
		return nil, err
	}
	rec := &store.Game{
		Kind:    g.Name(),
		Board:   num,
		Options: opts.Words(),
		Seats:   seats,
		Winner:  rules.Draw,
		Created: r.now,
		Updated: r.now,
		Thread:  r.s.thread(g, num, r.now),
		Extra:   extra,
	}
	b := &board{game: g, rec: rec, opts: opts, pos: pos, fresh: true}
	b.keepPosition()
	return b, nil
}

// timeOptions reads --nagtime=D, --forfeittime=D and -clock=CLOCK
// (clocks.go).
func (c *cmd) timeOptions(words []string) (map[string]string, error) {
	extra := map[string]string{}
	for _, w := range words {
		name, value, _ := strings.Cut(strings.ToLower(strings.TrimLeft(w, "-")), "=")
		if name == "clock" {
			k, err := clock.Parse(value)
			if err != nil {
				// The package's error is a clause; the reply, a sentence.
				msg := err.Error()
				return nil, c.fail("%s%s", strings.ToUpper(msg[:1]), msg[1:])
			}
			if k != (clock.Clock{}) {
				extra[clockKey] = k.String()
			}
			continue
		}
		if name != model.NagKey && name != model.ForfeitKey {
			return nil, c.fail("%q is not a server option; the server options are -clock=CLOCK, --nagtime=DAYS and --forfeittime=DAYS", w)
		}
		d, err := strconv.Atoi(value)
		if err != nil || d < 1 || d > 365 {
			return nil, c.fail("%q needs a number of days from 1 to 365, e.g. --%s=14", w, name)
		}
		extra[name] = strconv.Itoa(d)
	}
	if d := model.ParseDays(extra); d.Forfeit <= d.Nag {
		return nil, c.fail("The forfeit time (%d days) must be longer than the reminder time (%d days)", d.Forfeit, d.Nag)
	}
	if len(extra) == 0 {
		return nil, nil
	}
	return extra, nil
}

// <game> join board userid password: take the open seat of a board made by
// "<game> challenge alice ?". The game starts at once.
func (c *cmd) join(args []string) error {
	if len(args) != 3 {
		return c.usage(c.game.Name() + " join board userid password")
	}
	if asked, err := c.robotJoin(args); asked {
		return err
	}
	b, u, err := c.boardUser(args[0], args[1], args[2])
	if err != nil {
		return err
	}
	num := b.rec.Board
	if p := b.pending(); !b.rec.Over && len(p) > 0 {
		if !contains(p, u.ID) {
			return c.failOn(b, "%s board %d waits for %s to accept the challenge; it has no seat for %s", b.game.Title(), num, strings.Join(p, " and "), u.ID)
		}
		return c.acceptInvitation(b, u.ID)
	}
	if b.rec.Over {
		return c.failOn(b, "%s board %d is over, so its seat cannot be taken; send '%s games open' for the boards waiting for a player",
			b.game.Title(), num, c.game.Name())
	}
	if !b.open() {
		return c.failOn(b, "%s board %d has no open seat, its players are %s; send '%s games open' for the boards waiting for a player",
			b.game.Title(), num, strings.Join(b.rec.Seats, " and "), c.game.Name())
	}
	if b.seatOf(u.ID) >= 0 {
		return c.failOn(b, "%s already holds a seat on %s board %d; the open seat is for another player", u.ID, b.game.Title(), num)
	}
	if err := c.underLimit(u, "challenge another player"); err != nil {
		return err
	}
	for i, s := range b.rec.Seats {
		if s == "" {
			b.rec.Seats[i] = u.ID
			break
		}
	}
	b.rec.Subscribers = remove(b.rec.Subscribers, u.ID) // a player gets every mail anyway
	b.rec.TurnSince = c.r.now
	b.rec.Updated = c.r.now
	b.fresh = true
	sides := b.game.Sides()
	notice := c.r.say("%s joined: %s (%s) against %s (%s). The game begins.",
		u.ID, b.rec.Seats[0], sides[0], b.rec.Seats[1], sides[1])
	return c.r.saveAndAnnounce(b, c.commentBy(u.ID, len(b.rec.Moves)), notice)
}

// underLimit refuses a new game to a user who already plays as many active
// games of this kind as his limit allows; instead is what the refusal
// suggests doing.
func (c *cmd) underLimit(u *store.User, instead string) error {
	limit := u.Limits[c.game.Name()]
	if limit <= 0 {
		return nil
	}
	n, err := c.r.activeGames(u.ID, c.game.Name())
	if err != nil {
		return err
	}
	if n >= limit {
		// Invitations he has not accepted are no games of his yet: a
		// forger's must not fill his limit.
		pending, err := c.r.pendingFor(u.ID, c.game.Name())
		if err != nil {
			return err
		}
		n -= pending
	}
	if n >= limit {
		return c.fail("%s already plays %s, the limit %s set; wait until one ends, or %s",
			u.ID, activeGamesText(n, c.game.Title()), u.ID, instead)
	}
	return nil
}

// activeGames counts the boards of kind where id holds a seat and the game
// is not over, open seat boards included.
func (r *request) activeGames(id, kind string) (int, error) {
	return r.tx.ActiveCount(id, kind), nil
}

// maxLimit is the highest limit of active games a user may set.
const maxLimit = 999

// <game> accept userid password: challenges of this game are welcome again.
// <game> accept board userid password takes a seek's open seat, as join.
func (c *cmd) acceptChallenges(args []string) error {
	if len(args) == 3 {
		return c.join(args)
	}
	return c.refusal(args, false)
}

// <game> reject userid password: every challenge of this game is refused.
func (c *cmd) rejectChallenges(args []string) error { return c.refusal(args, true) }

func (c *cmd) refusal(args []string, refuse bool) error {
	verb := map[bool]string{false: "accept", true: "reject"}[refuse]
	if len(args) != 2 {
		// The other form answers a proposal on a board.
		return c.usage(fmt.Sprintf("%s %s userid password", c.game.Name(), verb),
			fmt.Sprintf("%s move board userid password %s", c.game.Name(), verb))
	}
	u, err := c.r.auth(args[0], args[1])
	if err != nil {
		return err
	}
	kind := c.game.Name()
	has := contains(u.Refuses, kind)
	switch {
	case refuse && has:
		return c.fail("%s refuses %s challenges already; send \"%s accept %s PASSWORD\" to accept them again", u.ID, c.game.Title(), kind, u.ID)
	case !refuse && !has:
		return c.fail("%s accepts %s challenges already; send \"%s reject %s PASSWORD\" to refuse them", u.ID, c.game.Title(), kind, u.ID)
	}
	var text string
	if refuse {
		u.Refuses = append(u.Refuses, kind)
		text = fmt.Sprintf("%s now refuses every %s challenge by others. Boards in play go on, and %s may still challenge others and join open seats.\nTo accept challenges again, send: %s accept %s PASSWORD\n",
			u.ID, c.game.Title(), u.ID, kind, u.ID)
	} else {
		u.Refuses = remove(u.Refuses, kind)
		text = fmt.Sprintf("%s accepts %s challenges again.\n", u.ID, c.game.Title())
	}
	if err := c.r.tx.PutUser(u); err != nil {
		return err
	}
	c.r.replyText(c.r.sender(), fmt.Sprintf("%s: challenges %sed by %s", c.game.Title(), verb, u.ID), text)
	return nil
}

// activeGamesText is "1 active Ultima game" or "3 active Ultima games".
func activeGamesText(n int, title string) string {
	if n == 1 {
		return fmt.Sprintf("1 active %s game", title)
	}
	return fmt.Sprintf("%d active %s games", n, title)
}
