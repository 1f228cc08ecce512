package rulestool

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/rules/record"
)

const replayUsage = `usage: pbemd rules replay FILE

Reads a game's record (docs/records.md; FILE - is standard input), plays
its moves one by one with the game's rules and prints the final board,
its position and the result. An illegal move is refused by its number
and the reason, with exit status 1.
`

// replay is "pbemd rules replay FILE".
func replay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Fprint(stdout, replayUsage)
		return 0
	}
	if len(args) != 1 {
		fmt.Fprintf(stderr, "pbemd rules replay: name one record FILE\n%s", replayUsage)
		return 2
	}
	text, err := readRecord(args[0], stdin)
	if err != nil {
		fmt.Fprintf(stderr, "pbemd rules replay: %v\n", err)
		return 1
	}
	g, pos, res, err := Replay(text)
	if err != nil {
		fmt.Fprintf(stderr, "pbemd rules replay: %s: %v\n", args[0], err)
		return 1
	}
	fmt.Fprint(stdout, pos.Board())
	fmt.Fprintf(stdout, "Position: %s\n", pos)
	fmt.Fprintf(stdout, "Result: %s\n", ResultLine(g, res))
	return 0
}

// Replay reads a record and replays it with the rules of the game its Game
// tag names: the game, the final position and the result.
func Replay(text string) (rules.Game, rules.Position, rules.Result, error) {
	r, err := record.Parse(text)
	if err != nil {
		return nil, nil, rules.Result{}, err
	}
	name := r.Get("Game")
	if name == "" {
		return nil, nil, rules.Result{}, errors.New(`the record has no Game tag naming its game, like [Game "ultima"]`)
	}
	g, ok := catalog.Lookup(name)
	if !ok {
		return nil, nil, rules.Result{}, fmt.Errorf("the Game tag names %q; the games are %v", name, catalog.Names())
	}
	pos, res, err := record.Replay(g, r)
	return g, pos, res, err
}

// ResultLine is a result as replay prints it: "1-0 White wins (checkmate)",
// "* (not over)".
func ResultLine(g rules.Game, res rules.Result) string {
	text := record.ResultText(g, res)
	switch {
	case !res.Over:
		return text + " (not over)"
	case res.Winner == rules.Draw:
		text += " draw"
	default:
		text += " " + g.Sides()[res.Winner] + " wins"
	}
	if res.Reason != "" {
		text += " (" + res.Reason + ")"
	}
	return text
}

// readRecord reads a record file, or standard input for "-", reading no
// more than a record may hold and one byte.
func readRecord(name string, stdin io.Reader) (string, error) {
	in := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return "", err
		}
		defer f.Close()
		in = f
	}
	data, err := io.ReadAll(io.LimitReader(in, record.MaxBytes+1))
	if err != nil {
		return "", err
	}
	if len(data) > record.MaxBytes {
		return "", fmt.Errorf("%s is larger than a record may be (%d bytes)", name, record.MaxBytes)
	}
	return string(data), nil
}
