package pbem

import (
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/pbem/populate"
	"github.com/pbemd/pbemd/store"
)

// BenchmarkScale measures each command's reply on a store made by
// "pbemd populate": the time from the raw mail to its committed replies
// (fsync on), at the median and the 99th percentile, and the largest
// reply; "move-batch100" drains a backlog of move mails 100 a commit, as
// the IMAP watcher does. Set PBEMD_SCALE_DATA to the populated data directory (the store is
// changed: use a copy); PBEMD_SCALE_AT fixes the time of sweep-tick. Players' passwords are checked once before the
// timing, as a running daemon has them cached.
//
//	pbemd populate -data /tmp/pop -games 1000000
//	PBEMD_SCALE_DATA=/tmp/pop go test ./pbem -run '^$' -bench Scale -benchtime 400x
func BenchmarkScale(b *testing.B) {
	dir := os.Getenv("PBEMD_SCALE_DATA")
	if dir == "" {
		b.Skip("PBEMD_SCALE_DATA is not set")
	}
	db, err := store.Open(store.PathIn(dir), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	s := New(db, Config{Address: "pbem@example.org", Log: slog.New(slog.DiscardHandler), Limits: Limits{Mails: 1 << 30}, Auth: pbemtest.Auth()})
	rng := rand.New(rand.NewPCG(1, 2))
	var players, kinds int
	var running []store.GameRef
	db.View(func(tx *store.Tx) error {
		for _, k := range []string{"ultima", "tanbo", "taratibu", "tobit"} {
			if n := tx.LastBoard(k); n > 0 {
				kinds = max(kinds, n-101+1)
			}
			nums, _ := tx.KindBoards(k, store.RunningBoards, store.Page{Skip: rng.IntN(1000), Size: 50})
			running = append(running, refsOf(k, nums)...)
		}
		for players = 0; ; players += 1000 {
			if _, err := tx.User(populate.PlayerID(players)); err != nil {
				break
			}
		}
		return nil
	})
	if kinds == 0 {
		b.Fatal("the store is not populated")
	}
	player := func() string { return populate.PlayerID(rng.IntN(max(players, 1))) }
	board := func() int { return 101 + rng.IntN(kinds) }
	n := 0
	mail := func(from, subject string) []byte {
		n++
		return []byte(fmt.Sprintf("From: %s@example.org\r\nTo: pbem@example.org\r\nSubject: %s\r\nMessage-ID: <scale%d.%d@client.example>\r\n\r\n\r\n",
			from, subject, time.Now().UnixNano(), n))
	}
	// move is a legal move by the player to move on a running board.
	// move is a legal move mail on a random running board, or nil when
	// many tries in a row found none playable: boards end as the
	// benchmark plays them, and the sample can be used up.
	move := func() (store.GameRef, []byte) {
		for range 10000 {
			ref := running[rng.IntN(len(running))]
			var who, text string
			db.View(func(tx *store.Tx) error {
				r := &request{s: s, tx: tx, now: time.Now()}
				bd, err := r.loadBoard(ref.Kind, ref.Board)
				if err != nil || bd.rec.Over || bd.open() || bd.rec.Vote != nil {
					return nil
				}
				if legal := bd.pos.Legal(); len(legal) > 0 {
					who, text = bd.toMove(), legal[rng.IntN(len(legal))]
				}
				return nil
			})
			if who != "" {
				return ref, mail(who, fmt.Sprintf("%s move %d %s secret %s", ref.Kind, ref.Board, who, text))
			}
		}
		return store.GameRef{}, nil
	}
	cases := []struct {
		name string
		mail func() []byte
	}{
		{"show", func() []byte { return mail(player(), fmt.Sprintf("tanbo show %d", board())) }},
		{"move", func() []byte { _, m := move(); return m }},
		{"games", func() []byte { return mail(player(), "tanbo games") }},
		{"games-page-1000", func() []byte { return mail(player(), "tanbo games all page 1000") }},
		{"games-user", func() []byte { return mail(player(), "tanbo games "+player()+" all") }},
		{"history", func() []byte { return mail(player(), "tanbo history") }},
		{"history-user", func() []byte { return mail(player(), "tanbo history "+player()) }},
		{"standings", func() []byte { return mail(player(), "tanbo standings") }},
		{"standings-page-100", func() []byte { return mail(player(), "tanbo standings page 100") }},
		{"all-show", func() []byte { return mail(player(), "all show "+player()+" all") }},
		{"list", func() []byte { return mail(player(), "list") }},
	}
	// Warm the password cache of the players of the boards moved on.
	for _, ref := range running {
		db.View(func(tx *store.Tx) error {
			rec, err := tx.Game(ref.Kind, ref.Board)
			if err == nil {
				for _, id := range rec.Seats {
					if u, err := tx.User(id); err == nil {
						s.passwords.check(u, "secret")
					}
				}
			}
			return nil
		})
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var times []time.Duration
			largest := 0
			for b.Loop() {
				b.StopTimer()
				raw := c.mail()
				if raw == nil {
					b.Fatalf("%s: no playable board left among the %d sampled", c.name, len(running))
				}
				b.StartTimer()
				start := time.Now()
				ids, err := s.Handle(raw)
				times = append(times, time.Since(start))
				b.StopTimer()
				if err != nil {
					b.Fatal(err)
				}
				ms, err := db.Mails(ids...)
				if err != nil {
					b.Fatal(err)
				}
				for _, m := range ms {
					largest = max(largest, len(m.Data))
					if c.name != "move" && strings.Contains(string(m.Data), " Error\r\n") {
						b.Fatalf("%s: an error reply:\n%s", c.name, m.Data)
					}
				}
				db.Sent(ids...)
				b.StartTimer()
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(largest), "max-reply-B")
		})
	}
	b.Run("move-batch100", func(b *testing.B) {
		// A backlog of move mails as the IMAP watcher hands it over:
		// 100 a commit, each on a board of its own.
		var handled int
		b.ResetTimer()
		start := time.Now()
		pages := db.PagesWritten()
		for handled < b.N {
			b.StopTimer()
			var raws [][]byte
			boards := map[store.GameRef]bool{}
			// Boards end as the benchmark plays them: stop looking for
			// fresh ones after a bounded number of tries.
			for tries := 0; len(raws) < min(100, b.N-handled) && tries < 20*len(running); tries++ {
				ref, raw := move()
				if raw == nil {
					break
				}
				if !boards[ref] {
					boards[ref] = true
					raws = append(raws, raw)
				}
			}
			if len(raws) == 0 {
				b.Fatal("no running board left to move on")
			}
			b.StartTimer()
			for _, err := range s.DeliverAll(raws) {
				if err != nil {
					b.Fatal(err)
				}
			}
			handled += len(raws)
		}
		b.ReportMetric(float64(handled)/time.Since(start).Seconds(), "mails/s")
		b.ReportMetric(float64(db.PagesWritten()-pages)/float64(handled), "pages/mail")
	})
	b.Run("sweep-tick", func(b *testing.B) {
		// The first sweep catches up; each later one is 20 s on, as the
		// daemon runs it by default (sweep_interval).
		// PBEMD_SCALE_AT (RFC 3339) fixes the first tick, so that runs
		// on copies of one store sweep the same boards: catch the copy
		// up to that time first ("pbemd sweep -now").
		at := time.Now()
		if v := os.Getenv("PBEMD_SCALE_AT"); v != "" {
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				b.Fatalf("PBEMD_SCALE_AT=%q: want an RFC 3339 time", v)
			}
			at = t
		}
		// PBEMD_SCALE_TICK is the time between ticks (sweep_interval).
		tick := 20 * time.Second
		if v := os.Getenv("PBEMD_SCALE_TICK"); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				b.Fatalf("PBEMD_SCALE_TICK=%q: want a duration such as 20s", v)
			}
			tick = d
		}
		start := time.Now()
		s.SweepIDs(at)
		b.Logf("the first sweep, catching up: %v", time.Since(start))
		var times []time.Duration
		queued := 0 // outbox records: a mail in copies counts once
		// The mail path meanwhile: how long a mail waits for the lock
		// that the sweep takes for each of its transactions.
		var waits []time.Duration
		for b.Loop() {
			at = at.Add(tick)
			start := time.Now()
			done := make(chan struct{})
			waited := make(chan []time.Duration)
			go func() {
				var ws []time.Duration
				for {
					select {
					case <-done:
						waited <- ws
						return
					default:
					}
					t0 := time.Now()
					s.mu.Lock()
					ws = append(ws, time.Since(t0))
					s.mu.Unlock()
					time.Sleep(100 * time.Microsecond)
				}
			}()
			ids, err := s.SweepIDs(at)
			times = append(times, time.Since(start))
			queued += len(ids)
			close(done)
			waits = append(waits, <-waited...)
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			db.Sent(ids...)
			b.StartTimer()
		}
		slices.Sort(times)
		b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "max-ms")
		b.ReportMetric(float64(queued)/float64(len(times)), "mails/tick")
		slices.Sort(waits)
		b.ReportMetric(float64(waits[len(waits)*99/100].Microseconds())/1000, "mail-wait-p99-ms")
		b.ReportMetric(float64(waits[len(waits)-1].Microseconds())/1000, "mail-wait-max-ms")
	})
}
