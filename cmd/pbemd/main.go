// Command pbemd is the play-by-email game server. Each subcommand has its own
// flags; the work is done in the pbem packages.
package main

import (
	"fmt"
	"os"

	"github.com/pbemd/pbemd/pbem/rulestool"
)

// A command is one subcommand: it takes the arguments after its name and
// returns the exit status.
type command struct {
	name    string
	summary string
	run     func(args []string) int
}

var commands = []command{
	{"rules", "explore a game position: pbemd rules GAME [-board] [-legal] [-perft N] [MOVE ...]", func(args []string) int {
		return rulestool.Run(args, os.Stdout, os.Stderr)
	}},
	{"serve", "run the daemon: pbemd serve [-config FILE] [-data DIR] (no config: embedded mail server on 127.0.0.1)", runServe},
	{"deliver", "handle one mail from stdin: pbemd deliver [-config FILE] [-data DIR] [-print]", runDeliver},
	{"backup", "copy the database to a file: pbemd backup [-data DIR] FILE", runBackup},
	{"sweep", "send the reminders and forfeits due: pbemd sweep [-config FILE] [-data DIR] [-print] [-now RFC3339]", runSweep},
	{"robot", "the robot's move in a position: pbemd robot GAME [-level N] [-position TEXT] [-time D | -nodes N] [-option ...]", runRobot},
}

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		usage()
		return 2
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:])
		}
	}
	fmt.Fprintf(os.Stderr, "pbemd: no subcommand %q\n", args[0])
	usage()
	return 2
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: pbemd SUBCOMMAND [ARGS]\n\nsubcommands:")
	for _, c := range commands {
		fmt.Fprintf(os.Stderr, "  %-8s %s\n", c.name, c.summary)
	}
}
