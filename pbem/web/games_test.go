package web

import (
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// A played store is a store filled by the mail service itself: players sign
// up, challenge each other and mail their moves until every game ends, so
// every page shows what players would see.
type played struct {
	db    *store.DB
	now   time.Time
	games map[string]int // board number of the finished game by kind
	live  map[string]int // board number of a game in progress by kind
}

var testStart = pbemtest.Start

// challenges are the games played: each kind once to its end (options as a
// challenge writes them), and once a few moves into a game.
var challenges = map[string]string{
	"ultima":   "",
	"tanbo":    "-size=9",
	"taratibu": "",
	"tobit":    "",
}

func newPlayed(t testing.TB) *played {
	t.Helper()
	h := pbemtest.New(t)
	h.Step = 17 * time.Minute
	db := h.DB
	p := &played{db: db, games: map[string]int{}, live: map[string]int{}}
	h.Service = pbem.New(db, pbem.Config{Address: pbemtest.Address, Now: h.Clock,
		Log: slog.New(slog.DiscardHandler), Limits: pbem.Limits{Mails: 1 << 30}, Auth: pbemtest.Auth()})
	send := func(from, subject string) {
		t.Helper()
		h.Mail(from+"@example.org", subject, "")
	}
	h.SignUp("alice", "bob")
	seats := [2]string{"alice", "bob"}
	for _, g := range catalog.All() {
		kind := g.Name()
		for _, finish := range []bool{true, false} {
			send("alice", strings.TrimSpace(kind+" challenge alice bob "+challenges[kind]))
			var num int
			db.View(func(tx *store.Tx) error { num = tx.LastBoard(kind); return nil })
			if finish {
				p.games[kind] = num
			} else {
				p.live[kind] = num
			}
			limit := 400
			if !finish {
				limit = 5
			}
			for i := 0; i < limit; i++ {
				rec := p.game(t, kind, num)
				if rec.Over {
					break
				}
				_, pos, err := board.Replay(rec, len(rec.Moves))
				if err != nil {
					t.Fatal(err)
				}
				m := chooseMove(pos, i)
				send(seats[pos.ToMove()], fmt.Sprintf("%s move %d %s %s %s", kind, num, seats[pos.ToMove()], pbemtest.Password(seats[pos.ToMove()]), m))
			}
			if rec := p.game(t, kind, num); finish && !rec.Over {
				_, pos, _ := board.Replay(rec, len(rec.Moves))
				send(seats[pos.ToMove()], fmt.Sprintf("%s resign %d %s %s", kind, num, seats[pos.ToMove()], pbemtest.Password(seats[pos.ToMove()])))
			}
			if rec := p.game(t, kind, num); rec.Over != finish || len(rec.Moves) == 0 {
				t.Fatalf("%s board %d: over %v after %d moves; the mails did not play as planned", kind, num, rec.Over, len(rec.Moves))
			}
		}
	}
	p.now = h.Now
	return p
}

func (p *played) game(t testing.TB, kind string, board int) *store.Game {
	t.Helper()
	return gameOf(t, p.db, kind, board)
}

// chooseMove picks a move that wins if there is one, else a capture, else
// any, varying with i, so games end in a few hundred moves.
func chooseMove(pos rules.Position, i int) string {
	legal := pos.Legal()
	var captures []string
	for _, m := range legal {
		next := pos.Clone()
		steps, err := next.Play(m)
		if err != nil {
			continue
		}
		if r := next.Result(); r.Over && r.Winner == pos.ToMove() {
			return m
		}
		if len(steps) > 0 && len(steps[len(steps)-1].Captured) > 0 {
			captures = append(captures, m)
		}
	}
	if len(captures) > 0 {
		return captures[(i*7)%len(captures)]
	}
	return legal[(i*13+i/3)%len(legal)]
}

// shared is one played store for the tests that only read it.
var shared struct {
	once sync.Once
	p    *played
	dir  string
}

func sharedPlayed(t *testing.T) *played {
	t.Helper()
	shared.once.Do(func() {
		shared.p = newPlayed(&onceTB{TB: t})
	})
	if shared.p == nil {
		t.Fatal("the played store could not be built; see the first test that asked for it")
	}
	return shared.p
}

// onceTB is a testing.TB whose cleanups wait for the end of the test
// binary, so that one store serves every test.
type onceTB struct{ testing.TB }

func (o *onceTB) Cleanup(fn func()) { cleanups = append(cleanups, fn) }

func (o *onceTB) TempDir() string {
	dir, err := os.MkdirTemp("", "pbemd-web-")
	if err != nil {
		o.Fatal(err)
	}
	cleanups = append(cleanups, func() { os.RemoveAll(dir) })
	return dir
}

var cleanups []func()

func TestMain(m *testing.M) {
	code := m.Run()
	for i := len(cleanups) - 1; i >= 0; i-- {
		cleanups[i]()
	}
	os.Exit(code)
}
