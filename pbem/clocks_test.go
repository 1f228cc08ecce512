package pbem

import (
	"testing"
	"time"

	"github.com/pbemd/pbemd/store"
)

// TestFischerClock: a board challenged with a Fischer bank shows its clock
// and banks in every board mail; each move spends the mover's bank and adds
// the increment, up to the cap; the sweep reminds the mover once a turn
// and forfeits him when his bank is spent, at the minute.
func TestFischerClock(t *testing.T) {
	h := newHarness(t)
	h.signup("alice")
	h.signup("bob")
	start := h.now
	out := h.send("alice@example.org", "tanbo challenge alice bob -size=9 -clock=Fischer:2d+1d/3d", "")
	r := boardMails(t, out, "New Tanbo Board 101 alice", "alice@example.org", "bob@example.org")
	says(t, r.Body, "Clock: Fischer: 2d to start, 1d more after each move, at most 3d.",
		"Bank: alice had at the start of the turn 2d; bob has 2d.")
	h.now = start.Add(day)
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	h.now = start.Add(day + 6*time.Hour)
	r = boardMails(t, h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", ""), "Tanbo Board 101 alice",
		"alice@example.org", "bob@example.org")
	// alice: 2d - 1d + 1d; bob: 2d - 6h + 1d, capped at 3d... 2d18h.
	says(t, r.Body, "Bank: alice had at the start of the turn 2d; bob has 2d18h.")
	turn := h.now
	// The reminder comes when a day of alice's 2d is left, once.
	h.now = turn.Add(day - time.Minute)
	if out := h.sweep(); len(out) != 0 {
		t.Fatalf("before the reminder: %v", subjects(out))
	}
	h.now = turn.Add(day)
	says(t, one(t, h.sweep(), "alice@example.org").Body,
		"Reminder: it has been alice's turn on Tanbo board 101 and 1d of alice's bank is left. Without a move by 2026-11-25 18:00 UTC, alice forfeits the game.")
	h.now = turn.Add(2*day - time.Minute)
	if out := h.sweep(); len(out) != 0 {
		t.Fatalf("a second reminder, or an early forfeit: %v", subjects(out))
	}
	h.now = turn.Add(2 * day)
	r = boardMails(t, h.sweep(), "Tanbo Board 101 won by bob", "alice@example.org", "bob@example.org")
	says(t, r.Body, "alice forfeits: out of time, a bank of 2d spent.", "Reason: alice ran out of time (a bank of 2d).")
}

// TestFischerBankIsCapped: a quick move fills the bank to its cap, no
// further.
func TestFischerBankIsCapped(t *testing.T) {
	h := newHarness(t)
	h.signup("alice")
	h.signup("bob")
	h.send("alice@example.org", "tanbo challenge alice bob -size=9 -clock=fischer:2d+1d/2d12h", "")
	r := boardMails(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", ""), "Tanbo Board 101 bob",
		"alice@example.org", "bob@example.org")
	says(t, r.Body, "Bank: alice has 2d12h; bob had at the start of the turn 2d.")
}

// TestClockRefused: a clock that cannot be kept is refused with what
// would be right, and no board is made.
func TestClockRefused(t *testing.T) {
	h := twoPlayers(t)
	if err := h.svc.EnsureRobots([]string{"tanbo"}); err != nil {
		t.Fatal(err)
	}
	for subject, want := range map[string]string{
		"tanbo challenge alice bob -clock=blitz":                       `"blitz" is not a kind of clock; write days or fischer:START+INCREMENT/CAP (such as fischer:10d+1d/20d), then ,weekends or ,nights=23-07 for off-time.`,
		"tanbo challenge alice bob -clock=fischer:10d+1d/5d":           `In "10d+1d/5d" the start and the increment must not be more than the cap.`,
		"tanbo challenge alice bob -clock=fischer:1d+1d/9000d":         `A Fischer bank is from 1h to 365d; "1d+1d/9000d" is outside.`,
		"tanbo challenge alice bob -clock=days,nights=08-07":           `Nights of "08-07" are longer than 16 hours; the clock must run some of each day.`,
		"tanbo challenge alice tanbo-robot1 -clock=fischer:10d+1d/30d": "A game with a robot holds at most 21 days in a Fischer bank, so that no one holds a robot's seats for long; write a cap of 21d or less.",
		"tanbo challenge alice bob -clock=fischer:9999999999999d":      `"9999999999999d" is not a Fischer bank; write days or fischer:START+INCREMENT/CAP (such as fischer:10d+1d/20d), then ,weekends or ,nights=23-07 for off-time.`,
	} {
		errorReply(t, h.send("alice@example.org", subject, ""), "alice@example.org", want)
	}
	err := h.db.View(func(tx *store.Tx) error { _, err := tx.Game("tanbo", 102); return err })
	if !errNotFound(err) {
		t.Errorf("a refused clock made a board, or the store failed: %v", err)
	}
}

// TestOffTimeInThePlayersZone: weekends off, counted in the zone the
// player to move has set. bob moves at 23:30 UTC on a Friday, which is
// already Saturday in Berlin: alice's clock starts on Monday, Berlin time,
// half an hour before it would in UTC.
func TestOffTimeInThePlayersZone(t *testing.T) {
	h := newHarness(t)
	h.signup("alice")
	h.signup("bob")
	h.send("alice@example.org", "set timezone alice pw-alice Europe/Berlin", "")
	h.now = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC) // a Thursday
	h.send("alice@example.org", "tanbo challenge alice bob -size=9 -clock=fischer:1d+1h/1d,weekends", "")
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	h.now = time.Date(2026, 11, 27, 23, 30, 0, 0, time.UTC)
	r := boardMails(t, h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", ""), "Tanbo Board 101 alice",
		"alice@example.org", "bob@example.org")
	says(t, r.Body, "Clock: Fischer: 1d to start, 1h more after each move, at most 1d; it stops weekends in the mover's time zone.")
	h.now = time.Date(2026, 11, 30, 11, 0, 0, 0, time.UTC) // 12:00 in Berlin: half the bank spent
	says(t, one(t, h.sweep(), "alice@example.org").Body,
		"Reminder: it has been alice's turn on Tanbo board 101 and 12h of alice's bank is left. Without a move by 2026-11-30 23:00 UTC, alice forfeits the game.")
	h.now = time.Date(2026, 11, 30, 23, 0, 0, 0, time.UTC).Add(-time.Minute)
	if out := h.sweep(); len(out) != 0 {
		t.Fatalf("before midnight in Berlin: %v", subjects(out))
	}
	h.now = h.now.Add(time.Minute)
	r = boardMails(t, h.sweep(), "Tanbo Board 101 won by bob", "alice@example.org", "bob@example.org")
	says(t, r.Body, "alice forfeits: out of time, a bank of 1d spent.")
}
