package e2e

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules/tobit"
)

// TestRobotEmbedded: pbemd serve makes the robot players at start and plays
// their moves: a robot challenged to move first answers by mail with the
// board after its move, and again after the player's move.
func TestRobotEmbedded(t *testing.T) {
	data := filepath.Join(t.TempDir(), "pbem-data")
	p := startPbemd(t, nil, "serve", "-data", data, "-imap", "127.0.0.1:0", "-smtp", "127.0.0.1:0")
	w := &embeddedWorld{imapAddr: p.waitLine(`^  IMAP  (\S+)`)[1], smtpAddr: p.waitLine(`^  SMTP  (\S+)`)[1]}
	alice := player("alice")
	w.send(t, alice, "signup alice secret", "robot1@e2e.test")
	waitReplies(t, w, 1)
	w.send(t, alice, "tobit challenge tobit-robot1 alice", "robot2@e2e.test")
	rs := waitReplies(t, w, 3) // the new board, then the robot's first move
	if !strings.Contains(rs[2].Body, "tobit-robot1 played") || rs[2].To != alice {
		t.Fatalf("third reply is not the robot's move to alice: %+v", rs[2])
	}
	// Alice answers with her first legal move after the robot's.
	m := regexp.MustCompile(`tobit-robot1 played (\S+)\.`).FindStringSubmatch(rs[2].Body)
	pos, _ := tobit.Game.Start(nil)
	if _, err := pos.Play(m[1]); err != nil {
		t.Fatal(err)
	}
	w.send(t, alice, "tobit move 101 alice secret "+pos.Legal()[0], "robot3@e2e.test")
	rs = waitReplies(t, w, 5) // alice's move, then the robot's answer
	if !strings.Contains(rs[4].Body, "tobit-robot1 played") {
		t.Fatalf("fifth reply is not the robot's answer: %+v", rs[4])
	}
	p.stop()
	if !strings.Contains(p.Output(), "robot played") {
		t.Errorf("the log does not show the robot's moves:\n%s", p.Output())
	}
}
