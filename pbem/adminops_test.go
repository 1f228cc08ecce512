package pbem

import (
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/store"
)

// The administrator ends games: a draw and a win are rated and told to
// the players; a void game is told but counts in nobody's rating.
func TestEndBoard(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob")
	g := gameNames()[0]
	for range 3 {
		h.send("alice@example.org", g+" challenge alice bob", "")
	}
	games := func(id string) int {
		var n int
		h.db.View(func(tx *store.Tx) error {
			u, err := tx.User(id)
			if err == nil {
				n = ratingOf(u, g).Games
			}
			return err
		})
		return n
	}
	for i, c := range []struct{ how, winner, say string }{
		{"draw", "", "as a draw"},
		{"win", "bob", "bob wins"},
		{"void", "", "voided this game"},
	} {
		if _, err := h.svc.EndBoard(g, 101+i, c.how, c.winner); err != nil {
			t.Fatalf("%s: %v", c.how, err)
		}
		out := h.outbox()
		if len(out) != 2 {
			t.Fatalf("%s: %v; want a mail to each player", c.how, subjects(out))
		}
		for _, r := range out {
			if !strings.Contains(r.Body, c.say) {
				t.Errorf("%s: the mail to %s does not say %q:\n%s", c.how, r.To, c.say, r.Body)
			}
		}
	}
	if a, b := games("alice"), games("bob"); a != 2 || b != 2 {
		t.Errorf("rated games: alice %d, bob %d; want 2 each (the void one unrated)", a, b)
	}
	if _, err := h.svc.EndBoard(g, 101, "draw", ""); err == nil || !strings.Contains(err.Error(), "over already") {
		t.Errorf("ending an ended game: %v", err)
	}
	if _, err := h.svc.EndBoard(g, 999, "draw", ""); err == nil {
		t.Error("ending a board that does not exist: no error")
	}
	if _, err := h.svc.EndBoard(g, 104, "win", "carol"); err == nil {
		t.Error("a win for a user who does not play: no error")
	}
}

// The administrator's new password is mailed to the account alone, works,
// and ends a reset under way.
func TestNewPassword(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice")
	h.send("alice@example.org", "reset alice", "")
	if _, err := h.svc.NewPassword("alice"); err != nil {
		t.Fatal(err)
	}
	r := one(t, h.outbox(), "alice@example.org")
	f := strings.Fields(r.Body)
	pw := ""
	for i, w := range f {
		if w == "password" && i+2 < len(f) && f[i+1] == "alice" {
			pw = f[i+2]
		}
	}
	if pw == "" {
		t.Fatalf("no password in:\n%s", r.Body)
	}
	one(t, h.send("alice@example.org", "change password alice "+pw+" mine123", ""), "alice@example.org")
	var u *store.User
	h.db.View(func(tx *store.Tx) (err error) { u, err = tx.User("alice"); return })
	if liveReset(u, h.now) != nil {
		t.Error("the reset code outlived the new password")
	}
}

// A user's last mail is kept as its day, which pbemd admin shows (a note
// written before, with the time, still reads); a stranger's mail leaves
// none.
func TestLastMail(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice")
	day := func(id string) string {
		var got time.Time
		h.db.View(func(tx *store.Tx) error { got = LastMail(tx, id); return nil })
		if got.IsZero() {
			return "none"
		}
		return got.UTC().Format(time.DateTime)
	}
	err := h.db.Update(func(tx *store.Tx) error { return tx.SetNote(lastMailKey("alice"), "2026-11-19T08:30:00Z") })
	if err != nil {
		t.Fatal(err)
	}
	if got := day("alice"); got != "2026-11-19 08:30:00" {
		t.Errorf("a note with the time: last mail %s", got)
	}
	h.now = time.Date(2026, 11, 20, 23, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		after time.Duration
		want  string
	}{{0, "2026-11-20"}, {90 * time.Minute, "2026-11-21"}, {time.Hour, "2026-11-21"}} {
		h.now = h.now.Add(c.after)
		h.send("alice@example.org", "help", "")
		if got := day("Alice"); got != c.want+" 00:00:00" {
			t.Errorf("after a mail at %s: last mail %s; want the day %s", h.now.Format(time.DateTime), got, c.want)
		}
	}
	h.send("stranger@example.org", "help", "")
	if got := day("stranger@example.org"); got != "none" {
		t.Errorf("a stranger's mail left a last mail: %s", got)
	}
}
