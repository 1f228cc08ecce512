// Package rulestool is "pbemd rules": explore any position of any game from
// the command line, without a mail server.
package rulestool

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
)

const usage = `usage: pbemd rules GAME [OPTION ...] [-position TEXT] [-board] [-legal] [-perft N] [-json] [--] [MOVE ...]
       pbemd rules replay FILE

Plays the moves from the start (or from -position) and prints what is asked:
  -position TEXT  start from this position (the game's position format)
  -board          the board diagram and the status line (the default)
  -legal          every legal move of the side to move, one a line
  -perft N        the number of move sequences of length N
  -json           the same facts as one JSON object
  --              ends the flags: everything after it is a move
OPTION is a game option as in a challenge, e.g. -size=9 or -singleleap.
"replay FILE" plays a game's record (docs/records.md) and prints where it ends.
`

// Report is what -json prints after the moves: position, to_move ("" when
// the game is over), result ("", "draw" or the winner's side), legal, and
// perft, board and status when asked.
type Report struct {
	Position string   `json:"position"`
	ToMove   string   `json:"to_move"`
	Result   string   `json:"result"`
	Legal    []string `json:"legal"`
	Perft    *uint64  `json:"perft,omitempty"`
	Board    string   `json:"board,omitempty"`
	Status   string   `json:"status,omitempty"`
}

// Refusal is what -json prints for a refused position or move: the reason,
// and for a move its 0-based index among the arguments and its text.
type Refusal struct {
	Error string `json:"error"`
	Index *int   `json:"index,omitempty"`
	Move  string `json:"move,omitempty"`
}

// request is a parsed command line.
type request struct {
	game     rules.Game
	options  []string
	position string
	board    bool
	legal    bool
	perft    int // -1 when not asked
	json     bool
	moves    []string
}

// Run runs the tool with the arguments after "rules" and returns the exit
// status: 0 on success, 1 for an illegal move or position, 2 for bad usage.
func Run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "replay" {
		return replay(args[1:], os.Stdin, stdout, stderr)
	}
	req, err := parseArgs(args)
	if errors.Is(err, errHelp) {
		fmt.Fprint(stdout, usage)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "pbemd rules: %v\n%s", err, usage)
		return 2
	}
	pos, err := setUp(req)
	if err != nil {
		fmt.Fprintf(stderr, "pbemd rules: %v\n", err)
		if req.json {
			writeJSON(stdout, Refusal{Error: err.Error()})
		}
		return 1
	}
	for i, m := range req.moves {
		if _, err := pos.Play(m); err != nil {
			fmt.Fprintf(stderr, "pbemd rules: move %d (index %d) %q refused: %v\n", i+1, i, m, rules.Unquoted(err, m))
			if req.json {
				writeJSON(stdout, Refusal{Error: rules.Unquoted(err, m), Index: &i, Move: m})
			}
			return 1
		}
	}
	report(stdout, req, pos)
	return 0
}

var errHelp = errors.New("help asked")

func parseArgs(args []string) (*request, error) {
	if len(args) == 0 {
		return nil, errors.New("no game named; games: " + strings.Join(catalog.Names(), ", "))
	}
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		return nil, errHelp
	}
	g, ok := catalog.Lookup(args[0])
	if !ok {
		return nil, fmt.Errorf("no game %q; games: %s", args[0], strings.Join(catalog.Names(), ", "))
	}
	req := &request{game: g, perft: -1}
	rest := args[1:]
	for len(rest) > 0 {
		a := rest[0]
		if a == "--" {
			rest = rest[1:]
			break
		}
		if !strings.HasPrefix(a, "-") {
			break
		}
		rest = rest[1:]
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		// takeValue reads a flag's value from "-flag=value" or the next argument.
		takeValue := func() (string, error) {
			if hasValue {
				return value, nil
			}
			if len(rest) == 0 {
				return "", fmt.Errorf("%s needs a value", a)
			}
			v := rest[0]
			rest = rest[1:]
			return v, nil
		}
		var err error
		switch name {
		case "h", "help":
			return nil, errHelp
		case "position":
			req.position, err = takeValue()
		case "board":
			req.board = true
		case "legal":
			req.legal = true
		case "json":
			req.json = true
		case "perft":
			var v string
			if v, err = takeValue(); err == nil {
				req.perft, err = strconv.Atoi(v)
				if err != nil || req.perft < 0 {
					err = fmt.Errorf("-perft needs a depth of 0 or more, not %q", v)
				}
			}
		default:
			req.options = append(req.options, a)
		}
		if err != nil {
			return nil, err
		}
	}
	req.moves = rest
	if !req.legal && req.perft < 0 && !req.json {
		req.board = true
	}
	return req, nil
}

func setUp(req *request) (rules.Position, error) {
	opts, err := rules.ParseOptions(req.game, req.options)
	if err != nil {
		return nil, err
	}
	if req.position != "" {
		return req.game.ParsePosition(req.position, opts)
	}
	return req.game.Start(opts)
}

func report(w io.Writer, req *request, pos rules.Position) {
	if req.json {
		out := Report{
			Position: pos.String(),
			ToMove:   toMove(req.game, pos),
			Result:   result(req.game, pos),
			Legal:    nonNil(pos.Legal()),
		}
		if req.board {
			out.Board = pos.Board()
			out.Status = rules.Status(req.game, pos)
		}
		if req.perft >= 0 {
			n := pos.Perft(req.perft)
			out.Perft = &n
		}
		writeJSON(w, out)
		return
	}
	if req.board {
		fmt.Fprint(w, pos.Board())
		fmt.Fprintln(w, rules.Status(req.game, pos))
	}
	if req.legal {
		for _, m := range pos.Legal() {
			fmt.Fprintln(w, m)
		}
	}
	if req.perft >= 0 {
		fmt.Fprintln(w, pos.Perft(req.perft))
	}
}

// toMove names the side to move in lower case, or "" when the game is over.
func toMove(g rules.Game, pos rules.Position) string {
	if pos.Result().Over {
		return ""
	}
	return strings.ToLower(g.Sides()[pos.ToMove()])
}

// result is "" for a game in progress, "draw", or the winner's side in lower case.
func result(g rules.Game, pos rules.Position) string {
	r := pos.Result()
	switch {
	case !r.Over:
		return ""
	case r.Winner == rules.Draw:
		return "draw"
	default:
		return strings.ToLower(g.Sides()[r.Winner])
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}
