package robot

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// testNodes is the node budget of searching robots in the tests: small, so
// that all the games take seconds, yet enough for level 3 to see deeper
// than level 2.
const testNodes = 300

// TestLevelsPlayWholeGames plays every level against every other level and
// against a random player, in all four games, each pairing in both seats:
// every submission must be legal (playGame checks) and every game must end.
func TestLevelsPlayWholeGames(t *testing.T) {
	t.Parallel()
	for _, tg := range testGames {
		t.Run(tg.name, func(t *testing.T) {
			g, opts := setup(t, tg)
			players := []player{randomPlayer{}}
			for level := 1; level <= MaxLevel; level++ {
				players = append(players, robotPlayer{g, opts, level, testNodes})
			}
			game := uint64(0)
			for i, a := range players {
				for j, b := range players {
					if i == j {
						continue
					}
					game++
					res, plies := playGame(t, g, opts, tg, [2]player{a, b}, game)
					if !res.Over {
						t.Errorf("%s vs %s: not over after %d plies", a.name(), b.name(), plies)
					}
					t.Logf("%s vs %s: %+v after %d plies", a.name(), b.name(), res, plies)
				}
			}
		})
	}
}

// TestLevel3BeatsLevel1 plays a few games of each kind, level 3 taking
// each seat in turn: level 3 must win a clear majority.
func TestLevel3BeatsLevel1(t *testing.T) {
	t.Parallel()
	const games = 6
	for _, tg := range testGames {
		t.Run(tg.name, func(t *testing.T) {
			g, opts := setup(t, tg)
			strong := robotPlayer{g, opts, 3, 1000}
			weak := robotPlayer{g, opts, 1, 0}
			wins := 0
			for i := 0; i < games; i++ {
				seats := [2]player{strong, weak}
				seat := i % 2
				if seat == 1 {
					seats = [2]player{weak, strong}
				}
				res, plies := playGame(t, g, opts, tg, seats, uint64(100+i))
				if res.Over && res.Winner == seat {
					wins++
				}
				t.Logf("game %d, level 3 in seat %d: %s after %d plies", i, seat, fmt.Sprint(res), plies)
			}
			if wins*4 < games*3 {
				t.Errorf("level 3 won %d of %d games against level 1; want at least three quarters", wins, games)
			}
		})
	}
}

// TestMatchLevel3Level1 is the long count of BENCHMARKS.md: ROBOT_MATCH=N
// plays N games of each kind between level 3 (node budget ROBOT_NODES,
// default 3000) and level 1, level 3 in each seat half the time, and logs
// the score. ROBOT_MATCH_ONLY=tanbo-size=19 plays only the game of that
// benchmark label (any of BenchmarkSearch's).
//
//	ROBOT_MATCH=100 go test ./pbem/robot -run TestMatchLevel3Level1 -v -timeout 2h
func TestMatchLevel3Level1(t *testing.T) {
	t.Parallel()
	n, _ := strconv.Atoi(os.Getenv("ROBOT_MATCH"))
	if n <= 0 {
		t.Skip("set ROBOT_MATCH=100 to count level 3 against level 1")
	}
	nodes := int64(3000)
	if v, err := strconv.ParseInt(os.Getenv("ROBOT_NODES"), 10, 64); err == nil && v > 0 {
		nodes = v
	}
	games := testGames
	if only := os.Getenv("ROBOT_MATCH_ONLY"); only != "" {
		games = nil
		for _, tg := range benchGames {
			if benchLabel(tg) == only {
				games = append(games, tg)
			}
		}
	}
	for _, tg := range games {
		g, opts := setup(t, tg)
		strong := robotPlayer{g, opts, 3, nodes}
		weak := robotPlayer{g, opts, 1, 0}
		var won, lost, drawn, unfinished int
		start := time.Now()
		for i := 0; i < n; i++ {
			seat := i % 2
			seats := [2]player{strong, weak}
			if seat == 1 {
				seats = [2]player{weak, strong}
			}
			res, _ := playGame(t, g, opts, tg, seats, uint64(1000+i))
			switch {
			case !res.Over:
				unfinished++
			case res.Winner == seat:
				won++
			case res.Winner < 0:
				drawn++
			default:
				lost++
			}
		}
		t.Logf("%s %s: level 3 (%d nodes) against level 1: %d won, %d lost, %d drawn, %d unfinished of %d, in %s",
			tg.name, strings.Join(tg.opts, " "), nodes, won, lost, drawn, unfinished, n, time.Since(start).Round(time.Second))
	}
}
