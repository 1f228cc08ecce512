package main

import (
	"fmt"
	"time"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/daemon"
	"github.com/pbemd/pbemd/pbem/populate"
)

// runPopulate is "pbemd populate -data DIR -games N [-players M] [-seed S]":
// a new store filled with a realistic mix of accounts and boards, to try the
// server at scale and to measure it. It syncs the store to disk once, at
// the end: a populate cut short leaves a store to delete, not to serve.
func runPopulate(c *invocation) error {
	where := c.dataFlags("the server's address is the embedded default's")
	games := c.flags.Int("games", 0, "how many `boards` to make (required)")
	players := c.flags.Int("players", 0, "how many `accounts` to make (default: one for every 10 games)")
	seed := c.flags.Uint64("seed", 1, "the `seed` of the random mix: the same seed makes the same store")
	if _, err := c.parse(0, "only the flags -config, -data, -games, -players and -seed"); err != nil {
		return err
	}
	if *games <= 0 {
		return usageError("-games is required: how many boards to make, e.g. -games 100000")
	}
	if *players < 0 {
		return usageError(fmt.Sprintf("-players %d: want a number of accounts, 2 or more", *players))
	}
	s, err := c.open(where, config.UsesNone, false)
	if err != nil {
		return err
	}
	defer s.Close()
	// A batch job of many short-lived values: the daemon's pace of the
	// collector (four times less often) saved 13% of the CPU of 10,000
	// games (BenchmarkFill).
	daemon.PaceCollector()
	start := time.Now()
	last := start
	st, err := populate.Fill(s.db, s.svc, populate.Options{Games: *games, Players: *players, Seed: *seed, Progress: func(done int) {
		if time.Since(last) >= 5*time.Second || done == *games {
			last = time.Now()
			fmt.Fprintf(c.stderr, "%d of %d games, %.0f games/s\n", done, *games, float64(done)/time.Since(start).Seconds())
		}
	}})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "%d players, %d games (%d running, %d open, %d finished), %d moves in %s; every password is \"secret\"\n",
		st.Players, st.Games, st.Running, st.Open, st.Finished, st.Moves, time.Since(start).Round(time.Millisecond))
	return nil
}
