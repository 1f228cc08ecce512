package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pbemd/pbemd/pbem/robot"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
)

const robotArgs = "GAME [-level N] [-position TEXT] [-time D | -nodes N] [-seed S] [-v] [-option ...]"

const robotUsage = "pbemd robot " + robotArgs

// runRobot is "pbemd robot": it parses its own arguments, since a game's
// options (-size=9) are flags only that game knows.
func runRobot(c *invocation) error {
	if status := robotTool(c.args, c.stdout, c.stderr); status != 0 {
		return exitStatus(status)
	}
	return nil
}

// robotTool is "pbemd robot": the move the robot of a level would submit in
// a position, chosen as the daemon's worker chooses it (for Taratibu the
// single moves of the rest of the turn). Game options are written as in a
// challenge, among the flags.
func robotTool(args []string, stdout, stderr io.Writer) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "pbemd robot: "+format+"\nusage: %s\n", append(a, robotUsage)...)
		return 2
	}
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Fprintf(stdout, "usage: %s\n\nThe move the robot of a level would submit in a position (default: the\nstart), chosen as pbemd serve chooses it. Game options are written as in a\nchallenge (-size=9).\n\nexamples:\n  pbemd robot tanbo -size=9 -level 2\n", robotUsage)
		return 0
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return fail("name a game first: %s", strings.Join(catalog.Names(), ", "))
	}
	g, ok := catalog.Lookup(args[0])
	if !ok {
		return fail("no robot plays %q; games: %s", args[0], strings.Join(catalog.Names(), ", "))
	}
	// The game's options go to rules.ParseOptions, the rest to the flags.
	var optWords, flagArgs []string
	for _, a := range args[1:] {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && isOption(g, name) {
			optWords = append(optWords, a)
		} else {
			flagArgs = append(flagArgs, a)
		}
	}
	fs := flag.NewFlagSet("robot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	level := fs.Int("level", robot.MaxLevel, "the robot's `level`, 1 to 3")
	position := fs.String("position", "", "the position, in the game's position format (default: the start)")
	think := fs.Duration("time", robot.DefaultTime, "how long to think per move")
	nodes := fs.Int64("nodes", 0, "think for this many nodes instead of a time: the same answer every time")
	seed := fs.Uint64("seed", 1, "the seed choosing among equal moves")
	verbose := fs.Bool("v", false, "also print the score, depths and nodes")
	if err := fs.Parse(flagArgs); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q", fs.Arg(0))
	}
	if *level < 1 || *level > robot.MaxLevel {
		return fail("-level %d: levels are 1 to %d", *level, robot.MaxLevel)
	}
	opts, err := rules.ParseOptions(g, optWords)
	if err != nil {
		return fail("%v", err)
	}
	var pos rules.Position
	if *position == "" {
		pos, err = g.Start(opts)
	} else {
		pos, err = g.ParsePosition(*position, opts)
	}
	if err != nil {
		fmt.Fprintf(stderr, "pbemd robot: %v\n", err)
		return 1
	}
	budget := robot.Budget{Time: *think}
	if *nodes > 0 {
		budget = robot.Budget{Nodes: *nodes}
	}
	r := &robot.Robot{Game: g, Opts: opts, Level: *level, Budget: budget, Seed: *seed}
	start := time.Now()
	turn, err := r.Turn(pos)
	if err != nil {
		fmt.Fprintf(stderr, "pbemd robot: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, turn.Submission())
	if *verbose {
		fmt.Fprintf(stdout, "score %d, depths %v, nodes %d, %s\n", turn.Score, turn.Depths, turn.Nodes, time.Since(start).Round(time.Millisecond))
	}
	return 0
}

func isOption(g rules.Game, name string) bool {
	for _, o := range g.Options() {
		if o.Name == strings.ToLower(name) {
			return true
		}
	}
	return false
}
