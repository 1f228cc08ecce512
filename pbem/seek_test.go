package pbem

import (
	"testing"
	"time"
)

// A seek nobody takes lapses in the sweep after 14 days: withdrawn,
// unrated, the seeker told by one mail, and free to seek again. A seat
// given back opens the 14 days anew.
func TestSeekLapses(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob")
	start := h.now
	// Proved by her password: nothing need vouch for the mail.
	h.deliver(h.forged("alice@example.org", "tanbo seek alice pw-alice -size=9", ""))

	// Bob takes the seat after ten days and gives it back at once.
	h.now = start.Add(10 * day)
	h.send("bob@example.org", "tanbo accept 101 bob pw-bob", "")
	h.send("bob@example.org", "tanbo decline 101 bob pw-bob", "")
	if g := h.game("tanbo", 101); g.Over || g.Seats[1] != "" {
		t.Fatalf("after bob gave the seat back: over %v, seats %q", g.Over, g.Seats)
	}

	h.now = start.Add(10*day + seekLife - time.Minute)
	if out := h.sweep(); len(out) != 0 {
		t.Errorf("the sweep before the seek lapses: %v", subjects(out))
	}
	h.now = h.now.Add(time.Minute)
	r := one(t, h.sweep(), "alice@example.org")
	if r.Subject != "Tanbo Board 101 withdrawn" {
		t.Errorf("the lapse's subject: %q", r.Subject)
	}
	says(t, r.Body, "No one took the open seat within 14 days: the board is withdrawn.",
		`"tanbo seek alice PASSWORD" asks again.`, "Game withdrawn, not rated.")
	if g := h.game("tanbo", 101); !g.Over || g.Withdrawn != "alice" {
		t.Errorf("the lapsed seek: over %v, withdrawn %q", g.Over, g.Withdrawn)
	}
	if out := h.sweep(); len(out) != 0 {
		t.Errorf("a second sweep: %v", subjects(out))
	}
	hasNot(t, one(t, h.send("bob@example.org", "tanbo seeks", ""), "bob@example.org").Body, "alice - ?")
	r = one(t, h.send("alice@example.org", "tanbo seek alice pw-alice", ""), "alice@example.org")
	if r.Subject != "New Tanbo Board 102 alice" {
		t.Errorf("a seek after the lapse: %q", r.Subject)
	}
}
