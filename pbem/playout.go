package pbem

import (
	"fmt"
	"time"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// PlayOut makes a new board record what its players' mails would have
// made it: from the start of its options, each of moves is made at its
// time in at by the seat to move, as a move mail makes it (the move list,
// the position, the clocks, the end when the rules say so). When the game
// is not over after them and end is, it ends so at endAt. A finished game is rated, the players'
// accounts written in tx. The record gets a mail thread when it has none.
// No mail is composed and the board is not stored: the caller puts rec.
// It returns the position reached. It is how pbem/populate, which knows
// the service by this method alone, makes stores to try it at scale.
func (s *Service) PlayOut(tx *store.Tx, rec *store.Game, moves []string, at []time.Time, end rules.Result, endAt time.Time) (rules.Position, error) {
	g, ok := catalog.Lookup(rec.Kind)
	if !ok || len(rec.Moves) > 0 || len(moves) != len(at) {
		return nil, fmt.Errorf("play out %s board %d: want a new board of a game of this server and a time for each of its %d moves", rec.Kind, rec.Board, len(moves))
	}
	opts, err := rules.ParseOptions(g, rec.Options)
	if err != nil {
		return nil, fmt.Errorf("play out %s board %d: options: %w", g.Name(), rec.Board, err)
	}
	b := &board{game: g, rec: rec, opts: opts}
	if b.pos, err = b.model().Replay(0); err != nil {
		return nil, err
	}
	if rec.Thread == "" {
		rec.Thread = s.thread(g, rec.Board, rec.Created)
	}
	b.keepPosition()
	for i, m := range moves {
		if rec.Over {
			return nil, fmt.Errorf("play out %s board %d: move %d %q after the end", g.Name(), rec.Board, i+1, m)
		}
		if _, err := b.play(b.pos.ToMove(), m, at[i], false); err != nil {
			return nil, fmt.Errorf("play out %s board %d: move %d: %w", g.Name(), rec.Board, i+1, err)
		}
	}
	if !rec.Over && end.Over {
		b.end(endAt, end)
	}
	if rec.Over {
		if err := (&request{s: s, tx: tx, now: endAt}).rate(b); err != nil {
			return nil, err
		}
	}
	return b.pos, nil
}

// thread is the Message-ID that a board's mails refer to, so that a
// player's mail program shows them as one thread.
func (s *Service) thread(g rules.Game, num int, created time.Time) string {
	return fmt.Sprintf("%s.%d.%d@%s", g.Name(), num, created.Unix(), s.cfg.Domain)
}
