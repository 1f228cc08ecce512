package record

import (
	"fmt"
	"strings"

	"github.com/pbemd/pbemd/rules"
)

// Replay plays the moves of r with the rules of g, from the start position
// of its Position tag or else the game's start with the options of its
// Options tag, and sets each move's seat. It returns the final position
// and the game's result: the position's when the moves end the game (and
// the Result tag must agree), else the Result tag's, for a game that ended
// off the board (a resignation, a forfeit, an agreed draw), with the
// Termination tag as its reason.
//
// An illegal move is an error that names its number and the rules'
// reason.
func Replay(g rules.Game, r *Record) (rules.Position, rules.Result, error) {
	if name := r.Get("Game"); name != "" && !names(g, name) {
		return nil, rules.Result{}, fmt.Errorf("the record is of the game %q, not %s", name, g.Name())
	}
	opts, err := rules.ParseOptions(g, strings.Fields(r.Get("Options")))
	if err != nil {
		return nil, rules.Result{}, fmt.Errorf("the Options tag: %w", err)
	}
	var pos rules.Position
	if start := r.Get("Position"); start != "" {
		pos, err = g.ParsePosition(start, opts)
	} else {
		pos, err = g.Start(opts)
	}
	if err != nil {
		return nil, rules.Result{}, fmt.Errorf("start position: %w", err)
	}
	claimed, err := ParseResult(g, r.Result())
	if err != nil {
		return nil, rules.Result{}, fmt.Errorf("the Result tag: %w", err)
	}
	for i := range r.Moves {
		m := &r.Moves[i]
		m.Seat = pos.ToMove()
		if _, err := pos.Play(m.Text); err != nil {
			return nil, rules.Result{}, fmt.Errorf("move %d %q is illegal: %s", i+1, m.Text, rules.Unquoted(err, m.Text))
		}
	}
	res := pos.Result()
	switch {
	case res.Over && (!claimed.Over || claimed.Winner != res.Winner):
		return nil, rules.Result{}, fmt.Errorf("the moves end the game with the result %s (%s), but the Result tag says %s",
			ResultText(g, res), res.Reason, r.Result())
	case res.Over:
		return pos, res, nil
	}
	claimed.Reason = r.Get("Termination")
	return pos, claimed, nil
}

// names reports whether name is g's name or one of its aliases.
func names(g rules.Game, name string) bool {
	if strings.EqualFold(name, g.Name()) {
		return true
	}
	for _, a := range g.Aliases() {
		if strings.EqualFold(name, a) {
			return true
		}
	}
	return false
}
