package pbem

import (
	"fmt"
	"math/rand/v2"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// PopulateOptions say what Populate makes.
type PopulateOptions struct {
	Games    int    // boards to make
	Players  int    // accounts; 0 means one for every 10 games, at least 2
	Password string // every account's password; "" means "secret"
	Seed     uint64 // the same seed makes the same store
	// Batch is how many games one transaction makes: a big batch pays for
	// one disk sync per many games. 0 means 2,000.
	Batch int
	// Progress, when set, is told after each committed batch how many
	// games are made so far.
	Progress func(games int)
}

// PopulateStats count what Populate made.
type PopulateStats struct {
	Players, Games, Running, Open, Finished, Moves int
}

// Populate fills an empty store with a realistic mix for trying the server
// at scale and for its benchmarks: accounts (some on vacation, some with
// limits or told of every game's end), boards of every game running,
// waiting for a player and finished (rated), with votes, queued moves,
// subscribers and comments, their clocks spread over the past weeks so
// that reminders fall due steadily. Boards are made by the code a mail
// runs (the board model, the rules, the ratings, the store's PutGame and
// PutUser with their indexes), but no mail is composed, so nothing is
// queued in the outbox. All accounts share one password hash: a bcrypt per
// account would cost hours.
func (s *Service) Populate(o PopulateOptions) (PopulateStats, error) {
	var st PopulateStats
	if o.Games < 0 {
		return st, fmt.Errorf("populate: %d games; want 0 or more", o.Games)
	}
	if o.Players <= 0 {
		o.Players = max(2, o.Games/10)
	}
	if o.Players < 2 {
		return st, fmt.Errorf("populate: %d players; a game needs 2", o.Players)
	}
	if o.Password == "" {
		o.Password = "secret"
	}
	if o.Batch <= 0 {
		o.Batch = 2000
	}
	empty := true
	err := s.db.View(func(tx *store.Tx) error {
		_, err := tx.User(playerID(0))
		empty = errNotFound(err)
		return nil
	})
	if err != nil {
		return st, err
	}
	if !empty {
		return st, fmt.Errorf("populate: the store holds populated accounts already; populate a new data directory")
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(o.Password), s.hashCost)
	if err != nil {
		return st, err
	}
	p := &populator{s: s, o: o, rng: rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15)),
		now: s.cfg.Now().UTC().Truncate(time.Second), hash: string(hash), st: &st}
	for done := 0; done < o.Players; {
		n := min(o.Batch*4, o.Players-done)
		if err := s.db.Update(func(tx *store.Tx) error { return p.users(tx, done, n) }); err != nil {
			return st, err
		}
		done += n
	}
	st.Players = o.Players
	for done := 0; done < o.Games; {
		n := min(o.Batch, o.Games-done)
		saved := st
		err := s.db.Update(func(tx *store.Tx) error {
			st = saved // a failed transaction counts nothing
			r := &request{s: s, tx: tx, now: p.now}
			for range n {
				if err := p.game(r); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return st, err
		}
		done += n
		if o.Progress != nil {
			o.Progress(done)
		}
	}
	return st, nil
}

// playerID is the id of the populated account number i.
func playerID(i int) string { return fmt.Sprintf("p%07d", i) }

type populator struct {
	s    *Service
	o    PopulateOptions
	rng  *rand.Rand
	now  time.Time
	hash string
	st   *PopulateStats
}

// users makes the accounts from number first on, n of them.
func (p *populator) users(tx *store.Tx, first, n int) error {
	for i := first; i < first+n; i++ {
		id := playerID(i)
		u := &store.User{ID: id, Name: id, PasswordHash: p.hash,
			Addresses: []string{id + "@example.org"}, Created: p.now.Add(-p.days(365))}
		switch x := p.rng.IntN(1000); {
		case x < 30: // away: some now, some earlier this year
			from := p.now.Add(-p.days(20))
			u.Vacations = []store.Vacation{{From: from, Until: from.Add(time.Duration(3+p.rng.IntN(14)) * day)}}
		case x < 60:
			u.Limits = map[string]int{p.kind().Name(): 5 + p.rng.IntN(20)}
		case x < 62:
			u.NotifyKinds = []string{p.kind().Name()}
		case x < 70:
			u.Refuses = []string{p.kind().Name()}
		}
		if err := tx.PutUser(u); err != nil {
			return err
		}
	}
	return nil
}

func (p *populator) kind() rules.Game {
	all := catalog.All()
	return all[p.rng.IntN(len(all))]
}

// days is a random duration up to n days.
func (p *populator) days(n int) time.Duration {
	return time.Duration(p.rng.Int64N(int64(n) * int64(day)))
}

func (p *populator) player() string { return playerID(p.rng.IntN(p.o.Players)) }

// game makes one board: 5% wait for a player, 35% run, 60% are over.
func (p *populator) game(r *request) error {
	g := p.kind()
	opts, err := rules.ParseOptions(g, nil)
	if err != nil {
		return err
	}
	pos, err := g.Start(opts)
	if err != nil {
		return err
	}
	num, err := r.tx.NextBoard(g.Name())
	if err != nil {
		return err
	}
	a, b := p.player(), p.player()
	for b == a {
		b = p.player()
	}
	created := p.now.Add(-p.days(120))
	rec := &store.Game{Kind: g.Name(), Board: num, Options: opts.Words(), Seats: []string{a, b},
		Winner: rules.Draw, Created: created, Updated: created,
		Thread: fmt.Sprintf("%s.%d.%d@%s", g.Name(), num, created.Unix(), r.s.cfg.Domain)}
	bd := &board{game: g, rec: rec, opts: opts, pos: pos}
	bd.keepPosition()
	x := p.rng.IntN(100)
	if x < 5 {
		rec.Seats[1] = ""
		p.st.Open++
		p.st.Games++
		return r.tx.PutGame(rec)
	}
	running := x < 40
	// The last move: a running board's player to move has waited up to
	// 21 days, the forfeit time: a longer wait would have been forfeited
	// by a running server, so the reminders at 7 and 14 and the forfeits
	// fall due over the coming weeks, as on a live server; a finished
	// board ended any time since it began.
	last := p.now.Add(-p.days(21))
	if !running {
		last = created.Add(time.Duration(p.rng.Int64N(int64(p.now.Sub(created)) + 1)))
	}
	if last.Before(created) {
		last = created
	}
	moves := 4 + p.rng.IntN(40)
	step := last.Sub(created) / time.Duration(moves+1)
	at := created
	for i := 0; i < moves && !rec.Over; i++ {
		legal := bd.pos.Legal()
		if len(legal) == 0 {
			break
		}
		at = at.Add(step)
		if _, err := bd.play(bd.pos.ToMove(), legal[p.rng.IntN(len(legal))], at, false); err != nil {
			return fmt.Errorf("populate %s board %d: %w", g.Name(), num, err)
		}
	}
	rec.TurnSince, rec.Updated = last, last
	if !rec.Over && running {
		p.extras(bd, last)
	}
	if !rec.Over && !running {
		seat := p.rng.IntN(2)
		if p.rng.IntN(10) == 0 {
			bd.end(last, rules.Drawn("agreed"))
		} else {
			bd.end(last, rules.Win(1-seat, rec.Seats[seat]+" resigned"))
		}
	}
	p.st.Moves += len(rec.Moves)
	p.st.Games++
	if rec.Over {
		p.st.Finished++
		if err := r.rate(bd); err != nil {
			return err
		}
	} else {
		p.st.Running++
	}
	return r.tx.PutGame(rec)
}

// extras gives a running board what boards in play have: a reminder sent,
// votes, queued moves, subscribers, notifiers and comments.
func (p *populator) extras(bd *board, last time.Time) {
	rec := bd.rec
	if waited := p.now.Sub(last); waited >= 7*day {
		rec.Nagged = last.Add(waited / (7 * day) * 7 * day)
	}
	switch x := p.rng.IntN(100); {
	case x < 3:
		seat := 1 - rec.ToMove
		rec.Vote = &store.Vote{Kind: "draw", Seat: seat, User: rec.Seats[seat], At: last}
	case x < 8:
		// A move sent ahead by the player who waits: a guess at his reply
		// to a random move; when the guess is wrong, the queue drops it.
		next := bd.pos.Clone()
		if legal := next.Legal(); len(legal) > 0 {
			if _, err := next.Play(legal[p.rng.IntN(len(legal))]); err == nil {
				if replies := next.Legal(); len(replies) > 0 && !next.Result().Over {
					seat := 1 - rec.ToMove
					rec.Queue = []store.Queued{{Seat: seat, User: rec.Seats[seat],
						Text: replies[p.rng.IntN(len(replies))], At: last}}
				}
			}
		}
	}
	if p.rng.IntN(100) < 5 {
		for range 1 + p.rng.IntN(2) {
			if id := p.player(); !contains(rec.Seats, id) && !contains(rec.Subscribers, id) {
				rec.Subscribers = append(rec.Subscribers, id)
			}
		}
	}
	if p.rng.IntN(100) < 2 {
		if id := p.player(); !contains(rec.Seats, id) {
			rec.Notify = append(rec.Notify, id)
		}
	}
	if p.rng.IntN(100) < 20 {
		rec.Comments = append(rec.Comments, store.Comment{User: rec.Seats[1-rec.ToMove],
			Text: "Your move. Good luck!", At: last, Move: len(rec.Moves)})
	}
}
