package pbem

import (
	"fmt"
	"strings"
	"testing"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/store"
)

// TestNewcomerSession is issue 27's first hour of a newcomer, 100 mails in
// 20 minutes (a fixed clock, 12 seconds a mail): a note before signing up,
// help, the tutorial, a game against a robot, shows, lists, mistakes and
// replies to the errors. Every mail gets an answer.
func TestNewcomerSession(t *testing.T) { newcomerSession(t, "", nil) }

// newcomerSession plays the newcomer's first hour. When lang is set, she
// chooses that language for her mails right after signing up, and each
// answer to her from then on is handed to check.
func newcomerSession(t *testing.T, lang string, check func(sent string, r reply)) {
	h := robotHarness(t)
	if err := h.svc.EnsureRobots([]string{"tanbo"}); err != nil {
		t.Fatal(err)
	}
	h.signup("alice")
	const nina = "nina@example.net"
	robot := RobotID("tanbo", 1)
	sent := 0
	var last []reply // the answers to the last mail
	chosen := false  // she has chosen her language
	deliver := func(what string, raw []byte) {
		t.Helper()
		sent++
		h.now = h.now.Add(12 * time.Second)
		last = nil
		for _, r := range h.deliver(raw) {
			if r.To == nina {
				last = append(last, r)
			}
			checkReplyWidth(t, what, r)
			if chosen && r.To == nina {
				check(what, r)
			}
		}
		if len(last) == 0 {
			t.Errorf("mail %d %q got no answer", sent, what)
		}
		if testing.Verbose() {
			t.Logf("%3d %-40.40s -> %s", sent, what, strings.Join(subjects(last), "; "))
		}
		h.robotTurns(t)
	}
	send := func(subject, body string) { t.Helper(); deliver(subject, h.mail(nina, subject, body)) }
	// myBoard is a board of nina's in play where she is to move, and a
	// legal move of hers there; 0 when there is none.
	myBoard := func() (int, string) {
		for num := 101; ; num++ {
			g := h.gameOrNil("tanbo", num)
			if g == nil {
				return 0, ""
			}
			if g.Over || len(g.Seats) < 2 || g.Seats[g.ToMove] != "nina" {
				continue
			}
			_, pos, err := model.Replay(g, len(g.Moves))
			if err != nil {
				t.Fatal(err)
			}
			if legal := pos.Legal(); len(legal) > 0 {
				return num, legal[len(legal)/2]
			}
		}
	}

	// Before signing up: how to play.
	send("hello", "How does this work?")
	send("help", "")
	send("signup nina s3cret", "")
	if lang != "" {
		chosen = true
		send("set language nina s3cret "+lang, "")
		send("help", "")
	}
	send("help tutorial", "")
	send("help commands", "")
	send("tanbo help", "")
	send("help move", "")
	send("list", "")
	send("tanbo challenge nina "+robot+" -size=9", "")
	mistakes := []string{
		"tanbo move %d nina wrong %s",       // a wrong password
		"tanbo mvoe %d nina s3cret%.0s",     // a typo, too few words
		"tanbo move %d nina s3cret z99%.0s", // an illegal move
		"tnabo show %d%.0s",                 // a game that is not
		"tanbo show 9%d%.0s",                // a board that is not
	}
	reads := []string{"tanbo show %d", "tanbo show nina", "all show nina", "tanbo games", "tanbo games open",
		"tanbo standings", "tanbo history", "list tanbo", "tanbo show %d#1", "help queue"}
	for i := 0; sent < 100; i++ {
		num, move := myBoard()
		switch {
		case num == 0 && i%7 == 6:
			// Her game is over or waits on the robot: another one.
			send(fmt.Sprintf("tanbo challenge nina %s -size=9", robot), "")
		case num == 0:
			r := reads[i%len(reads)]
			if strings.Contains(r, "%d") {
				r = fmt.Sprintf(r, 101)
			}
			send(r, "")
		case i%6 == 2:
			// A mistake, then the answer to its error mail by reply.
			m := mistakes[(i/6)%len(mistakes)]
			send(fmt.Sprintf(m, num, move), fmt.Sprintf("mistake %d", i))
			if num, move = myBoard(); num != 0 && sent < 100 {
				var board reply
				for _, r := range last {
					if strings.HasPrefix(r.Subject, fmt.Sprintf("Tanbo Board %d", num)) && hasToken(r) {
						board = r
					}
				}
				if board.Subject != "" {
					deliver("reply "+move, h.plainReply(nina, board, move))
				} else {
					send(fmt.Sprintf("tanbo move %d nina s3cret %s", num, move), "")
				}
			}
		case i%3 == 0:
			send(fmt.Sprintf("tanbo move %d nina s3cret %s", num, move), "")
		default:
			r := reads[i%len(reads)]
			if strings.Contains(r, "%d") {
				r = fmt.Sprintf(r, num)
			}
			send(r, "")
		}
	}
	if sent != 100 {
		t.Fatalf("sent %d mails", sent)
	}
	if g := h.game("tanbo", 101); len(g.Moves) < 4 {
		t.Errorf("the robot game has %d moves after the session; want a game played", len(g.Moves))
	}
}

// robotTurns plays every robot's turn, as the daemon's worker does, with
// the first legal move, and takes its mails out of the outbox.
func (h *harness) robotTurns(t *testing.T) {
	t.Helper()
	turns, err := h.svc.RobotTurns([]string{"tanbo"})
	if err != nil {
		t.Fatal(err)
	}
	for _, turn := range turns {
		task, ok, err := h.svc.RobotTask(turn.Kind, turn.Board)
		if err != nil {
			t.Fatal(err)
		}
		if !ok || !task.ToMove {
			continue
		}
		if legal := task.Pos.Legal(); len(legal) > 0 {
			if err := h.svc.PlayRobot(task, legal[0]); err != nil {
				t.Fatal(err)
			}
		}
	}
	h.outbox()
}

// gameOrNil is the board, or nil when there is none.
func (h *harness) gameOrNil(kind string, num int) *store.Game {
	var g *store.Game
	h.db.View(func(tx *store.Tx) error {
		g, _ = tx.Game(kind, num)
		return nil
	})
	return g
}
