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
// is not over after them and end is, it ends so at endAt. It reads and
// writes no store, so that pbem/populate plays boards on one goroutine
// while another writes: Settle then rates the board and gives it its
// thread, and the caller puts rec. No mail is composed. It returns the
// position reached. It is how pbem/populate, which knows the service by
// this method and Settle alone, makes stores to try it at scale.
func (s *Service) PlayOut(rec *store.Game, moves []string, at []time.Time, end rules.Result, endAt time.Time) (rules.Position, error) {
	b, err := s.playedOut(rec)
	if err != nil {
		return nil, fmt.Errorf("play out %s board %d: %w; want a new board of a game of this server", rec.Kind, rec.Board, err)
	}
	if len(rec.Moves) > 0 || len(moves) != len(at) {
		return nil, fmt.Errorf("play out %s board %d: want a new board of a game of this server and a time for each of its %d moves", rec.Kind, rec.Board, len(moves))
	}
	if b.pos, err = b.model().Replay(0); err != nil {
		return nil, err
	}
	for i, m := range moves {
		if rec.Over {
			return nil, fmt.Errorf("play out %s board %d: move %d %q after the end", b.game.Name(), rec.Board, i+1, m)
		}
		if _, err := b.play(b.pos.ToMove(), m, at[i], false); err != nil {
			return nil, fmt.Errorf("play out %s board %d: move %d: %w", b.game.Name(), rec.Board, i+1, err)
		}
	}
	b.keepPosition() // a board without moves keeps its start
	if !rec.Over && end.Over {
		b.end(endAt, end)
	}
	return b.pos, nil
}

// Settle does in tx what the end of a board played out does to the store:
// a finished board is rated, its players' accounts written in tx. It gives
// the record a mail thread when it has none, which needs its number.
func (s *Service) Settle(tx *store.Tx, rec *store.Game) error {
	b, err := s.playedOut(rec)
	if err != nil {
		return fmt.Errorf("settle %s board %d: %w; want a board of a game of this server", rec.Kind, rec.Board, err)
	}
	if rec.Thread == "" {
		rec.Thread = s.thread(b.game, rec.Board, rec.Created)
	}
	if !rec.Over {
		return nil
	}
	return (&request{s: s, tx: tx}).rate(b)
}

// playedOut is the board of rec without its position.
func (s *Service) playedOut(rec *store.Game) (*board, error) {
	g, ok := catalog.Lookup(rec.Kind)
	if !ok {
		return nil, fmt.Errorf("no game %q in this server", rec.Kind)
	}
	opts, err := rules.ParseOptions(g, rec.Options)
	if err != nil {
		return nil, err
	}
	return &board{game: g, rec: rec, opts: opts}, nil
}

// thread is the Message-ID that a board's mails refer to, so that a
// player's mail program shows them as one thread.
func (s *Service) thread(g rules.Game, num int, created time.Time) string {
	return fmt.Sprintf("%s.%d.%d@%s", g.Name(), num, created.Unix(), s.cfg.Domain)
}

// Verifier is the proof a running server keeps in u's record once password
// has been checked (store.User.Verifier), or "" when the service keeps
// none: with it, pbem/populate makes accounts as a server that has run a
// while holds them, whose first mail after a start costs no bcrypt.
func (s *Service) Verifier(u *store.User, password string) string {
	return s.passwords.verifier(u, password)
}

// SeekLife is how long an open seat waits for a taker before its board
// lapses: pbem/populate offers its open seats within it, as a live
// server's are, so that none is due at once.
func (s *Service) SeekLife() time.Duration { return seekLife }
