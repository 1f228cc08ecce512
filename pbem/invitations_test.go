package pbem

import (
	"fmt"
	"strings"
	"testing"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/store"
)

// A challenge in mail that proves nothing only invites: each named player
// gets one mail, no move can be played, and the game begins when both
// accepted with their passwords.
func TestForgedChallengeOnlyInvites(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob")
	out := h.deliver(h.forged("mallory@evil.example", "tanbo challenge alice bob -size=9", "I speak for alice"))
	inv := boardMails(t, append([]reply(nil), out[:2]...), "New Tanbo Board 101 alice", "alice@example.org", "bob@example.org")
	says(t, inv.Body, "A challenge invites alice and bob to this game. It came from mallory@evil.example, and nothing proves who wrote it",
		"Waiting for alice and bob to accept. To accept, send:", "tanbo join 101 USERID PASSWORD", "tanbo decline 101 USERID PASSWORD")
	hasNot(t, inv.Body, "I speak for alice", "Your move.")
	if len(out) != 3 || out[2].To != "mallory@evil.example" {
		t.Errorf("a forged challenge's replies: %v", subjects(out))
	}

	// Nothing can be played, by a forger or by the players.
	errorReply(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice e5", ""), "alice@example.org",
		"Tanbo board 101 waits for alice and bob to accept the challenge; no move can be played until then (tanbo join 101 USERID PASSWORD).")
	// No forged mail can accept for a player.
	h.deliver(h.forged("alice@example.org", "tanbo join 101 alice guess", ""))
	if g := h.game("tanbo", 101); g.Extra[model.PendingKey] != "alice bob" {
		t.Fatalf("after a wrong password the pending seats are %q", g.Extra[model.PendingKey])
	}

	// Each accepts with his password, from any kind of mail.
	out = h.deliver(h.forged("alice@example.org", "tanbo join 101 alice pw-alice", ""))
	r := boardMails(t, out, "Tanbo Board 101 alice", "alice@example.org", "bob@example.org")
	says(t, r.Body, "alice accepted the challenge.", "Waiting for bob to accept.")
	out = h.send("bob@example.org", "tanbo join 101 bob pw-bob", "")
	r = boardMails(t, out, "New Tanbo Board 101 alice", "alice@example.org", "bob@example.org")
	says(t, r.Body, "bob accepted the challenge. The game begins.", "It is alice's turn.")
	if g := h.game("tanbo", 101); g.Extra[model.PendingKey] != "" || g.TurnSince != h.now {
		t.Errorf("after both accepted: pending %q, turn since %v", g.Extra[model.PendingKey], g.TurnSince)
	}
	if out := h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", ""); len(out) != 2 {
		t.Errorf("the first move after the invitation: %v", subjects(out))
	}
}

// An authenticated challenge starts the game at once, as on pbmserv.
func TestAuthenticatedChallengeStartsAtOnce(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	g := h.game("tanbo", 101)
	if g.Extra[model.PendingKey] != "" || g.TurnSince.IsZero() {
		t.Errorf("an authenticated challenge left pending seats %q", g.Extra[model.PendingKey])
	}
}

// A player who declines ends the invitation, unrated; one nobody answers
// lapses in the sweep after three days.
func TestInvitationDeclinedOrLapsed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob")
	h.deliver(h.forged("x@evil.example", "tanbo challenge alice bob", ""))
	h.deliver(h.forged("y@evil.example", "tanbo challenge bob alice", ""))
	out := h.send("bob@example.org", "tanbo decline 101 bob pw-bob", "")
	says(t, boardMails(t, out, "Tanbo Board 101 withdrawn", "alice@example.org", "bob@example.org").Body, "Game withdrawn, not rated.")

	h.now = h.now.Add(inviteLife - time.Minute)
	if out := h.sweep(); len(out) != 0 {
		t.Errorf("the sweep before the invitation lapses: %v", subjects(out))
	}
	h.now = h.now.Add(time.Minute)
	out = h.sweep()
	r := boardMails(t, out, "Tanbo Board 102 withdrawn", "bob@example.org", "alice@example.org")
	says(t, r.Body, "bob and alice did not accept within 3 days: the board is withdrawn.", "Game withdrawn, not rated.")
	if g := h.game("tanbo", 102); !g.Over || g.Withdrawn == "" || g.Extra[model.PendingKey] != "" {
		t.Errorf("the lapsed board: over %v, withdrawn %q, pending %q", g.Over, g.Withdrawn, g.Extra[model.PendingKey])
	}
}

// The robots attack of the issue: forged multiple mails of twenty robot
// challenges each, from invented addresses. Nothing starts, alice gets a
// bounded number of mails, and the robot keeps its seats for real players.
func TestForgedRobotChallengesSeizeNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if err := h.svc.EnsureRobots([]string{"ultima"}); err != nil {
		t.Fatal(err)
	}
	h.signup("alice", "bob")
	toAlice := 0
	for i := range 11 {
		body := strings.Repeat("ultima challenge alice ultima-robot3\n", 20)
		for _, r := range h.deliver(h.forged(fmt.Sprintf("m%d@evil.example", i), "multiple", body)) {
			if r.To == "alice@example.org" {
				toAlice++
			}
		}
	}
	if toAlice != DefaultLimits().Invitations {
		t.Errorf("220 forged challenges sent alice %d mails; want the %d invitations she may be sent", toAlice, DefaultLimits().Invitations)
	}
	// The invitations hold no seat of the robot, nor of alice's share.
	robot := RobotID("ultima", 3)
	if n := h.active(robot, "ultima"); n != 0 {
		t.Errorf("forged invitations hold %d boards of %s", n, robot)
	}
	for range 3 {
		if out := h.send("alice@example.org", "ultima challenge alice "+robot, ""); len(out) != 1 {
			t.Fatalf("alice's own challenge of the robot: %v", subjects(out))
		}
	}
	// Accepting one more now would pass her share: it is refused, and
	// the invitation stays.
	errorReply(t, h.send("alice@example.org", "ultima join 101 alice pw-alice", ""), "alice@example.org",
		"alice already plays 3 active Ultima games against ultima-robot3, and 3 is the most one player may have with a robot: robots are shared by every player; wait until one of them ends, or challenge another robot (ultima-robot1 to ultima-robot3).")
	if g := h.game("ultima", 101); g.Extra[model.PendingKey] != "alice" || g.Extra[robotSeatKey] != robot {
		t.Errorf("a refused acceptance changed the invitation: %v", g.Extra)
	}
	// With a place free, accepting seats the robot and begins the game.
	h.send("alice@example.org", "ultima resign 106 alice pw-alice", "")
	out := h.send("alice@example.org", "ultima join 101 alice pw-alice", "")
	r := one(t, out, "alice@example.org")
	says(t, r.Body, "alice accepted the challenge. The game begins.", "It is alice's turn.")
	if g := h.game("ultima", 101); g.Seats[1] != robot {
		t.Errorf("after the acceptance the seats are %v", g.Seats)
	}
	// Bob's own, authenticated challenge starts at once.
	out = h.send("bob@example.org", "ultima challenge bob ultima-robot3", "")
	if len(out) != 1 || !strings.HasPrefix(out[0].Subject, "New Ultima Board") {
		t.Fatalf("bob's challenge of the robot: %v", subjects(out))
	}
	says(t, out[0].Body, "It is bob's turn.")
}

// active counts the boards in play of a user in a game, as the limits do.
func (h *harness) active(id, kind string) int {
	h.t.Helper()
	n := 0
	if err := h.db.View(func(tx *store.Tx) error { n = tx.ActiveCount(id, kind); return nil }); err != nil {
		h.t.Fatal(err)
	}
	return n
}

// Invitations a player has not accepted are no games of his: a forger's
// do not fill his limit of active games.
func TestInvitationsDoNotFillLimit(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob", "carol")
	h.send("alice@example.org", "tanbo limit alice pw-alice 1", "")
	h.deliver(h.forged("x@evil.example", "tanbo challenge bob alice", ""))
	out := h.send("alice@example.org", "tanbo challenge alice carol", "")
	if len(out) != 2 || !strings.HasPrefix(out[0].Subject, "New Tanbo Board 102") {
		t.Fatalf("alice's own challenge beside a forged invitation: %v", subjects(out))
	}
	// Her limit holds for games she plays.
	errorReply(t, h.send("alice@example.org", "tanbo challenge alice bob", ""), "alice@example.org",
		"alice already plays 1 active Tanbo game, the limit alice set; wait until one ends, or raise the limit with \"tanbo limit alice PASSWORD NUMBER\".")
}

// A From line names nobody: a forged one in a refusing player's name
// passes no refusal of his, and invites no one for him.
func TestForgedFromPassesNoRefusal(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob")
	h.send("bob@example.org", "tanbo reject bob pw-bob", "")
	out := h.deliver(h.forged("bob@example.org", "tanbo challenge bob alice", ""))
	for _, r := range out {
		if r.To == "alice@example.org" {
			t.Fatalf("a forged challenge in the name of bob, who refuses Tanbo, invited alice: %q", r.Subject)
		}
	}
}

// Accepting an invitation counts against the player's limit: those he has
// not accepted did not, so that a forger's could not fill it.
func TestAcceptHoldsLimit(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob", "carol")
	h.send("alice@example.org", "tanbo limit alice pw-alice 1", "")
	h.deliver(h.forged("x@evil.example", "tanbo challenge bob alice", ""))
	if out := h.send("alice@example.org", "tanbo challenge alice carol", ""); len(out) != 2 {
		t.Fatalf("alice's own challenge beside an invitation: %v", subjects(out))
	}
	errorReply(t, h.send("alice@example.org", "tanbo join 101 alice pw-alice", ""), "alice@example.org",
		"alice already plays 1 active Tanbo game, the limit alice set; wait until one ends, or decline an invitation instead.")
}

// A stranger's challenge of a player at his limit is refused, and costs
// the stranger's budget of invitations all the same: refused or not,
// each reads the player's boards, so there are no more of them than
// invitations.
func TestRefusedInvitationsCountAgainstBudget(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob", "carol")
	h.send("alice@example.org", "tanbo limit alice pw-alice 1", "")
	h.send("alice@example.org", "tanbo challenge alice carol", "")
	var out []reply
	for i := range h.svc.limits.Invitations + 1 {
		out = h.deliver(h.forged("x@evil.example", fmt.Sprintf("tanbo challenge bob alice --nagtime=%d", i+1), ""))
	}
	says(t, one(t, out, "x@evil.example").Body, "Mail from x@evil.example has sent 5 invitations")
}
