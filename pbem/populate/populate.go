// Package populate fills a new store with a realistic mix of accounts and
// boards, for "pbemd populate" and the benchmarks that try the server at
// scale. The boards are played out by the service's own board model
// (pbem.Service.PlayOut and Settle, the methods of Boards); this package
// only chooses what to play. It imports no pbem package, so that the service's
// own tests can fill their stores with it.
package populate

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

const day = 24 * time.Hour

// Boards plays out new board records as their players' mails would have:
// *pbem.Service, whose PlayOut and Settle say how. PlayOut needs no
// store, so Fill plays boards on one goroutine while another writes them.
type Boards interface {
	PlayOut(rec *store.Game, moves []string, at []time.Time, end rules.Result, endAt time.Time) (rules.Position, error)
	Settle(tx *store.Tx, rec *store.Game) error
	// Verifier is the proof of u's password the service keeps in u's
	// record after a check, "" when it keeps none.
	Verifier(u *store.User, password string) string
	// SeekLife is how long an open seat waits for a taker before its
	// board lapses.
	SeekLife() time.Duration
}

// Options say what Fill makes.
type Options struct {
	Games    int    // boards to make
	Players  int    // accounts; 0 means one for every 10 games, at least 2
	Password string // every account's password; "" means "secret"
	// HashCost is the bcrypt cost of the one password hash; 0 means
	// bcrypt.DefaultCost.
	HashCost int
	// Now is the time the store is made at; nil means time.Now.
	Now  func() time.Time
	Seed uint64 // the same seed makes the same store
	// Batch is how many games one transaction makes: a big batch pays for
	// one disk sync per many games. 0 means 2,000, or fewer when the store
	// takes fewer writes at once (etcd: some 30 keys a game).
	Batch int
	// Progress, when set, is told after each committed batch how many
	// games are made so far.
	Progress func(games int)
	// PasswordHash, when set, is the accounts' bcrypt hash of Password,
	// made once by the caller: bcrypt salts each hash at random, so two
	// stores are the same to the byte only when they share it.
	PasswordHash string
}

// Stats count what Fill made.
type Stats struct {
	Players, Games, Running, Open, Finished, Moves int
}

// Fill fills an empty store with a realistic mix for trying the server
// at scale and for its benchmarks: accounts (some on vacation, some with
// limits or told of every game's end), boards of every game running,
// waiting for a player and finished (rated), with votes, queued moves,
// subscribers and comments, their clocks spread over the past weeks so
// that reminders fall due steadily. Boards are made by the code a mail
// runs (the board model, the rules, the ratings, the store's PutGame and
// PutUser with their indexes), but no mail is composed, so nothing is
// queued in the outbox. All accounts share one password hash: a bcrypt per
// account would cost hours. Each keeps the verifier of its password, as
// after its first checked mail (pbem.Service.Verifier).
func Fill(db *store.DB, boards Boards, o Options) (Stats, error) {
	var st Stats
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
		o.Batch = min(2000, db.MaxWrites()/gameWrites)
	}
	if o.HashCost == 0 {
		o.HashCost = bcrypt.DefaultCost
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	empty := true
	err := db.View(func(tx *store.Tx) error {
		_, err := tx.User(PlayerID(0))
		empty = errors.Is(err, store.ErrNotFound)
		return nil
	})
	if err != nil {
		return st, err
	}
	if !empty {
		return st, fmt.Errorf("populate: the store holds populated accounts already; populate a new data directory")
	}
	hash := []byte(o.PasswordHash)
	if len(hash) == 0 {
		if hash, err = bcrypt.GenerateFromPassword([]byte(o.Password), o.HashCost); err != nil {
			return st, err
		}
	}
	p := &populator{boards: boards, o: o, rng: rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15)),
		now: o.Now().UTC().Truncate(time.Second), hash: string(hash)}
	err = db.Unsynced(func() error {
		for done := 0; done < o.Players; {
			n := min(o.Batch*4, db.MaxWrites()/userWrites, o.Players-done)
			if err := db.Update(func(tx *store.Tx) error { return p.users(tx, done, n) }); err != nil {
				return err
			}
			done += n
		}
		st.Players = o.Players
		return p.games(db, &st)
	})
	return st, err
}

// games plays the boards out on a goroutine of its own, in the order of
// the random draws, and writes them in batches on this one as they come:
// the rules' work and the store's take a core each.
func (p *populator) games(db *store.DB, st *Stats) error {
	plans := make(chan *plan, 2*p.o.Batch)
	stop := make(chan struct{})
	defer close(stop)
	var genErr error // set before plans closes
	go func() {
		defer close(plans)
		for range p.o.Games {
			pl, err := p.game()
			if err != nil {
				genErr = err
				return
			}
			select {
			case plans <- pl:
			case <-stop:
				return
			}
		}
	}()
	batch := make([]*plan, 0, p.o.Batch)
	for done := 0; done < p.o.Games; done += len(batch) {
		batch = batch[:0]
		for pl := range plans {
			batch = append(batch, pl)
			if len(batch) == cap(batch) {
				break
			}
		}
		if len(batch) == 0 {
			return genErr
		}
		err := db.Update(func(tx *store.Tx) error {
			for _, pl := range batch {
				if err := p.write(tx, pl); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, pl := range batch {
			st.count(pl)
		}
		if p.o.Progress != nil {
			p.o.Progress(done + len(batch))
		}
	}
	return nil
}

// The most keys a populated game, and a new account, write: the record,
// its index entries, its players' seats and ratings, with room to spare.
const (
	gameWrites = 40
	userWrites = 8
)

// PlayerID is the id of the populated account number i, from 0; every
// account has the address PlayerID(i)@example.org.
func PlayerID(i int) string { return fmt.Sprintf("p%07d", i) }

type populator struct {
	boards Boards
	o      Options
	rng    *rand.Rand
	now    time.Time
	hash   string
	moves  []rules.Move // the Mover's moves, reused
}

// A plan is a board played out, to be written: all but its number, its
// thread and its rating, which the store's state at its turn decides.
type plan struct {
	rec  *store.Game
	open bool // waits for a player
}

// write numbers, settles and stores the board of pl in tx. It changes
// only what a retry of tx sets again, so that an engine may retry.
func (p *populator) write(tx *store.Tx, pl *plan) error {
	num, err := tx.NextBoard(pl.rec.Kind)
	if err != nil {
		return err
	}
	pl.rec.Board = num
	if err := p.boards.Settle(tx, pl.rec); err != nil {
		return err
	}
	return tx.PutGame(pl.rec)
}

func (st *Stats) count(pl *plan) {
	st.Games++
	st.Moves += len(pl.rec.Moves)
	switch {
	case pl.open:
		st.Open++
	case pl.rec.Over:
		st.Finished++
	default:
		st.Running++
	}
}

// users makes the accounts from number first on, n of them.
func (p *populator) users(tx *store.Tx, first, n int) error {
	for i := first; i < first+n; i++ {
		id := PlayerID(i)
		u := &store.User{ID: id, Name: id, PasswordHash: p.hash,
			Addresses: []string{id + "@example.org"}, Created: p.now.Add(-p.days(365))}
		// Each has played since the server began keeping verifiers.
		u.Verifier = p.boards.Verifier(u, p.o.Password)
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

func (p *populator) player() string { return PlayerID(p.rng.IntN(p.o.Players)) }

// game plays one board: 5% wait for a player, 35% run, 60% are over.
func (p *populator) game() (*plan, error) {
	g := p.kind()
	opts, err := rules.ParseOptions(g, nil)
	if err != nil {
		return nil, err
	}
	pos, err := g.Start(opts)
	if err != nil {
		return nil, err
	}
	a, b := p.player(), p.player()
	for b == a {
		b = p.player()
	}
	created := p.now.Add(-p.days(120))
	rec := &store.Game{Kind: g.Name(), Options: opts.Words(), Seats: []string{a, b},
		Winner: rules.Draw, Created: created, Updated: created}
	x := p.rng.IntN(100)
	if x < 5 {
		// An open seat was offered within its life: an older one would
		// have lapsed on a running server (a store that had them all
		// due made a first daemon lapse 50,000 seeks of a million
		// boards while it took its first mails). They lapse over the
		// coming two weeks.
		rec.Created = p.now.Add(-time.Duration(p.rng.Int64N(int64(p.boards.SeekLife()))))
		rec.Updated = rec.Created
		rec.Seats[1] = ""
		if _, err := p.boards.PlayOut(rec, nil, nil, rules.Result{}, rec.Created); err != nil {
			return nil, err
		}
		return &plan{rec: rec, open: true}, nil
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
	// The moves are chosen on a position of our own; PlayOut plays them
	// again on the service's board.
	moves := 4 + p.rng.IntN(40)
	step := last.Sub(created) / time.Duration(moves+1)
	at := created
	var plays []string
	var times []time.Time
	for i := 0; i < moves && !pos.Result().Over; i++ {
		m, ok, err := p.play(pos)
		if err != nil {
			return nil, fmt.Errorf("populate %s: %w", g.Name(), err)
		}
		if !ok {
			break
		}
		at = at.Add(step)
		plays = append(plays, m)
		times = append(times, at)
	}
	var end rules.Result
	if !pos.Result().Over && !running {
		seat := p.rng.IntN(2)
		if p.rng.IntN(10) == 0 {
			end = rules.Drawn("agreed")
		} else {
			end = rules.Win(1-seat, rec.Seats[seat]+" resigned")
		}
	}
	if pos, err = p.boards.PlayOut(rec, plays, times, end, last); err != nil {
		return nil, err
	}
	rec.TurnSince, rec.Updated = last, last
	if !rec.Over && running {
		p.extras(rec, pos, last)
	}
	return &plan{rec: rec}, nil
}

// play plays a random legal move on pos and returns its notation, or false
// when there is none. A rules.Mover lists its moves as numbers, sorted
// into Legal's order, so that the draw picks the move Legal's list would:
// the same seed makes the same store with or without it.
func (p *populator) play(pos rules.Position) (string, bool, error) {
	if mv, ok := pos.(rules.Mover); ok {
		p.moves = mv.Moves(p.moves[:0])
		if len(p.moves) == 0 {
			return "", false, nil
		}
		slices.Sort(p.moves)
		m := p.moves[p.rng.IntN(len(p.moves))]
		text := mv.MoveText(m)
		mv.Apply(m)
		return text, true, nil
	}
	legal := pos.Legal()
	if len(legal) == 0 {
		return "", false, nil
	}
	m := legal[p.rng.IntN(len(legal))]
	if _, err := pos.Play(m); err != nil {
		return "", false, err
	}
	return m, true, nil
}

// extras gives a running board what boards in play have: a reminder sent,
// votes, queued moves, subscribers, notifiers and comments.
func (p *populator) extras(rec *store.Game, pos rules.Position, last time.Time) {
	if waited := p.now.Sub(last); waited >= 7*day {
		rec.Nagged = last.Add(waited / (7 * day) * 7 * day)
	}
	switch x := p.rng.IntN(100); {
	case x < 3:
		seat := 1 - rec.ToMove
		// Made with the last move, and its reminders sent as the
		// board's were.
		rec.Vote = &store.Vote{Kind: "draw", Seat: seat, User: rec.Seats[seat], At: last, Nagged: rec.Nagged}
	case x < 8:
		// A move sent ahead by the player who waits: a guess at his reply
		// to a random move; when the guess is wrong, the queue drops it.
		next := pos.Clone()
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
			if id := p.player(); !slices.Contains(rec.Seats, id) && !slices.Contains(rec.Subscribers, id) {
				rec.Subscribers = append(rec.Subscribers, id)
			}
		}
	}
	if p.rng.IntN(100) < 2 {
		if id := p.player(); !slices.Contains(rec.Seats, id) {
			rec.Notify = append(rec.Notify, id)
		}
	}
	if p.rng.IntN(100) < 20 {
		rec.Comments = append(rec.Comments, store.Comment{User: rec.Seats[1-rec.ToMove],
			Text: "Your move. Good luck!", At: last, Move: len(rec.Moves)})
	}
}
