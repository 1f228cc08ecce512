// Package rules defines the one interface every game implements, and the small
// pieces the games share: options, results and errors.
//
// Games are pure: no I/O, no clock, no randomness. The server talks to a game
// only through Game and Position, so a fifth game touches nothing outside its
// own package and one line in package rules/catalog.
package rules

import (
	"errors"
	"fmt"
)

// A Game is one kind of game: its names, options and start position.
type Game interface {
	// Name is the game's name in commands, lower case: "ultima".
	Name() string
	// Title is the name as mails print it: "Ultima".
	Title() string
	// Aliases are other names accepted for the game: "baroque".
	Aliases() []string
	// Sides names the two seats in seat order: seat 0 moves first.
	// Ultima: {"White", "Black"}; Tanbo: {"Black", "White"}.
	Sides() [2]string
	// Options lists the -param words the game accepts at challenge time.
	Options() []Option
	// Start returns the start position of a new game. The options have been
	// checked by ParseOptions.
	Start(opts Options) (Position, error)
	// ParsePosition reads the game's one-line position format. Options that
	// change the rules (not the setup) apply to the position read.
	ParsePosition(text string, opts Options) (Position, error)
	// Help is the rules summary, notation, options and an example, as plain
	// 7-bit text for the "<game> help" mail.
	Help() string
}

// A Position is a game in progress. Its methods other than Play do not change it.
type Position interface {
	// String is the position in the game's position format.
	String() string
	// ToMove is the seat (0 or 1) whose turn it is. In a game of several
	// moves per turn (Taratibu) it changes only when the turn is complete.
	ToMove() int
	// Result tells whether the game is over and who won.
	Result() Result
	// Legal lists every legal move of the side to move in canonical notation:
	// for Taratibu single moves, for Tobit whole capture sequences.
	Legal() []string
	// Play parses text as one submission of the side to move (one move, or for
	// Taratibu one or more single moves) and applies it. It returns one Step
	// per move played. On error the position is unchanged and the error says
	// what was wrong and what would be right.
	Play(text string) ([]Step, error)
	// Perft counts the sequences of depth legal moves from the position, with
	// moves counted as Legal lists them: 1 for depth 0 (the empty sequence),
	// 0 for a negative depth.
	Perft(depth int) uint64
	// Board is the ASCII diagram mailed to players: 7-bit, lines under 78
	// columns, ending in a newline.
	Board() string
	// Clone returns an independent copy.
	Clone() Position
}

// A Step is one move as played: its canonical notation and the points or
// squares it captured, in the game's notation.
type Step struct {
	Move     string
	Captured []string
}

// String prints the step as mails show it: "Ld2-d8 (takes d3 d5 d7)".
func (s Step) String() string {
	if len(s.Captured) == 0 {
		return s.Move
	}
	out := s.Move + " (takes"
	for _, c := range s.Captured {
		out += " " + c
	}
	return out + ")"
}

// Result is the state of a game's end.
type Result struct {
	Over bool
	// Winner is the winning seat (0 or 1), or Draw. It means nothing while
	// the game is not over.
	Winner int
	// Reason says why the game ended, in a few words: "checkmate",
	// "no stones left", "threefold repetition".
	Reason string
}

// Draw is Result.Winner for a drawn game.
const Draw = -1

// Ongoing is the Result of a game that is not over.
var Ongoing = Result{Winner: Draw}

// Win is the Result of a game won by seat for the given reason.
func Win(seat int, reason string) Result { return Result{Over: true, Winner: seat, Reason: reason} }

// Drawn is the Result of a drawn game.
func Drawn(reason string) Result { return Result{Over: true, Winner: Draw, Reason: reason} }

// Other returns the seat that is not seat.
func Other(seat int) int { return 1 - seat }

// Error is a refusal of a move or position: what was wrong and what would be
// right, in one sentence without a final period.
type Error struct {
	Input string // the move or position text refused, as given
	Msg   string
	// Format and Args are what Errorf made Msg of, so that the server
	// can say it in a player's language: Format is the key of its
	// catalogs (docs/languages.md).
	Format string
	Args   []any
}

func (e *Error) Error() string {
	if e.Input == "" {
		return e.Msg
	}
	return fmt.Sprintf("%q: %s", e.Input, e.Msg)
}

// Unquoted is the message of err without the input it quotes, when that is
// input, which the caller names already ("move 3 \"x\" is illegal: ...").
func Unquoted(err error, input string) string {
	var e *Error
	if errors.As(err, &e) && e.Input == input {
		return e.Msg
	}
	return err.Error()
}

// Errorf returns an *Error for input with a formatted message.
func Errorf(input, format string, args ...any) error {
	return &Error{Input: input, Msg: fmt.Sprintf(format, args...), Format: format, Args: args}
}

// Status is the one-line state of pos in game g, as the rules tool prints it:
// "White to move." or "Black wins (checkmate)." or "Draw (turn 10 ended).".
func Status(g Game, pos Position) string {
	r := pos.Result()
	sides := g.Sides()
	switch {
	case !r.Over:
		return sides[pos.ToMove()] + " to move."
	case r.Winner == Draw:
		return "Draw (" + r.Reason + ")."
	default:
		return sides[r.Winner] + " wins (" + r.Reason + ")."
	}
}
