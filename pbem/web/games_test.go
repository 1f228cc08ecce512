package web

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem"
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

var testStart = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

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
	db, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	p := &played{db: db, now: testStart, games: map[string]int{}, live: map[string]int{}}
	svc := pbem.New(db, pbem.Config{Address: "pbem@example.org", Now: func() time.Time { return p.now },
		Log: slog.New(slog.DiscardHandler), Limits: pbem.Limits{Mails: 1 << 30}, Auth: pbemtest.Auth()})
	n := 0
	send := func(from, subject string) {
		t.Helper()
		n++
		p.now = p.now.Add(17 * time.Minute)
		raw := pbemtest.Mail(from+"@example.org", subject, "", fmt.Sprintf("m%d@client.example", n))
		if err := svc.Deliver(raw); err != nil {
			t.Fatalf("%s: %v", subject, err)
		}
	}
	for _, u := range []string{"alice", "bob"} {
		send(u, "signup "+u+" secret")
	}
	seats := [2]string{"alice", "bob"}
	for _, g := range catalog.All() {
		kind := g.Name()
		for _, finish := range []bool{true, false} {
			send("alice", strings.TrimSpace(kind+" challenge alice bob "+challenges[kind]))
			var board int
			db.View(func(tx *store.Tx) error { board = tx.LastBoard(kind); return nil })
			if finish {
				p.games[kind] = board
			} else {
				p.live[kind] = board
			}
			limit := 400
			if !finish {
				limit = 5
			}
			for i := 0; i < limit; i++ {
				rec := p.game(t, kind, board)
				if rec.Over {
					break
				}
				_, pos, err := pbem.Replay(rec, len(rec.Moves))
				if err != nil {
					t.Fatal(err)
				}
				m := chooseMove(pos, i)
				send(seats[pos.ToMove()], fmt.Sprintf("%s move %d %s secret %s", kind, board, seats[pos.ToMove()], m))
			}
			if rec := p.game(t, kind, board); finish && !rec.Over {
				_, pos, _ := pbem.Replay(rec, len(rec.Moves))
				send(seats[pos.ToMove()], fmt.Sprintf("%s resign %d %s secret", kind, board, seats[pos.ToMove()]))
			}
			if rec := p.game(t, kind, board); rec.Over != finish || len(rec.Moves) == 0 {
				t.Fatalf("%s board %d: over %v after %d moves; the mails did not play as planned", kind, board, rec.Over, len(rec.Moves))
			}
		}
	}
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
