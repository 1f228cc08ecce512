package web

import (
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/populate"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

// benchGames is how many boards the benchmarks' store holds.
const benchGames = 100_000

var big struct {
	once  sync.Once
	db    *store.DB
	kinds []string
	per   int // boards per kind
}

// bigStore is a store of benchGames boards, a quarter of each game, made
// through the store's API from the games newPlayed played by mail: each
// board is the first 40 moves (or all, when fewer) of one of them, so every
// board replays and draws as a real one does.
//
// With PBEMD_BENCH_STORE naming a data file (one "pbemd populate" made,
// say with a million games), that store is read instead, opened read-only.
func bigStore(b *testing.B) *store.DB {
	if path := os.Getenv("PBEMD_BENCH_STORE"); path != "" {
		big.once.Do(func() { openBenchStore(b, path) })
	}
	big.once.Do(func() {
		p := newPlayed(&onceTB{TB: b})
		db := storetest.New(&onceTB{TB: b})
		var models []*store.Game
		for kind, num := range p.games {
			big.kinds = append(big.kinds, kind)
			rec := p.game(b, kind, num)
			if len(rec.Moves) > 40 {
				rec.Moves = rec.Moves[:40]
				rec.Over = false
				_, pos, err := board.Replay(rec, len(rec.Moves))
				if err != nil {
					b.Fatal(err)
				}
				rec.Position, rec.ToMove = pos.String(), pos.ToMove()
			}
			models = append(models, rec)
		}
		big.per = benchGames / len(models)
		const perTx = 1000
		for start := 0; start < benchGames; start += perTx {
			err := db.Update(func(tx *store.Tx) error {
				for i := start; i < start+perTx; i++ {
					g := *models[i%len(models)]
					n, err := tx.NextBoard(g.Kind)
					if err != nil {
						return err
					}
					g.Board = n
					if err := tx.PutGame(&g); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		big.db = db
	})
	if big.db == nil {
		b.Fatal("the benchmark store could not be built")
	}
	return big.db
}

// openBenchStore opens a populated store read-only for the benchmarks:
// every kind, and the boards up to the smallest last board of a kind.
func openBenchStore(b *testing.B, path string) {
	db, err := store.Open(path, &store.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	cleanups = append(cleanups, func() { db.Close() })
	db.View(func(tx *store.Tx) error {
		for _, g := range catalog.All() {
			if last := tx.LastBoard(g.Name()); last > 100 {
				big.kinds = append(big.kinds, g.Name())
				if big.per == 0 || last-100 < big.per {
					big.per = last - 100
				}
			}
		}
		return nil
	})
	big.db = db
}

// BenchmarkBoardPage serves the page of a random board among benchGames:
// the store read, the replay, the SVG and the template, as one request.
func BenchmarkBoardPage(b *testing.B) {
	benchPages(b, "")
}

// BenchmarkBoardJSON is the same for the board's JSON.
func BenchmarkBoardJSON(b *testing.B) {
	benchPages(b, ".json")
}

// BenchmarkUserPage serves the page of a random player of a store
// "pbemd populate" made (PBEMD_BENCH_STORE; PBEMD_BENCH_PLAYERS its
// players, default one for every 10 games): his ratings, the boards at
// his move and the newest 50 of his boards.
func BenchmarkUserPage(b *testing.B) {
	if os.Getenv("PBEMD_BENCH_STORE") == "" {
		b.Skip("PBEMD_BENCH_STORE is not set: the built store has no players")
	}
	bigStore(b)
	players := big.per * len(big.kinds) / 10
	if v := os.Getenv("PBEMD_BENCH_PLAYERS"); v != "" {
		players, _ = strconv.Atoi(v)
	}
	benchTargets(b, func(rng *rand.Rand) string { return "/users/" + populate.PlayerID(rng.IntN(players)) })
}

func benchPages(b *testing.B, suffix string) {
	benchTargets(b, func(rng *rand.Rand) string {
		kind := big.kinds[rng.IntN(len(big.kinds))]
		return fmt.Sprintf("/%s/%d%s", kind, 101+rng.IntN(big.per), suffix)
	})
}

// benchTargets serves the pages target draws, one a request.
func benchTargets(b *testing.B, target func(*rand.Rand) string) {
	db := bigStore(b)
	s := New(db, Options{Rate: 1e9, Burst: 1e9})
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		target := target(rng)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
		if w.Code != 200 {
			b.Fatalf("GET %s: %d %s", target, w.Code, w.Body)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
	// The machine is shared: CPU time per request tells the cost where
	// the wall clock tells how busy the neighbours were.
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// cpuTime is the CPU time the process has used, user and system, on all
// threads (the garbage collector's included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
