package pbem

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/store"
)

// robotHarness is a harness with the robot players made, as the daemon's
// worker makes them, and robots allowed to join open seats.
func robotHarness(t *testing.T) *harness {
	h := newHarness(t)
	h.svc.cfg.RobotJoin = true
	h.restart()
	if err := h.svc.EnsureRobots([]string{"ultima"}); err != nil {
		t.Fatal(err)
	}
	return h
}

// shared counts the running boards of kind where both players sit.
func (h *harness) shared(kind, a, b string) int {
	h.t.Helper()
	n := 0
	err := h.db.View(func(tx *store.Tx) error { n = tx.ActiveWith(a, b, kind); return nil })
	if err != nil {
		h.t.Fatal(err)
	}
	return n
}

// A robot is shared: a player has at most limits.robot_games (3) active
// games with one robot, however he asks (either seat, any case, another
// player naming him, a forged sender, an open seat, a join), while other
// players and his other robots are not affected; a finished game frees
// its place.
func TestRobotShare(t *testing.T) {
	t.Parallel()
	h := robotHarness(t)
	h.signup("alice", "bob")
	created := func(from, subject string) {
		t.Helper()
		for _, r := range h.send(from, subject, "") {
			if strings.Contains(strings.ToLower(r.Subject), "error") {
				t.Fatalf("%q refused: %s", subject, r.Body)
			}
		}
	}
	tries := 0
	refused := func(from, subject, want string) {
		t.Helper()
		tries++ // a refused mail sent again alike is not answered again
		out := h.send(from, subject, fmt.Sprintf("try %d", tries))
		r := one(t, out, from)
		if !strings.Contains(r.Subject, "rror") || !strings.Contains(unwrapped(r.Body), want) {
			t.Errorf("%q from %s: got %q\n%s\nwant an error saying %q", subject, from, r.Subject, r.Body, want)
		}
	}
	for i := 0; i < 3; i++ {
		created("alice@example.org", "ultima challenge alice ultima-robot3")
	}
	const full = "alice already plays 3 active Ultima games against ultima-robot3, and 3 is the most one player may have with a robot: robots are shared by every player"
	for _, m := range []struct{ from, subject string }{
		{"alice@example.org", "ultima challenge alice ultima-robot3"},
		{"alice@example.org", "ultima challenge ULTIMA-Robot3 Alice"},
	} {
		refused(m.from, m.subject, full)
	}
	// Anyone else naming her only invites her: the robot and her share
	// are taken, if at all, when she accepts (invitations_test.go).
	for i, from := range []string{"bob@example.org", "mallory@attack.example", "alice@attack.example"} {
		out := h.send(from, "ultima challenge alice ultima-robot3", "")
		inv := one(t, filterTo(out, "alice@example.org"), "alice@example.org")
		says(t, inv.Body, "A challenge invites alice to this game.")
		if g := h.game("ultima", 104+i); g.Seats[1] != "" || g.Extra[robotSeatKey] != "ultima-robot3" {
			t.Errorf("%s's challenge seated %v", from, g.Seats)
		}
	}
	refused("alice@example.org", "ultima challenge ultima-robot3 ?", "A robot plays only the player who challenges it, not an open seat")
	refused("alice@example.org", "ultima challenge ? ultima-robot1", "A robot plays only the player who challenges it, not an open seat")

	// A join is a way to the same robot: refused alike.
	created("alice@example.org", "ultima challenge alice ?") // 107
	refused("alice@example.org", "ultima join 107 ultima-robot3 pw-alice", full)

	// Other robots, other players: not affected.
	created("alice@example.org", "ultima challenge alice ultima-robot2") // 108
	created("bob@example.org", "ultima challenge ultima-robot3 bob")     // 109
	if a, b := h.shared("ultima", "alice", "ultima-robot3"), h.shared("ultima", "bob", "ultima-robot3"); a != 3 || b != 1 {
		t.Fatalf("alice has %d games with ultima-robot3, bob %d; want 3 and 1", a, b)
	}

	// A finished game frees its place, for one game.
	created("alice@example.org", "ultima resign 101 alice pw-alice")
	created("alice@example.org", "ultima join 107 ultima-robot3 pw-alice")
	refused("alice@example.org", "ultima challenge alice ultima-robot3", full)
	if n := h.shared("ultima", "alice", "ultima-robot3"); n != 3 {
		t.Errorf("alice has %d games with ultima-robot3; want 3", n)
	}
}

// A multiple mail of 20 challenges of one robot, from invented addresses,
// as in issue 25, takes no more than each named player's share of it.
func TestRobotShareMultiple(t *testing.T) {
	t.Parallel()
	h := robotHarness(t)
	h.signup("alice", "bob")
	for i := 0; i < 11; i++ {
		h.send(fmt.Sprintf("x%d@invented.example", i), "multiple",
			strings.Repeat("ultima challenge alice ultima-robot3\n", 20))
	}
	if n := h.shared("ultima", "alice", "ultima-robot3"); n > 3 {
		t.Errorf("alice has %d games with ultima-robot3; want at most 3", n)
	}
	out := h.send("bob@example.org", "ultima challenge bob ultima-robot3", "")
	if len(out) != 1 || strings.Contains(strings.ToLower(out[0].Subject), "error") {
		t.Errorf("bob's own challenge: %v", subjects(out))
	}
}

// limits.robot_games sets the share.
func TestRobotShareSetting(t *testing.T) {
	t.Parallel()
	h := robotHarness(t)
	h.svc.cfg.Limits.RobotGames = 1
	h.restart()
	h.signup("alice")
	h.send("alice@example.org", "ultima challenge alice ultima-robot1", "")
	out := h.send("alice@example.org", "ultima challenge alice ultima-robot1", "")
	if r := one(t, out, "alice@example.org"); !strings.Contains(unwrapped(r.Body), "1 is the most one player may have") {
		t.Errorf("second challenge with a share of 1: %s\n%s", r.Subject, r.Body)
	}
	if n := h.shared("ultima", "alice", "ultima-robot1"); n != 1 {
		t.Errorf("alice has %d games with ultima-robot1; want 1", n)
	}
}

// unwrapped is text with its lines joined, to find a sentence in a reply
// wrapped to 72 columns.
func unwrapped(text string) string { return strings.Join(strings.Fields(text), " ") }

// filterTo is the replies of out to one address.
func filterTo(out []reply, to string) []reply {
	var mine []reply
	for _, r := range out {
		if r.To == to {
			mine = append(mine, r)
		}
	}
	return mine
}

// A robot's game cannot be made to last a year: its forfeit time is the
// default's at most.
func TestRobotForfeitTimeBounded(t *testing.T) {
	t.Parallel()
	h := robotHarness(t)
	h.signup("alice")
	errorReply(t, h.send("alice@example.org", "ultima challenge alice ultima-robot3 --forfeittime=365", ""), "alice@example.org",
		"A game with a robot forfeits after 21 days at most, so that no one holds a robot's seats for long; write --forfeittime=21 or less.")
	if out := h.send("alice@example.org", "ultima challenge alice ultima-robot3 --nagtime=3 --forfeittime=10", ""); len(out) != 1 {
		t.Errorf("a shorter forfeit time with a robot: %v", subjects(out))
	}
}

// TestRobotsInFirstMails (issue 27, item 4): the welcome, "help" and the
// tutorial offer a first game against a robot, with a command that starts
// one.
func TestRobotsInFirstMails(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if err := h.svc.EnsureRobots([]string{"tanbo", "ultima"}); err != nil {
		t.Fatal(err)
	}
	welcome := one(t, h.send("alice@example.org", "signup alice pw-alice", ""), "alice@example.org")
	has(t, welcome.Body, "Subject: ultima challenge alice ultima-robot1\n")
	help := one(t, h.send("x@example.org", "help", ""), "x@example.org")
	has(t, help.Body, "ultima challenge alice ultima-robot1", "GAME-robot1 (the\neasiest)")
	tutorial := one(t, h.send("x@example.org", "help tutorial", ""), "x@example.org").Body
	robot, person := strings.Index(tutorial, "tanbo challenge alice tanbo-robot1"), strings.Index(tutorial, "tanbo challenge alice bob")
	if robot < 0 || person < 0 || robot > person || !strings.Contains(tutorial, "2. Play a robot first.") {
		t.Fatalf("the tutorial's first game is not against a robot:\n%s", tutorial)
	}
	for _, r := range []reply{welcome, help} {
		checkWidth(t, r.Subject, r)
	}
	// The commands they give start the game.
	for _, c := range []string{"tanbo challenge alice tanbo-robot1 -size=9", "ultima challenge alice ultima-robot1"} {
		out := h.send("alice@example.org", c, "")
		if len(out) == 0 || !strings.HasPrefix(out[0].Subject, "New ") {
			t.Errorf("%q: got %v, want a new board", c, subjects(out))
		}
	}
}
