package web

import (
	"encoding/json"
	"io"
	"strings"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/rules"
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

// todoDoc is a player's boards at his move, as /users/NAME.json gives
// them, the most urgent first.
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
	switch {
	case res.Over:
		d.Status, d.Reason = "over", res.Reason
		d.Result = "draw"
		if b.rec.Withdrawn != "" {
			d.Result = "withdrawn" // ended before a first move, unrated
		} else if res.Winner != rules.Draw {
			d.Result = strings.ToLower(sides[res.Winner])
		}
	case b.open():
		d.Status = "open"
		d.ToMove = strings.ToLower(sides[b.pos.ToMove()])
	default:
		d.ToMove = strings.ToLower(sides[b.pos.ToMove()])
	}
	return d
}

func seatAt(seats []string, i int) string {
	if i < len(seats) {
		return seats[i]
	}
	return ""
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}
