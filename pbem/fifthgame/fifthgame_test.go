// Package fifthgame_test shows that a game is its package and one catalog
// line: a game the server has never heard of (Tanbo under other names,
// made in the test) is registered in the catalog and nothing else, then
// played by mail, shown on the web and played by a robot.
package fifthgame_test

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/pbem/robot"
	"github.com/pbemd/pbemd/pbem/web"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/rules/rulestest"
	"github.com/pbemd/pbemd/rules/rulestool"
	"github.com/pbemd/pbemd/rules/tanbo"
	"github.com/pbemd/pbemd/store"
)

// The two new games: one whose positions draw themselves, one whose
// positions do not (the web shows its text board).
func init() {
	catalog.Register(rulestest.Renamed(tanbo.Game, "tanbo2", "Tanbo2"))
	catalog.Register(rulestest.Undrawn(tanbo.Game, "plaintanbo", "Plaintanbo"))
}

// server is the service, its robot worker and its web view on one store,
// driven by the kit's harness; its clock moves a minute a mail.
type server struct {
	*pbemtest.Harness
	svc    *pbem.Service
	worker *robot.Worker
	web    *web.Server
	played chan struct{} // a robot's command was committed
}

func newServer(t *testing.T) *server {
	s := &server{Harness: pbemtest.New(t), played: make(chan struct{}, 100)}
	s.Step = time.Minute
	log := slog.New(slog.DiscardHandler)
	s.svc = pbem.New(s.DB, pbem.Config{Address: pbemtest.Address, Now: s.Clock, Log: log, Auth: pbemtest.Auth()})
	s.Service = s.svc
	s.worker = robot.NewWorker(s.svc, robot.WorkerOptions{Budget: robot.Budget{Nodes: 200}, Log: log,
		OnPlayed: func() { s.played <- struct{}{} }})
	if err := s.worker.Start(); err != nil {
		t.Fatal(err)
	}
	s.web = web.New(s.DB, web.Options{Mail: pbemtest.Address, Now: s.Clock, Log: log, Rate: 1e6, Burst: 1e6})
	return s
}

// send delivers a mail from id@example.org and returns its replies.
func (s *server) send(id, subject string) []pbemtest.Sent {
	s.T.Helper()
	return s.Mail(id+"@example.org", subject, "")
}

// board reads a board and replays it.
func (s *server) board(kind string, n int) (*store.Game, rules.Position) {
	s.T.Helper()
	var rec *store.Game
	err := s.DB.View(func(tx *store.Tx) (err error) {
		rec, err = tx.Game(kind, n)
		return err
	})
	if err != nil {
		s.T.Fatal(err)
	}
	_, pos, err := board.Replay(rec, len(rec.Moves))
	if err != nil {
		s.T.Fatal(err)
	}
	return rec, pos
}

// get answers one request from the web view.
func (s *server) get(target string) (code int, ctype, body string) {
	s.T.Helper()
	rec := httptest.NewRecorder()
	s.web.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
	b, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, rec.Header().Get("Content-Type"), string(b)
}

func TestFifthGame(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"tanbo2", "plaintanbo"} {
		t.Run(kind, func(t *testing.T) { playFifthGame(t, kind) })
	}
}

func playFifthGame(t *testing.T, kind string) {
	g, ok := catalog.Lookup(kind)
	if !ok {
		t.Fatalf("the catalog has no %s", kind)
	}
	_, draws := must(g.Start(must(rules.ParseOptions(g, nil)))).(rules.Drawer)
	s := newServer(t)
	s.SignUp("alice", "bob")

	// By mail: a challenge, moves, board mails under the game's title.
	s.send("alice", kind+" challenge alice bob -size=9")
	rec, pos := s.board(kind, 101)
	if rec.Kind != kind || len(rec.Seats) != 2 || rec.Seats[0] != "alice" {
		t.Fatalf("the challenge made %+v", rec)
	}
	var out []pbemtest.Sent
	for i := 0; i < 4; i++ {
		seat := rec.Seats[pos.ToMove()]
		legal := pos.Legal()
		replies := s.send(seat, fmt.Sprintf("%s move 101 %s %s %s", kind, seat, pbemtest.Password(seat), legal[(i*11)%len(legal)]))
		rec, pos = s.board(kind, 101)
		if len(rec.Moves) != i+1 {
			t.Fatalf("move %d by mail was not played: %v", i+1, replies)
		}
		out = append(out, replies...)
	}
	boardMails := 0
	for _, m := range out {
		if strings.Contains(strings.ToLower(m.Subject), "error") {
			t.Fatalf("error reply: %s\n%s", m.Subject, m.Body)
		}
		if strings.HasPrefix(m.Subject, g.Title()+" Board 101") && strings.Contains(m.Body, strings.TrimRight(pos.Board(), "\n")) {
			boardMails++
		}
	}
	if boardMails != 2 {
		t.Errorf("%d mails of the board as it stands, want one to each player", boardMails)
	}
	if out := s.send("bob", kind+" show 101"); len(out) != 1 || !strings.HasPrefix(out[0].Subject, g.Title()+" Board 101") {
		t.Errorf("%s show 101: %+v", kind, out)
	}

	// On the web: drawn, or the text board when the positions do not draw.
	code, _, page := s.get(fmt.Sprintf("/%s/101", kind))
	if code != 200 || !strings.Contains(page, html.EscapeString(strings.TrimRight(pos.Board(), "\n"))) {
		t.Fatalf("/%s/101: %d\n%.400s", kind, code, page)
	}
	code, ctype, svg := s.get(fmt.Sprintf("/%s/101.svg", kind))
	stones := strings.Count(pos.String(), "b") + strings.Count(pos.String(), "w") - 1 // the side to move is b or w
	if draws {
		if n := strings.Count(page, `class="piece"`); n != stones || !strings.Contains(page, `<svg`) {
			t.Errorf("/%s/101 draws %d pieces of %d", kind, n, stones)
		}
		if n := strings.Count(svg, `class="piece"`); code != 200 || ctype != "image/svg+xml" || n != stones {
			t.Errorf("/%s/101.svg: %d %s with %d pieces of %d", kind, code, ctype, n, stones)
		}
	} else {
		if strings.Contains(page, `<svg`) || !strings.Contains(page, `<pre class="board">`) || code != 404 {
			t.Errorf("/%s/101 of a game that does not draw: a drawing, or no text board, or its SVG answers %d", kind, code)
		}
	}

	// A robot: it plays the new game when its turn comes.
	robotID := pbem.RobotID(kind, 1)
	s.send("alice", fmt.Sprintf("%s challenge alice %s -size=9", kind, robotID))
	_, pos = s.board(kind, 102)
	s.send("alice", fmt.Sprintf("%s move 102 alice pw-alice %s", kind, pos.Legal()[0]))
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { s.worker.Run(ctx); close(stopped) }()
	<-s.played
	cancel()
	<-stopped
	rec, _ = s.board(kind, 102)
	if len(rec.Moves) != 2 || rec.Seats[1] != robotID || rec.Moves[1].Seat != 1 {
		t.Fatalf("after the robot's turn: seats %v, moves %+v", rec.Seats, rec.Moves)
	}
	played := false
	for _, m := range s.Outbox() {
		played = played || m.To == "alice@example.org" && strings.Contains(m.Body, robotID+" played "+rec.Moves[1].Text)
	}
	if !played {
		t.Error("alice was not mailed the robot's move")
	}

	// pbemd rules explores it as any game.
	var stdout, stderr bytes.Buffer
	start := must(g.Start(must(rules.ParseOptions(g, []string{"-size=9"}))))
	want := strings.Join(start.Legal(), "\n") + "\n"
	if code := rulestool.Run([]string{kind, "-size=9", "-legal"}, &stdout, &stderr); code != 0 || stdout.String() != want {
		t.Errorf("pbemd rules %s -size=9 -legal: %d %q %s; want %q", kind, code, stdout.String(), stderr.String(), want)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
