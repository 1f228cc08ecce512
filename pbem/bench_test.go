package pbem

import (
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/tanbo"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

// benchService is a service on a store that syncs every commit, as in
// production, unless opts says otherwise.
func benchService(b *testing.B, path string, opts ...*store.Options) (*Service, *store.DB) {
	var o *store.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	db := storetest.Open(b, path, o)
	s := New(db, Config{Address: "pbem@example.org", Log: slog.New(slog.DiscardHandler), Limits: Limits{Mails: 1 << 30}, Auth: pbemtest.Auth()})
	return s, db
}

// benchMail is a player's mail, vouched for by the trusted mail server.
func benchMail(n int, from, subject string) []byte {
	return pbemtest.Mail(from, subject, "My move.", fmt.Sprintf("b%d@client.example", n))
}

// firstMoves is a Tanbo game of n moves, each the first legal one.
func firstMoves(b *testing.B, n int) []string {
	pos, err := tanbo.Game.Start(rules.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var moves []string
	for len(moves) < n && !pos.Result().Over {
		m := pos.Legal()[0]
		pos.Play(m)
		moves = append(moves, m)
	}
	return moves
}

// BenchmarkMoveMail measures move mails handled end to end: parsing, the
// password check (cached after a player's first move, as in a running
// daemon), the rules, the bbolt commit with fsync, and the two board mails
// composed into the outbox. "one" commits each mail alone (a quiet server
// woken by IDLE); "batchN" commits N mails a transaction with DeliverAll,
// as the daemon drains a backlog (its IMAP watcher takes 100 mails a
// batch); "batch100-nosync" is batch100 without fsync, to tell the disk's
// share from the CPU's. cpu-µs/mail is the process's CPU time, all cores.
func BenchmarkMoveMail(b *testing.B) {
	b.Run("one", func(b *testing.B) { benchMoveMail(b, 1, nil) })
	b.Run("batch50", func(b *testing.B) { benchMoveMail(b, 50, nil) })
	b.Run("batch100", func(b *testing.B) { benchMoveMail(b, 100, nil) })
	b.Run("batch500", func(b *testing.B) { benchMoveMail(b, 500, nil) })
	b.Run("batch100-nosync", func(b *testing.B) { benchMoveMail(b, 100, &store.Options{NoSync: true}) })
}

func benchMoveMail(b *testing.B, batch int, opts *store.Options) {
	const perBoard = 40
	s, db := benchService(b, filepath.Join(b.TempDir(), "pbem.db"), opts)
	n := 0
	deliver := func(from, subject string) {
		n++
		if err := s.Deliver(benchMail(n, from, subject)); err != nil {
			b.Fatal(err)
		}
	}
	deliver("alice@example.org", "signup alice pw-alice")
	deliver("bob@example.org", "signup bob pw-bob")
	moves := firstMoves(b, perBoard)
	players := [2]string{"alice", "bob"}
	var mails [][]byte
	for board := 101; len(mails) < b.N+2; board++ {
		deliver("alice@example.org", "tanbo challenge alice bob")
		for i, m := range moves {
			id := players[i%2]
			n++
			mails = append(mails, benchMail(n, id+"@example.org", fmt.Sprintf("tanbo move %d %s pw-%s %s#%d", board, id, id, m, i+1)))
		}
	}
	// Each player's first move pays for bcrypt; a daemon pays it once a day.
	for _, m := range mails[:2] {
		if err := s.Deliver(m); err != nil {
			b.Fatal(err)
		}
	}
	mails = mails[2:]
	b.ResetTimer()
	start := time.Now()
	pages := db.PagesWritten()
	var ru0 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	for i := 0; i < b.N; i += batch {
		for _, err := range s.DeliverAll(mails[i:min(i+batch, b.N)]) {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "mails/s")
	b.ReportMetric(float64(db.PagesWritten()-pages)/float64(b.N), "pages/mail")
	// The CPU time of all threads, the garbage collector's included: what
	// a mail costs, whatever else the machine runs meanwhile.
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	used := ru.Utime.Nano() + ru.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano()
	b.ReportMetric(float64(used)/1e3/float64(b.N), "cpu-µs/mail")
	b.StopTimer()
	if l, err := db.OutboxLen(); err != nil || l < 2*b.N {
		b.Fatalf("outbox holds %d mails after %d moves: %v", l, b.N, err)
	}
}

// BenchmarkShow100k measures "show" of a random board in a store of 100,000
// games of 40 moves each: the mail read, the board loaded and replayed, the
// reply composed and committed with fsync.
// store100k builds a store of 100,000 Tanbo games of 40 moves each between
// alice and bob, and returns its path.
func store100k(b *testing.B) string {
	const games = 100000
	path := filepath.Join(b.TempDir(), "pbem.db")
	moves := firstMoves(b, 40)
	pos, _ := tanbo.Game.Start(rules.Options{})
	var recMoves []store.Move
	for i, m := range moves {
		pos.Play(m)
		recMoves = append(recMoves, store.Move{Seat: i % 2, Text: m})
	}
	// Build the store quickly (no fsync), then reopen it as production does.
	db, err := store.Open(path, &store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	for start := 0; start < games; start += 1000 {
		err := db.Update(func(tx *store.Tx) error {
			if start == 0 {
				for _, id := range []string{"alice", "bob"} {
					if err := tx.PutUser(&store.User{ID: id, Addresses: []string{id + "@example.org"}}); err != nil {
						return err
					}
				}
			}
			for i := start; i < start+1000; i++ {
				num, err := tx.NextBoard("tanbo")
				if err != nil {
					return err
				}
				g := &store.Game{Kind: "tanbo", Board: num, Seats: []string{"alice", "bob"}, Moves: recMoves,
					Position: pos.String(), ToMove: pos.ToMove(), Winner: rules.Draw, Thread: fmt.Sprintf("t%d@example.org", num)}
				if err := tx.PutGame(g); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	db.Close()
	return path
}

func BenchmarkShow100k(b *testing.B) {
	const games = 100000
	path := store100k(b)
	s, _ := benchService(b, path)
	rng := rand.New(rand.NewPCG(1, 2))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		board := 101 + rng.IntN(games)
		if err := s.Deliver(benchMail(i, "carol@example.org", fmt.Sprintf("tanbo show %d", board))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkList100k measures "list" in a store of 100,000 running games:
// every board is one row of the reply.
func BenchmarkList100k(b *testing.B) {
	s, _ := benchService(b, store100k(b))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := s.Deliver(benchMail(i, "carol@example.org", "list")); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSignup measures a signup mail at the production bcrypt cost in
// two steps: "ahead" is Preverify, which makes the password's hash before
// the write lock; "locked" is the handling that follows, which takes the
// lock and finds the hash made, so that its time is the most the signup
// holds every other mail.
func BenchmarkSignup(b *testing.B) {
	s, db := benchService(b, filepath.Join(b.TempDir(), "pbem.db"))
	var ahead, locked time.Duration
	for i := 0; b.Loop(); i++ {
		raw := benchMail(i, fmt.Sprintf("p%d@example.org", i), fmt.Sprintf("signup p%d pw-%d", i, i))
		t0 := time.Now()
		s.Preverify(db, raw)
		t1 := time.Now()
		if _, err := s.Handle(raw); err != nil {
			b.Fatal(err)
		}
		ahead, locked = ahead+t1.Sub(t0), locked+time.Since(t1)
	}
	b.ReportMetric(float64(ahead.Microseconds())/float64(b.N)/1000, "ms-ahead/op")
	b.ReportMetric(float64(locked.Microseconds())/float64(b.N)/1000, "ms-locked/op")
}
