package pbem

import (
	"fmt"
	"slices"
	"strings"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/clock"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

// maxTodo bounds the boards one todo reads: a player with more boards at
// his move hears of the first maxTodo by board, sorted, and that there are
// more.
const maxTodo = 50

// A TodoItem is a board where it is a player's move, as "todo" lists it
// and the web view's player page shows it.
type TodoItem struct {
	Game     string    // the game's name, "tanbo"
	Title    string    // "Tanbo"
	Board    int       //
	Opponent string    // the other player
	Move     int       // the number his move will get
	LastMove string    // the opponent's last move, "" before any
	Since    time.Time // when it became his move
	// Deadline is when his clock runs out, his off-time and vacations
	// counted; zero when it does not run (his own proposal is open).
	Deadline time.Time
}

// Todo lists the boards of kind ("" for every game) where it is user id's
// move, the most urgent first: the nearest deadline, then the oldest turn.
// It reads at most maxTodo boards and reports whether there were more.
func Todo(tx *store.Tx, id, kind string) ([]TodoItem, bool, error) {
	u, err := tx.User(id)
	if err != nil {
		return nil, false, err
	}
	refs, more := tx.UserBoards(u.ID, kind, seatFilter("next"), false, store.Page{Size: maxTodo})
	var items []TodoItem
	for _, ref := range refs {
		g, ok := catalog.Lookup(ref.Kind)
		if !ok {
			continue // a game this server no longer offers
		}
		rec, err := tx.Game(ref.Kind, ref.Board)
		if err != nil {
			if tx.PassOver(err) {
				continue
			}
			return nil, false, err
		}
		seat := rec.ToMove
		if rec.Over || len(rec.Seats) != 2 || seat < 0 || seat > 1 || !strings.EqualFold(rec.Seats[seat], u.ID) {
			continue
		}
		it := TodoItem{Game: g.Name(), Title: g.Title(), Board: rec.Board, Opponent: rec.Seats[1-seat],
			Move: len(rec.Moves) + 1, Since: model.TurnSince(rec)}
		if n := len(rec.Moves); n > 0 && rec.Moves[n-1].Seat != seat {
			it.LastMove = rec.Moves[n-1].Text
		}
		if v := rec.Vote; v == nil || v.Seat != seat {
			it.Deadline = runsOut(rec, u, it.Since)
		}
		items = append(items, it)
	}
	slices.SortStableFunc(items, func(a, b TodoItem) int {
		if c := cmpDeadline(a.Deadline, b.Deadline); c != 0 {
			return c
		}
		return a.Since.Compare(b.Since)
	})
	return items, more, nil
}

// cmpDeadline orders deadlines, the nearest first and none last.
func cmpDeadline(a, b time.Time) int {
	switch {
	case a.IsZero() && b.IsZero():
		return 0
	case a.IsZero():
		return 1
	case b.IsZero():
		return -1
	}
	return a.Compare(b)
}

// runsOut is when the clock of u, to move on rec since a time, runs out:
// his forfeit time, or his Fischer bank, counted as the sweep counts it.
func runsOut(rec *store.Game, u *store.User, since time.Time) time.Time {
	c := boardClock(rec)
	left := time.Duration(model.DaysOf(rec).Forfeit) * day
	if c.Kind == clock.Fischer {
		left = bankOf(rec, c, u.ID)
	}
	return c.Off.Reach(since, left, userZone(u), absences(u))
}

// todo and GAME todo: the boards where it is the sender's move, the most
// urgent first, each with the command that answers it.
func (c *cmd) todo(args []string) error {
	if len(args) != 0 {
		return c.usage()
	}
	u, err := c.r.tx.UserByAddress(c.r.sender())
	if errNotFound(err) {
		return fail("No account has the address %s, so there are no boards to list; todo lists the boards of the account of the address it comes from", c.r.sender())
	}
	if err != nil {
		return err
	}
	kind, where := "", "any game"
	if c.game != nil {
		kind, where = c.game.Name(), c.game.Title()
	}
	items, more, err := Todo(c.r.tx, u.ID, kind)
	if err != nil {
		return err
	}
	lang := c.r.language()
	var b strings.Builder
	if len(items) == 0 {
		b.WriteString(templates.Sprintf(lang, "It is not %s's move on any board of %s.\n", u.ID, where))
	} else {
		b.WriteString(templates.Sprintf(lang, "The boards where it is %s's move, the most urgent first:\n\n", u.ID))
	}
	for _, it := range items {
		b.WriteString(it.entryIn(lang, c.r.now))
		fmt.Fprintf(&b, "  %s move %d %s PASSWORD MOVE#%d\n\n", it.Game, it.Board, u.ID, it.Move)
	}
	if more {
		b.WriteString(templates.Sprintf(lang, "These are %d of the boards at your move; there are more.\n", maxTodo))
	}
	c.r.replyText(c.r.sender(), "pbemd: todo of "+u.ID, b.String())
	return nil
}

// entry is the item as todo and the digest list it: the board, its
// opponent and his last move, then the time left on the player's clock.
func (it TodoItem) entry(now time.Time) string { return it.entryIn(templates.English, now) }

// entryIn is entry in the language lang.
func (it TodoItem) entryIn(lang string, now time.Time) string {
	last := templates.T(lang, "no move yet")
	if it.LastMove != "" {
		last = templates.Sprintf(lang, "%s played %s", it.Opponent, it.LastMove)
	}
	left := templates.T(lang, "Your clock stands while your proposal is open")
	if !it.Deadline.IsZero() {
		left = templates.Sprintf(lang, "%s left, until %s", clock.FormatDuration(it.Deadline.Sub(now)), it.Deadline.UTC().Format(timeFormat))
	}
	return templates.Sprintf(lang, "%s board %d against %s: %s.\n  %s.\n", it.Title, it.Board, it.Opponent, last, left)
}
