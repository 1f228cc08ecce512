package pbem

import (
	"fmt"
	"math"
	"strings"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

// Invitations. A challenge names players and carries no password, as on
// pbmserv: from authenticated mail of one of the players it names it
// starts the game at once, as it always did. From anyone else, and from
// mail that proves nothing of its sender (docs/trust.md), it only invites: the board is made with every named human's seat
// pending, each gets one mail, and the game begins when each has accepted
// with his password ("<game> join BOARD USERID PASSWORD"). A robot named
// takes its seat only then (robotSeatKey keeps it meanwhile), within the
// player's share of it: forged invitations hold no robot and no share.
// Unaccepted invitations lapse after inviteLife. A forger can thus send a
// bounded number of mails to each player, and start nothing.

// robotSeatKey is the Extra key of the robot an invitation names; its
// seat stays empty until the players accepted.
const robotSeatKey = "robotseat"

// inviteLife is how long an invitation waits to be accepted.
const inviteLife = 3 * day

// pending returns the players of the board who have not accepted yet.
func (b *board) pending() []string { return model.Invited(b.rec) }

// seekLife is how long a board waits for a player to take its open seat
// (a seek's, or a challenge's "?"), so that the list of open seats holds
// no seeker who has long gone.
const seekLife = 14 * day

// lapses is when the board lapses unplayed; zero when it cannot.
func (b *board) lapses() time.Time { return lapseAt(b.rec) }

// lapseAt is when a board in play lapses unplayed: an invitation
// inviteLife after it was made, an open seat seekLife after the board last
// changed (it opens again when its taker withdraws); zero for any other.
func lapseAt(rec *store.Game) time.Time {
	switch {
	case rec.Over:
		return time.Time{}
	case rec.Extra[model.PendingKey] != "":
		return rec.Created.Add(inviteLife)
	case contains(rec.Seats, ""):
		return rec.Updated.Add(seekLife)
	}
	return time.Time{}
}

// inviteOnly returns the human players whose seats a challenge leaves
// pending: none when an authenticated mail comes from one of the players
// it names (pbmserv's challenge: the other may decline), else every one it
// names. A stranger's challenge, even from a domain that signs its mail,
// starts no game for others. The player proved by his password (a seek's,
// a rematch's; "" for none) is never invited: he has asked.
func (c *cmd) inviteOnly(seats []string, proved string) ([]string, error) {
	if c.r.authenticated() {
		us, err := c.r.tx.UsersByAddress(c.r.sender())
		if err != nil && !errNotFound(err) {
			return nil, err
		}
		for _, u := range us {
			if contains(seats, u.ID) {
				return nil, nil
			}
		}
	}
	var humans []string
	for _, id := range seats {
		if _, _, robot := ParseRobotID(id); id != "" && !robot && id != proved {
			humans = append(humans, id)
		}
	}
	return humans, nil
}

// pendingFor counts the boards of kind where id is invited and has not
// accepted. It reads his running boards, which his limit bounds (it is
// asked only when he has reached it).
func (r *request) pendingFor(id, kind string) (int, error) {
	refs, _ := r.tx.UserBoards(id, kind, seatFilter("active"), false, store.Page{Size: math.MaxInt})
	n := 0
	for _, ref := range refs {
		g, err := r.tx.Game(ref.Kind, ref.Board)
		if r.tx.PassOver(err) {
			continue
		}
		if err != nil {
			return 0, err
		}
		if contains(model.Invited(g), id) {
			n++
		}
	}
	return n, nil
}

// allowInvitations counts the invitations of one challenge against the
// sender's budget and each invited player's, and refuses the challenge when
// one is spent.
func (c *cmd) allowInvitations(invited []string) error {
	lim := c.r.s.limits
	scope := c.r.senderScope()
	sent, err := c.r.counter(invitesKey(scope), lim.Window)
	if err != nil {
		return err
	}
	if sent.Count >= lim.Invitations {
		return c.fail("Mail from %s has sent %d invitations within %s, the most it may; send this again after %s, or from an address whose domain signs its mail (DKIM), whose challenges start games at once",
			c.r.sender(), sent.Count, shortDuration(lim.Window), sent.Start.Add(lim.Window).UTC().Format(timeFormat))
	}
	counts := make([]store.Counter, len(invited))
	for i, id := range invited {
		got, err := c.r.counter(invitedKey(id), inviteLife)
		if err != nil {
			return err
		}
		counts[i] = got
		if got.Count >= lim.Invitations {
			return c.fail("%s has been sent %d invitations within %d days by mail that proves nothing of its sender, the most he is sent; ask him to challenge you, or send this from an address whose domain signs its mail (DKIM)",
				id, got.Count, inviteLife/day)
		}
	}
	sent.Count++
	if err := c.r.tx.PutCounter(invitesKey(scope), sent); err != nil {
		return err
	}
	for i, id := range invited {
		got := counts[i]
		got.Count++
		if err := c.r.tx.PutCounter(invitedKey(id), got); err != nil {
			return err
		}
	}
	return nil
}

func invitesKey(scope string) string { return "invites:" + scope }
func invitedKey(id string) string    { return "invited:" + id }

// inviteNotice is the notice of a new board whose seats are pending.
func (c *cmd) inviteNotice(b *board) string {
	return c.r.say("A challenge invites %s to this game. It came from %s, and nothing proves who wrote it, so the game begins only when %s accepted.",
		strings.Join(b.pending(), " and "), c.r.sender(), bothOrHe(len(b.pending())))
}

// bothOrHe is who must accept, in words.
func bothOrHe(n int) string {
	if n > 1 {
		return "each has"
	}
	return "he has"
}

// pendingState is the state lines of a board waiting for its invited
// players.
func (b *board) pendingState(lang string) []string {
	return []string{
		templates.Sprintf(lang, "Waiting for %s to accept. To accept, send:", strings.Join(b.pending(), templates.T(lang, " and "))),
		fmt.Sprintf("  %s join %d USERID PASSWORD", b.game.Name(), b.rec.Board),
		templates.T(lang, "To refuse, send:"),
		fmt.Sprintf("  %s decline %d USERID PASSWORD", b.game.Name(), b.rec.Board),
	}
}

// holdRobotSeat empties the seat of a robot an invitation names, until the
// players accepted.
func holdRobotSeat(rec *store.Game) {
	rec.Seats = append([]string(nil), rec.Seats...)
	for i, id := range rec.Seats {
		if _, _, robot := ParseRobotID(id); robot {
			rec.Extra[robotSeatKey] = id
			rec.Seats[i] = ""
		}
	}
}

// acceptInvitation takes u's acceptance of the board he was invited to;
// the game begins with the last one, and a robot named takes its seat
// then, within the player's share of it.
func (c *cmd) acceptInvitation(b *board, id string) error {
	// His own limit: invitations waiting did not count against it, the
	// one he takes now does.
	u, err := c.r.tx.User(id)
	if err != nil {
		return err
	}
	if err := c.underLimit(u, "decline an invitation instead"); err != nil {
		return err
	}
	left := remove(b.pending(), id)
	if robot := b.rec.Extra[robotSeatKey]; robot != "" && len(left) == 0 {
		seats := append([]string(nil), b.rec.Seats...)
		for i, s := range seats {
			if s == "" {
				seats[i] = robot
			}
		}
		if err := c.robotShare(seats); err != nil {
			return err
		}
		u, err := c.r.tx.User(robot)
		if err != nil {
			return err
		}
		if err := c.underLimit(u, "try another robot"); err != nil {
			return err
		}
		b.rec.Seats = seats
		delete(b.rec.Extra, robotSeatKey)
	}
	b.rec.Updated = c.r.now
	if len(left) > 0 {
		b.rec.Extra[model.PendingKey] = strings.Join(left, " ")
		return c.r.saveAndAnnounce(b, nil, c.r.say("%s accepted the challenge.", id))
	}
	delete(b.rec.Extra, model.PendingKey)
	b.rec.TurnSince = c.r.now
	b.fresh = true
	if err := c.r.subscribeWatchers(b.rec); err != nil {
		return err
	}
	return c.r.saveAndAnnounce(b, nil, c.r.say("%s accepted the challenge. The game begins.", id))
}

// lapse ends a board whose invitation was not accepted in time, or whose
// open seat nobody took: withdrawn, unrated.
func (r *request) lapse(b *board) error {
	pending := b.pending()
	if len(pending) == 0 {
		seeker := model.Seeker(b.rec)
		b.end(r.now, rules.Drawn(fmt.Sprintf("no one took the open seat within %d days", seekLife/day)))
		b.rec.Withdrawn = seeker
		return r.saveAndAnnounce(b, nil, r.say("No one took the open seat within %d days: the board is withdrawn. \"%s seek %s PASSWORD\" asks again.",
			seekLife/day, b.game.Name(), seeker))
	}
	b.end(r.now, rules.Drawn(fmt.Sprintf("the invitation was not accepted within %d days", inviteLife/day)))
	b.rec.Withdrawn = pending[0]
	delete(b.rec.Extra, model.PendingKey)
	return r.saveAndAnnounce(b, nil, r.say("%s did not accept within %d days: the board is withdrawn.", strings.Join(pending, " and "), inviteLife/day))
}
