package pbem

import (
	"testing"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
)

// A digest fits 72 columns whatever the players' ids: two ids of 16
// letters and the opponent's last move make an entry's line longer.
func TestDigestLinesFit(t *testing.T) {
	h := newHarness(t)
	const me, other = "alicealicealice1", "bobbobbobbobbob1"
	h.signup(me, other)
	h.send(other+"@example.org", "ultima challenge "+other+" "+me, "")
	_, pos, err := model.Current(h.game("ultima", 101))
	if err != nil {
		t.Fatal(err)
	}
	h.send(other+"@example.org", "ultima move 101 "+other+" pw-"+other+" "+pos.Legal()[0], "")
	h.send(me+"@example.org", "set mail "+me+" pw-"+me+" digest 20:00", "")
	h.now = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	d := one(t, h.sweep(), me+"@example.org")
	checkWidth(t, "digest", d)
}
