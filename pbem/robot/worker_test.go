package robot

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

// server is a service on a store in a test's directory, with a robot
// worker, driven by mails as a player's client sends them.
type server struct {
	t      *testing.T
	path   string
	db     *store.DB
	svc    *pbem.Service
	worker *Worker
	n      int
}

func newServer(t *testing.T, path string, cfg pbem.Config, budget Budget) *server {
	t.Helper()
	db := storetest.Open(t, path, &store.Options{NoSync: true})
	cfg.Address = "pbem@example.org"
	cfg.Log = slog.New(slog.DiscardHandler)
	cfg.Auth = pbemtest.Auth()
	svc := pbem.New(db, cfg)
	w := NewWorker(svc, WorkerOptions{Budget: budget, Log: cfg.Log})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, path: path, db: db, svc: svc, worker: w}
	return s
}

// send delivers a mail from id@example.org.
func (s *server) send(id, subject string) {
	s.t.Helper()
	s.sendBody(id, subject, "")
}

// sendBody delivers a mail with a body from id@example.org.
func (s *server) sendBody(id, subject, body string) {
	s.t.Helper()
	s.n++
	raw := pbemtest.Mail(id+"@example.org", subject, body, fmt.Sprintf("m%d.%d@client.example", s.n, time.Now().UnixNano()))
	if err := s.svc.Deliver(raw); err != nil {
		s.t.Fatal(err)
	}
}

// outbox takes every queued mail out of the outbox.
func (s *server) outbox() []pbemtest.Sent {
	s.t.Helper()
	return pbemtest.TakeOutbox(s.t, s.db, time.Now().Add(time.Hour))
}

// game reads a board's record.
func (s *server) game(kind string, board int) *store.Game {
	s.t.Helper()
	var rec *store.Game
	err := s.db.View(func(tx *store.Tx) error {
		var err error
		rec, err = tx.Game(kind, board)
		return err
	})
	if err != nil {
		s.t.Fatal(err)
	}
	return rec
}

// position replays a board's moves.
func (s *server) position(rec *store.Game) rules.Position {
	s.t.Helper()
	g, _ := catalog.Lookup(rec.Kind)
	opts, _ := rules.ParseOptions(g, rec.Options)
	pos, err := g.Start(opts)
	if err != nil {
		s.t.Fatal(err)
	}
	for _, m := range rec.Moves {
		if _, err := pos.Play(m.Text); err != nil {
			s.t.Fatal(err)
		}
	}
	return pos
}

// drain does every robot task there is, as the worker's Run would, and
// returns how many it did.
func (s *server) drain() int {
	s.t.Helper()
	s.worker.scan()
	done := 0
	for taken := 0; ; taken++ {
		t, ok := s.worker.next()
		if !ok {
			return done
		}
		if s.worker.play(context.Background(), t) {
			done++
		}
		if taken > 10000 {
			s.t.Fatal("robot tasks never end")
		}
	}
}

// signup makes an account for each id, as pbemtest.SignUp does.
func (s *server) signup(ids ...string) {
	s.t.Helper()
	pbemtest.SignUp(s.t, func(from, subject, body string) []pbemtest.Sent {
		s.sendBody(strings.TrimSuffix(from, "@example.org"), subject, body)
		return s.outbox()
	}, ids...)
}

// TestRobotGameByMail plays a whole Tobit game by mail between alice, who
// plays random legal moves, and tobit-robot2: each robot move reaches alice
// as a board mail, the robot is mailed nothing, the game is rated and the
// standings mark the robot.
func TestRobotGameByMail(t *testing.T) {
	t.Parallel()
	s := newServer(t, filepath.Join(t.TempDir(), "pbem.db"), pbem.Config{}, Budget{Nodes: 300})
	s.signup("alice")
	s.send("alice", "tobit challenge alice tobit-robot2")
	const board = 101
	rng := rand.New(rand.NewPCG(1, 2))
	robotMoves, boardMails := 0, 0
	for step := 0; ; step++ {
		if step > 400 {
			t.Fatal("the game did not end in 400 moves")
		}
		for _, m := range s.outbox() {
			if m.To != "alice@example.org" {
				t.Fatalf("mail %q went to %q; only alice has an address", m.Subject, m.To)
			}
			if strings.Contains(m.Subject, "Error") || strings.Contains(m.Subject, "error") {
				t.Fatalf("error reply: %s\n%s", m.Subject, m.Body)
			}
			if strings.Contains(m.Subject, "Tobit Board 101") {
				boardMails++
			}
		}
		rec := s.game("tobit", board)
		if rec.Over {
			break
		}
		pos := s.position(rec)
		if rec.Seats[pos.ToMove()] == "alice" {
			legal := pos.Legal()
			mv := legal[rng.IntN(len(legal))]
			s.send("alice", fmt.Sprintf("tobit move %d alice pw-alice %s", board, mv))
			continue
		}
		if n := s.drain(); n != 1 {
			t.Fatalf("robot did %d tasks on its turn, want 1", n)
		}
		robotMoves++
	}
	rec := s.game("tobit", board)
	t.Logf("%s after %d moves, %d by the robot: %s", rec.EndReason, len(rec.Moves), robotMoves, rec.Seats)
	if robotMoves == 0 || boardMails < robotMoves {
		t.Errorf("%d robot moves but %d board mails to alice", robotMoves, boardMails)
	}
	if !rec.Rated || len(rec.Ratings) != 2 {
		t.Errorf("the game was not rated: %+v", rec.Ratings)
	}
	s.send("alice", "tobit standings")
	out := s.outbox()
	if len(out) != 1 || !strings.Contains(out[0].Body, "tobit-robot2") {
		t.Fatalf("standings: %v", out)
	}
	for _, line := range strings.Split(out[0].Body, "\n") {
		if strings.Contains(line, "tobit-robot2") != strings.HasSuffix(line, "(robot)") {
			t.Errorf("standings line %q: the robot, and only it, is marked (robot)", line)
		}
	}
}

// TestRobotTurnSurvivesRestart: while the robot thinks, mail is answered
// and the sweep runs; the daemon stops while the robot thinks (its search
// is dropped, nothing is played); after a restart the worker finds the
// pending turn and plays it, and the player gets the board mail.
func TestRobotTurnSurvivesRestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "pbem.db")
	s := newServer(t, path, pbem.Config{}, Budget{Time: time.Minute})
	s.signup("alice")
	s.send("alice", "ultima challenge ultima-robot3 alice") // the robot moves first
	s.outbox()
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { s.worker.Run(ctx); close(stopped) }()
	time.Sleep(200 * time.Millisecond) // the robot is thinking, with a minute to go
	// Mail and the sweep go on meanwhile: they do not wait for the robot.
	s.send("alice", "ultima show 101")
	if err := s.svc.Sweep(time.Now()); err != nil {
		t.Fatal(err)
	}
	if out := s.outbox(); len(out) != 1 || !strings.Contains(out[0].Subject, "Ultima Board 101") {
		t.Fatalf("while the robot thinks, show gave %+v", out)
	}
	if n := len(s.game("ultima", 101).Moves); n != 0 {
		t.Fatalf("the robot played %d moves; it should still be thinking", n)
	}
	cancel()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("the worker did not stop while thinking")
	}
	if n := len(s.game("ultima", 101).Moves); n != 0 {
		t.Fatalf("a stopped search played %d moves", n)
	}
	s.db.Close()

	s = newServer(t, path, pbem.Config{}, Budget{Nodes: 500})
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	go s.worker.Run(ctx)
	deadline := time.Now().Add(20 * time.Second)
	for len(s.game("ultima", 101).Moves) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the robot's turn was not played after the restart")
		}
		time.Sleep(20 * time.Millisecond)
	}
	rec := s.game("ultima", 101)
	if len(rec.Moves) != 1 || rec.Moves[0].Seat != 0 {
		t.Fatalf("moves after restart: %+v", rec.Moves)
	}
	out := s.outbox()
	if len(out) != 1 || out[0].To != "alice@example.org" || !strings.Contains(out[0].Body, "ultima-robot3 played "+rec.Moves[0].Text) {
		t.Fatalf("after the robot's move: %+v", out)
	}
}

// TestRobotAnswersWhileRunning: a running worker answers a player's move
// at once, without the mail waiting for it.
func TestRobotAnswersWhileRunning(t *testing.T) {
	t.Parallel()
	s := newServer(t, filepath.Join(t.TempDir(), "pbem.db"), pbem.Config{}, Budget{Nodes: 200})
	s.signup("bob")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.worker.Run(ctx)
	s.send("bob", "tanbo challenge bob tanbo-robot1 -size=9")
	s.send("bob", "tanbo move 101 bob pw-bob b3")
	deadline := time.Now().Add(10 * time.Second)
	for len(s.game("tanbo", 101).Moves) < 2 {
		if time.Now().After(deadline) {
			t.Fatal("the robot did not answer bob's move")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestRobotVotes: level 1 accepts an undo; level 3 rejects one asked on
// the player's own turn; a robot that is not ahead accepts a draw.
func TestRobotVotes(t *testing.T) {
	t.Parallel()
	s := newServer(t, filepath.Join(t.TempDir(), "pbem.db"), pbem.Config{}, Budget{Nodes: 200})
	s.signup("carol")
	s.send("carol", "tobit challenge carol tobit-robot1")
	s.send("carol", "tobit challenge carol tobit-robot3")
	for _, b := range []int{101, 102} {
		s.send("carol", fmt.Sprintf("tobit move %d carol pw-carol 9-16", b))
	}
	s.drain()
	for _, b := range []int{101, 102} {
		s.send("carol", fmt.Sprintf("tobit move %d carol pw-carol undo", b))
	}
	s.outbox()
	s.drain()
	if rec := s.game("tobit", 101); len(rec.Moves) != 0 || rec.Vote != nil {
		t.Errorf("tobit-robot1 did not accept the undo: moves %v, vote %+v", rec.Moves, rec.Vote)
	}
	if rec := s.game("tobit", 102); len(rec.Moves) != 2 || rec.Vote != nil {
		t.Errorf("tobit-robot3 did not reject the undo: moves %v, vote %+v", rec.Moves, rec.Vote)
	}
	// Equal pieces: level 1 does not think itself ahead and accepts a draw.
	s.send("carol", "tobit challenge carol tobit-robot1")
	s.send("carol", "tobit move 103 carol pw-carol propose")
	s.drain()
	if rec := s.game("tobit", 103); !rec.Over || rec.Winner != rules.Draw {
		t.Errorf("tobit-robot1 did not accept the draw: over %v, winner %d", rec.Over, rec.Winner)
	}
	out := s.outbox()
	var said []string
	for _, m := range out {
		said = append(said, m.Body)
	}
	all := strings.Join(said, "\n")
	for _, want := range []string{"tobit-robot1 accepted carol's undo", "tobit-robot3 rejected carol's proposal of an undo",
		"tobit-robot1 accepted carol's draw proposal"} {
		if !strings.Contains(all, want) {
			t.Errorf("no mail says %q", want)
		}
	}
}

// TestRobotJoin: a robot takes an open seat only when the operator allows
// it and the waiting player asks with his own password.
func TestRobotJoin(t *testing.T) {
	t.Parallel()
	for _, allowed := range []bool{false, true} {
		s := newServer(t, filepath.Join(t.TempDir(), "pbem.db"), pbem.Config{RobotJoin: allowed}, Budget{Nodes: 200})
		s.signup("dave", "erin")
		s.send("dave", "taratibu challenge dave ?")
		s.outbox()
		s.send("erin", "taratibu join 101 taratibu-robot2 pw-erin")
		s.send("dave", "taratibu join 101 tanbo-robot2 pw-dave")
		s.send("dave", "taratibu join 101 taratibu-robot2 wrong")
		if seats := s.game("taratibu", 101).Seats; seats[1] != "" {
			t.Fatalf("allowed %v: the seat was taken: %v", allowed, seats)
		}
		s.outbox()
		s.send("dave", "taratibu join 101 taratibu-robot2 pw-dave")
		out := s.outbox()
		seats := s.game("taratibu", 101).Seats
		if allowed != (seats[1] == "taratibu-robot2") {
			t.Errorf("allowed %v: seats %v after dave asked", allowed, seats)
		}
		if !allowed && (len(out) != 1 || !strings.Contains(out[0].Body, "Robots do not take open seats")) {
			t.Errorf("refusal: %+v", out)
		}
		if allowed {
			s.drain() // dave moves first: the robot has nothing to do
			if n := len(s.game("taratibu", 101).Moves); n != 0 {
				t.Errorf("the robot moved out of turn: %d moves", n)
			}
		}
	}
}

// TestRobotAccounts: robots exist once however often the worker starts;
// no mail can act for them or make two of them play each other.
func TestRobotAccounts(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "pbem.db")
	s := newServer(t, path, pbem.Config{}, Budget{Nodes: 100})
	if err := s.worker.Start(); err != nil {
		t.Fatal(err)
	}
	s.signup("frank")
	s.send("frank", "signup ultima-robot1 secret")
	s.send("frank", "ultima challenge frank tanbo-robot1")
	s.send("frank", "ultima challenge ultima-robot1 ultima-robot2")
	s.send("frank", "ultima challenge frank ultima-robot1")
	s.send("frank", "ultima move 101 ultima-robot1 x Pa2-a3")
	s.send("frank", "ultima move 101 ultima-robot1  Pa2-a3")
	out := s.outbox()
	var subjects []string
	for _, m := range out {
		subjects = append(subjects, m.Subject)
	}
	rec := s.game("ultima", 101)
	if rec.Seats[1] != "ultima-robot1" || len(rec.Moves) != 0 {
		t.Errorf("board 101: seats %v, moves %v", rec.Seats, rec.Moves)
	}
	err := s.db.View(func(tx *store.Tx) error {
		if _, err := tx.Game("ultima", 102); err == nil {
			t.Error("a game between two robots was made")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	errors := 0
	for _, sub := range subjects {
		if strings.Contains(strings.ToLower(sub), "error") {
			errors++
		}
	}
	if errors != 5 {
		t.Errorf("want 5 error replies (signup, wrong game, two robots, two moves as the robot), got %v", subjects)
	}
}

// TestRobotQueueFair, issue 25: alice's two multiple mails queue 40
// robot moves; bob's one robot move, told while one of alice's is being
// played, is the next played, and every move is played once.
func TestRobotQueueFair(t *testing.T) {
	t.Parallel()
	s := newServer(t, filepath.Join(t.TempDir(), "pbem.db"), pbem.Config{Limits: pbem.Limits{RobotGames: 40}}, Budget{Nodes: 50})
	s.signup("alice", "bob")
	batch := strings.Repeat("ultima challenge ultima-robot1 alice\n", 20) // the robot moves first
	s.sendBody("alice", "multiple", batch)
	s.sendBody("alice", "multiple", batch)
	s.outbox()
	first, ok := s.worker.next() // being played when bob's move comes
	if !ok {
		t.Fatal("no robot move queued")
	}
	s.send("bob", "ultima challenge ultima-robot1 bob") // board 141
	var played []int
	if s.worker.play(context.Background(), first) {
		played = append(played, first.Board)
	}
	for {
		turn, ok := s.worker.next()
		if !ok {
			break
		}
		if s.worker.play(context.Background(), turn) {
			played = append(played, turn.Board)
		}
	}
	if len(played) != 41 {
		t.Fatalf("%d robot moves played; want 41: %v", len(played), played)
	}
	if played[0] == 141 || played[1] != 141 {
		t.Errorf("robot moves in the order %v; want one of alice's, then bob's 141", played[:5])
	}
	for b := 101; b <= 141; b++ {
		if n := len(s.game("ultima", b).Moves); n != 1 {
			t.Errorf("board %d has %d moves; want the robot's one", b, n)
		}
	}
}

// logLines returns the lines of logs that hold every one of words.
func logLines(logs string, words ...string) []string {
	var out []string
	for _, l := range strings.Split(logs, "\n") {
		all := l != ""
		for _, w := range words {
			all = all && strings.Contains(l, w)
		}
		if all {
			out = append(out, l)
		}
	}
	return out
}

// TestRobotSurvivesDamage, issue 25 item 10: a board whose record is
// damaged, and one whose search panics, are each logged once and skipped
// by the running worker; the process goes on, the other boards are
// played, and neither bad board is tried again until it changes or the
// next scan.
func TestRobotSurvivesDamage(t *testing.T) {
	t.Parallel()
	s := newServer(t, filepath.Join(t.TempDir(), "pbem.db"), pbem.Config{}, Budget{Nodes: 50})
	var logs strings.Builder // read once the worker has stopped
	s.worker.log = slog.New(slog.NewTextHandler(&logs, nil))
	s.signup("alice")
	for _, robot := range []string{"ultima-robot1", "ultima-robot2", "tobit-robot1", "tobit-robot2"} {
		game, _, _ := strings.Cut(robot, "-")
		s.send("alice", game+" challenge "+robot+" alice") // ultima 101, 102; tobit 101, 102
	}
	s.outbox()
	err := s.db.Update(func(tx *store.Tx) error {
		return tx.PutGameBytes("ultima", 101, []byte{0x01, 0x22, 0xff, 0xff, 0xff, 0xff, 0x0f})
	})
	if err != nil {
		t.Fatal(err)
	}
	s.worker.answer = func(r *Robot, task pbem.RobotTask) (string, error) {
		if task.Kind == "tobit" && task.Board == 101 {
			var none []string
			return none[5], nil // a bug in a search
		}
		return Answer(r, task)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { s.worker.Run(ctx); close(stopped) }()
	deadline := time.Now().Add(20 * time.Second)
	for len(s.game("ultima", 102).Moves) == 0 || len(s.game("tobit", 102).Moves) == 0 {
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-stopped
	if len(s.game("ultima", 102).Moves) == 0 || len(s.game("tobit", 102).Moves) == 0 {
		t.Fatalf("the good boards were not played; log:\n%s", logs.String())
	}
	if l := logLines(logs.String(), "level=ERROR", "game=ultima", "board=101"); len(l) != 1 || !strings.Contains(l[0], "malformed") {
		t.Errorf("the damaged board is logged %d times; want once, saying it is malformed: %q", len(l), l)
	}
	if l := logLines(logs.String(), "level=ERROR", "panic", "game=tobit", "board=101"); len(l) != 1 || !strings.Contains(l[0], "index out of range") {
		t.Errorf("the panicking search is logged %d times; want once, with the panic: %q", len(l), l)
	}
	if n := s.worker.queue.len(); n != 0 {
		t.Errorf("%d boards still wait; want none: a bad board waits for a change or the next scan", n)
	}
	if n := len(s.game("tobit", 101).Moves); n != 0 {
		t.Errorf("the board whose search panicked has %d moves; want none", n)
	}
}
