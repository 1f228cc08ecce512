package robot

import (
	"testing"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/rulestest"
)

// TestMoverSearchesAsText: for a game whose positions are rules.Movers the
// search plays moves by number on copies it keeps; it must choose exactly
// as it does playing the same game by notation on clones (the position
// wrapped to hide its Mover), with the same score, depth and nodes, at
// every level and seed, in openings, middle games and endings.
func TestMoverSearchesAsText(t *testing.T) {
	movers := 0
	for _, tg := range benchGames {
		g, opts := setup(t, tg)
		start, _ := g.Start(opts)
		if _, ok := start.(rules.Mover); !ok {
			continue
		}
		movers++
		t.Run(benchLabel(tg), func(t *testing.T) {
			t.Parallel()
			for i, pos := range samplePositions(t, tg, 8) {
				for level := 1; level <= MaxLevel; level++ {
					r := &Robot{Game: g, Opts: opts, Level: level, Budget: Budget{Nodes: 1500}, Seed: uint64(i)}
					byNumber, err := r.Move(pos)
					if err != nil {
						t.Fatal(err)
					}
					byText, err := r.Move(rulestest.Plain(pos))
					if err != nil {
						t.Fatal(err)
					}
					if byNumber != byText {
						t.Errorf("%s level %d: by number %+v, by text %+v", pos, level, byNumber, byText)
					}
				}
			}
		})
	}
	if movers == 0 {
		t.Fatal("no game of the robots' tests is a rules.Mover: nothing compared")
	}
}
