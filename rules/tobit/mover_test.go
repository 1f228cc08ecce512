package tobit_test

import (
	"testing"

	"github.com/pbemd/pbemd/rules/rulestest"
	"github.com/pbemd/pbemd/rules/tobit"
)

// TestMover plays random games through the Mover and through Legal and
// Play, which must agree at every ply, repetitions and promotions included.
func TestMover(t *testing.T) {
	pos, err := tobit.Game.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	rulestest.CheckMover(t, pos, 300, 400, 33)
}
