package tanbo

import (
	"testing"

	"github.com/pbemd/pbemd/rules/rulestest"
)

// TestMover plays random games of every size and of a position with many
// small roots through the Mover and through Legal and Play, which must
// agree at every ply.
func TestMover(t *testing.T) {
	for _, c := range []struct {
		name  string
		games int
	}{{"9", 1000}, {"13", 200}, {"19", 60}} {
		t.Run(c.name, func(t *testing.T) { rulestest.CheckMover(t, start(t, c.name), c.games, 2000, 33) })
	}
	t.Run("roots", func(t *testing.T) {
		pos := parse(t, "b.w.b.w/......./w.b.w.b/......./b.w.b.w/......./w.b.w.b w")
		rulestest.CheckMover(t, pos, 1000, 2000, 34)
	})
}
