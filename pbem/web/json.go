package web

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// boardDoc is a board as /GAME/BOARD.json gives it. to_move and result name
// sides in lower case, as "pbemd rules -json" does; position is in the
// game's position format, after move at_move of the moves listed.
type boardDoc struct {
	Game     string     `json:"game"`
	Board    int        `json:"board"`
	Options  []string   `json:"options"`
	Players  []playerJS `json:"players"`
	ToMove   string     `json:"to_move"`
	Status   string     `json:"status"` // "open", "playing" or "over"
	Result   string     `json:"result"` // a side, "draw" or "withdrawn"
	Reason   string     `json:"reason,omitempty"`
	AtMove   int        `json:"at_move"`
	Moves    []moveJS   `json:"moves"`
	Position string     `json:"position"`
	Clock    clockJS    `json:"clock"`
}

// clockJS is a board's clock: "days" (pbmserv's, the default) or a Fischer
// bank as -clock= writes it, with each player's bank in seconds at the
// start of his turn.
type clockJS struct {
	Spec  string   `json:"spec"`
	Banks []bankJS `json:"banks,omitempty"`
}

type bankJS struct {
	User    string `json:"user"`
	Seconds int64  `json:"seconds"`
}

func clockDoc(rec *store.Game) clockJS {
	c := pbem.ClockOf(rec)
	d := clockJS{Spec: c.Spec}
	for _, id := range rec.Seats {
		if bank, ok := c.Banks[id]; ok {
			d.Banks = append(d.Banks, bankJS{User: id, Seconds: int64(bank / time.Second)})
		}
	}
	return d
}

// todoDoc is a player's boards at his move, the most urgent first, as
// userDoc begins.
type todoDoc struct {
	User string   `json:"user"`
	Todo []todoJS `json:"todo"`
	More bool     `json:"more,omitempty"` // more boards are at his move than listed
}

type todoJS struct {
	Game     string    `json:"game"`
	Board    int       `json:"board"`
	Opponent string    `json:"opponent"`
	Move     int       `json:"move"` // the number his move gets
	LastMove string    `json:"last_move,omitempty"`
	Since    time.Time `json:"since"`
	Deadline time.Time `json:"deadline,omitzero"` // absent while his clock stands
}

func todoJSON(user string, items []pbem.TodoItem, more bool) todoDoc {
	d := todoDoc{User: user, Todo: []todoJS{}, More: more}
	for _, it := range items {
		d.Todo = append(d.Todo, todoJS{Game: it.Game, Board: it.Board, Opponent: it.Opponent, Move: it.Move,
			LastMove: it.LastMove, Since: it.Since.UTC(), Deadline: it.Deadline.UTC()})
	}
	return d
}

type playerJS struct {
	Side string `json:"side"`
	User string `json:"user"` // "" for an open seat
}

type moveJS struct {
	Number   int      `json:"number"` // as in "plays move #n"
	Side     string   `json:"side"`
	Move     string   `json:"move"`
	Captured []string `json:"captured,omitempty"`
	Auto     bool     `json:"auto,omitempty"`
}

func boardJSON(b *boardAt) boardDoc {
	sides := b.game.Sides()
	d := boardDoc{
		Game: b.game.Name(), Board: b.rec.Board, Options: b.rec.Options,
		AtMove: b.at, Position: b.pos.String(), Status: "playing",
		Players: []playerJS{}, Moves: []moveJS{}, Clock: clockDoc(b.rec),
	}
	if d.Options == nil {
		d.Options = []string{}
	}
	for i, side := range sides {
		d.Players = append(d.Players, playerJS{Side: strings.ToLower(side), User: seatAt(b.rec.Seats, i)})
	}
	for i, m := range b.rec.Moves {
		d.Moves = append(d.Moves, moveJS{Number: i + 1, Side: strings.ToLower(sides[m.Seat&1]), Move: m.Text, Captured: m.Captured, Auto: m.Auto})
	}
	res := b.result()
	d.Status, d.Result = stateWords(sides, res, b.rec.Withdrawn, b.open())
	if res.Over {
		d.Reason = res.Reason
	} else {
		d.ToMove = strings.ToLower(sides[b.pos.ToMove()])
	}
	return d
}

// stateWords are a board's status ("open", "playing" or "over") and
// result (a side in lower case, "draw" or "withdrawn"; "" until over) as
// the JSON names them, for the result res of the position shown, who
// withdrew the board (ended before a first move), and whether it waits
// for a player to take a seat or accept.
func stateWords(sides [2]string, res rules.Result, withdrawn string, open bool) (status, result string) {
	switch {
	case res.Over:
		result = "draw"
		if withdrawn != "" {
			result = "withdrawn" // ended before a first move, unrated
		} else if res.Winner != rules.Draw {
			result = strings.ToLower(sides[res.Winner])
		}
		return "over", result
	case open:
		return "open", ""
	}
	return "playing", ""
}

// summaryJS is a board in a list, read from its record alone (no replay).
type summaryJS struct {
	Game    string     `json:"game"`
	Board   int        `json:"board"`
	Options []string   `json:"options"`
	Players []playerJS `json:"players"`
	Invited []string   `json:"invited,omitempty"` // who must accept the challenge by mail
	Status  string     `json:"status"`
	ToMove  string     `json:"to_move,omitempty"` // the side to move, as boardDoc names it
	Result  string     `json:"result,omitempty"`
	Reason  string     `json:"reason,omitempty"`
	Moves   int        `json:"moves"`
	Created time.Time  `json:"created"`
	Updated time.Time  `json:"updated"`
	URL     string     `json:"url"` // its address in the API
}

func summaryJSON(g rules.Game, rec *store.GameHead) summaryJS {
	sides := g.Sides()
	res := rules.Ongoing
	if rec.Over {
		res = rules.Result{Over: true, Winner: rec.Winner, Reason: rec.EndReason}
	}
	d := summaryJS{Game: g.Name(), Board: rec.Board, Options: rec.Options, Players: []playerJS{}, Invited: board.InvitedIn(rec.Extra),
		Reason: res.Reason, Moves: rec.Moves, Created: rec.Created.UTC(), Updated: rec.Updated.UTC(),
		URL: fmt.Sprintf("%s/games/%s/boards/%d", apiPrefix, g.Name(), rec.Board)}
	if d.Options == nil {
		d.Options = []string{}
	}
	for i, side := range sides {
		d.Players = append(d.Players, playerJS{Side: strings.ToLower(side), User: seatAt(rec.Seats, i)})
	}
	d.Status, d.Result = stateWords(sides, res, rec.Withdrawn, !rec.Over && board.OpenIn(rec.Seats, rec.Extra))
	if d.Status != "over" && (rec.ToMove == 0 || rec.ToMove == 1) {
		d.ToMove = strings.ToLower(sides[rec.ToMove])
	}
	return d
}

// userDoc is a player as /api/v1/users/NAME and /users/NAME.json give
// him: what his page shows, never an address.
type userDoc struct {
	todoDoc
	Ratings []ratingJS  `json:"ratings"`
	Total   int         `json:"total"` // his boards
	Page    int         `json:"page"`  // of Boards, 50 a page, newest first
	Boards  []summaryJS `json:"boards"`
	Next    string      `json:"next,omitempty"` // the address of the next page
}

type ratingJS struct {
	Game        string `json:"game"`
	Rating      int    `json:"rating"`
	Provisional bool   `json:"provisional"`
	Games       int    `json:"games"`
	Won         int    `json:"won"`
	Lost        int    `json:"lost"`
	Drawn       int    `json:"drawn"`
}

func userJSON(v userView) userDoc {
	d := userDoc{todoDoc: todoJSON(v.User, v.Todo, v.TodoMore), Ratings: []ratingJS{}, Total: v.Total, Page: v.Page, Boards: []summaryJS{}}
	for _, r := range v.Ratings {
		d.Ratings = append(d.Ratings, ratingJS{Game: r.Game.Name(), Rating: r.Rating, Provisional: r.Provisional,
			Games: r.games, Won: r.Won, Lost: r.Lost, Drawn: r.Drawn})
	}
	for _, rec := range v.recs {
		if g, ok := catalog.Lookup(rec.Kind); ok {
			d.Boards = append(d.Boards, summaryJSON(g, rec))
		}
	}
	if v.Next > 0 {
		d.Next = fmt.Sprintf("%s/users/%s?page=%d", apiPrefix, url.PathEscape(v.User), v.Next)
	}
	return d
}

func seatAt(seats []string, i int) string {
	if i < len(seats) {
		return seats[i]
	}
	return ""
}

// jsonPage is v as a page of JSON.
func jsonPage(v any) (page, error) {
	buf := getBuffer()
	writeJSON(buf, v)
	return page{body: buf.Bytes(), ctype: "application/json", buf: buf}, nil
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // served as JSON, never inside a page
	enc.Encode(v)
}
