// Command pbemd is the play-by-email game server. Each subcommand has its own
// flags; the work is done in the pbem packages.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/pbemd/pbemd/rules/rulestool"
	"github.com/pbemd/pbemd/store"
)

// A command is one subcommand of pbemd.
type command struct {
	name    string
	args    string // what follows the name, for the usage line
	summary string
	help    string // more about it, for its own usage; may be empty
	// examples are command lines shown in its usage.
	examples []string
	// run declares its flags on c.flags, parses them with c.parse and does
	// the work. It returns nil on success, a usageError for bad arguments
	// (exit status 2), an exitStatus, or the error that stopped it (exit
	// status 1).
	run func(c *invocation) error
}

// commands is every subcommand, in the order the usage lists them.
var commands = []command{
	{name: "serve", args: "[-config FILE] [-data DIR] [-imap ADDR] [-smtp ADDR] [-http ADDR]",
		summary: "run the daemon (no config: embedded mail server on 127.0.0.1)", run: runServe,
		examples: []string{"pbemd serve", "pbemd serve -config /etc/pbemd/pbemd.yaml"}},
	{name: "deliver", args: "[-config FILE] [-data DIR] [-print] [-n] [-lock-wait D]",
		summary: "handle one mail from standard input", run: runDeliver,
		help: "Exit status 0 when the mail was handled (answered, too large and answered, or\n" +
			"quarantined); 75 (EX_TEMPFAIL) when it should be offered again (data locked\n" +
			"past -lock-wait, disk full, store or config unusable); 65 on empty input.",
		examples: []string{"pbemd deliver -config /etc/pbemd/pbemd.yaml < mail.eml",
			"pbemd deliver -n -data ./pbem-data < mail.eml   (show the replies, store nothing)"}},
	{name: "sweep", args: "[-config FILE] [-data DIR] [-print] [-n] [-now RFC3339]",
		summary: "send the reminders and forfeits due", run: runSweep,
		examples: []string{"pbemd sweep -config /etc/pbemd/pbemd.yaml",
			"pbemd sweep -n -now 2026-12-01T12:00:00Z   (show what would be sent, store nothing)"}},
	{name: "backup", args: "[-config FILE] [-data DIR] FILE",
		summary: "copy the database to a file", run: runBackup,
		help: "Copies DIR/" + store.FileName + " to FILE, consistently, while the daemon runs or not:\n" +
			"a running daemon (which holds the database) sends the copy itself.",
		examples: []string{"pbemd backup -config /etc/pbemd/pbemd.yaml /var/backups/pbemd.db"}},
	{name: "compact", args: "[-config FILE] [-data DIR]",
		summary: "rewrite the database without its free pages (daemon stopped)", run: runCompact,
		help: "Rewrites DIR/" + store.FileName + " packed, checks that the new file holds every record\n" +
			"of the old one, and puts it in the old one's place. bbolt never gives back the\n" +
			"pages it frees; every commit writes their list and writes among them, scattered.\n" +
			"Worth it after a flood was pruned, after \"pbemd populate\", or when the file has\n" +
			"grown far beyond its records. Needs the daemon stopped and room on the disk\n" +
			"for a second copy (DIR/" + store.FileName + ".compact, removed when done or when it\n" +
			"fails; one left by a crash can be removed, or goes at the next compact); takes\n" +
			"about half a minute a million games, while \"pbemd deliver\" waits for the\n" +
			"database up to its -lock-wait and then has the MTA offer the mail again.",
		examples: []string{"pbemd compact -config /etc/pbemd/pbemd.yaml"}},
	{name: "admin", args: "[-config FILE] [-data DIR] ACTION [ARG ...]",
		summary: "look at and fix accounts, games and mail", run: runAdmin,
		help:     adminHelp,
		examples: []string{"pbemd admin users", "pbemd admin -config /etc/pbemd/pbemd.yaml user alice", "pbemd admin end tanbo 101 win alice"}},
	{name: "rules", args: "GAME [OPTION ...] [-position TEXT] [-board] [-legal] [-perft N] [-json] [MOVE ...]",
		summary: "explore a game position", run: runRules,
		examples: []string{"pbemd rules tanbo -size=9 h7 b7 -board", "pbemd rules replay tanbo-101.pgn   (check a game's record, print its end)"}},
	{name: "populate", args: "-data DIR -games N [-players M] [-seed S]",
		summary: "fill a new store with a realistic mix of games, to try it at scale", run: runPopulate,
		examples: []string{"pbemd populate -data /tmp/big -games 1000000"}},
	{name: "robot", args: robotArgs, summary: "the move a robot player would make in a position", run: runRobot,
		examples: []string{"pbemd robot tanbo -size=9 -level 2"}},
	{name: "dkim", args: "-domain D -selector S [-algorithm rsa|ed25519] [-config FILE] [-data DIR]",
		summary: "make a key to sign the server's mail, and print its DNS record", run: runDKIM,
		help: "Writes a new private key beside the data (DIR/dkim-SELECTOR.pem, mode 0600), never over\n" +
			"an existing one, and prints the DNS TXT record that publishes it and the lines of\n" +
			"configuration that have the daemon sign every mail it sends with it (DKIM).",
		examples: []string{"pbemd dkim -config /etc/pbemd/pbemd.yaml -domain example.org -selector pbemd1"}},
	{name: "version", args: "[-config FILE] [-data DIR]", summary: "print the version and the source revision, and the running daemon's", run: runVersion,
		help: "The first line is this binary's; the second, \"running:\", the daemon's on the data\n" +
			"directory, asked over its control socket: after an upgrade they differ until\n" +
			"the daemon is restarted.",
		examples: []string{"pbemd version", "pbemd version -config /etc/pbemd/pbemd.yaml"}},
	{name: "restore", args: "[-config FILE] [-data DIR] [-force] FILE",
		summary: "put a backup copy in place of the database (daemon stopped)", run: runRestore,
		help: "Checks that FILE is a whole pbemd database (a copy \"pbemd backup\" wrote), then puts\n" +
			"it in place of DIR/" + store.FileName + ", owned by the owner of DIR (a restore run as root\n" +
			"stays writable by the daemon's own user) with the mode of the file it replaces.\n" +
			"A foreign, cut short or damaged FILE is refused and nothing changes. The\n" +
			"replaced database is kept as DIR/" + store.FileName + ".before-restore until the next restore.\n" +
			"With store: etcd://..., FILE is copied into the prefix and checked key by key,\n" +
			"with every node stopped; a prefix that holds a store is refused unless -force,\n" +
			"which first writes what it holds to pbemd-before-restore-TIME.db beside FILE.",
		examples: []string{"pbemd restore -config /etc/pbemd/pbemd.yaml /var/backups/pbemd.db   (after systemctl stop pbemd)"}},
	{name: "doctor", args: "[-config FILE] [-data DIR] [-resolver ADDR] [-timeout D]",
		summary: "check what the daemon needs: data, store, mail servers, DNS", run: runDoctor,
		help: "One line per check, \"ok\", \"--\" (not checked), \"WARN\" or \"FAIL\": the configuration; the\n" +
			"data directory's owner and mode and its files' owners; the store (its pages, when\n" +
			"the daemon is stopped; on etcd: every member answering, a leader, no alarm, room\n" +
			"below the quota, the prefix a pbemd store and the node serving it); free disk; IMAP and SMTP reachable, their certificates\n" +
			"trusted and not running out within 14 days, the login; the LMTP socket's mode\n" +
			"and group, and its greeting; the DKIM key file against its DNS record, SPF and\n" +
			"DMARC. DNS goes through the system's resolver (or -resolver, or dkim_resolver);\n" +
			"a DNS server that does not answer is a warning. Exit status 1 when a check failed.",
		examples: []string{"pbemd doctor -config /etc/pbemd/pbemd.yaml"}},
	{name: "export", args: "[-config FILE] [-data DIR] [-game G] [-since YYYY-MM-DD] OUT.tar.gz",
		summary: "write the records of the finished games to a tar.gz", run: runExport, help: exportHelp,
		examples: []string{"pbemd export -config /etc/pbemd/pbemd.yaml records.tar.gz",
			"pbemd export -data ./pbem-data -game tanbo -since 2026-01-01 tanbo-2026.tar.gz"}},
	{name: "migrate", args: "[-config FILE] -from DIR|etcd://... -to DIR|etcd://...",
		summary: "copy the store to another engine or place, checked key by key (daemon stopped)", run: runMigrate,
		help:     migrateHelp,
		examples: []string{"pbemd migrate -config /etc/pbemd/pbemd.yaml -from /var/lib/pbemd -to etcd://10.0.0.1:2379,10.0.0.2:2379,10.0.0.3:2379/pbemd"}},
}

// usageTail follows the list of subcommands in pbemd's usage.
const usageTail = `
"pbemd SUBCOMMAND -h" (or "pbemd help SUBCOMMAND") tells more, with examples.
-config and -data mean the same to every subcommand: -data overrides the
configuration's data directory; without -config, the embedded default's.

Examples:
  pbemd serve                               try it: a mail server of its own on 127.0.0.1
  pbemd serve -config /etc/pbemd/pbemd.yaml
  pbemd backup -config /etc/pbemd/pbemd.yaml /var/backups/pbemd.db

Exit status: 0 success (and for -h), 1 failure (the message says why),
2 wrong usage; deliver: 75 (EX_TEMPFAIL) offer the mail again later,
65 (EX_DATAERR) empty input.
`

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		if len(args) == 2 && args[0] == "help" {
			// "pbemd help CMD" is "pbemd CMD -h".
			return run([]string{args[1], "-h"})
		}
		usage(os.Stdout)
		return 0
	}
	for i := range commands {
		if commands[i].name == args[0] {
			return newInvocation(&commands[i], args[1:]).exit()
		}
	}
	fmt.Fprintf(os.Stderr, "pbemd: no subcommand %q\n", args[0])
	usage(os.Stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: pbemd SUBCOMMAND [ARGS]\n\nsubcommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
		fmt.Fprintf(w, "           pbemd %s %s\n", c.name, c.args)
	}
	fmt.Fprint(w, usageTail)
}

// An invocation is one run of a subcommand.
type invocation struct {
	cmd            *command
	args           []string // the arguments after the subcommand's name
	flags          *flag.FlagSet
	stdin          io.Reader
	stdout, stderr io.Writer
}

func newInvocation(cmd *command, args []string) *invocation {
	c := &invocation{cmd: cmd, args: args, stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
	c.flags = flag.NewFlagSet(cmd.name, flag.ContinueOnError)
	c.flags.SetOutput(c.stderr)
	if asksHelp(args) {
		c.flags.SetOutput(c.stdout)
	}
	c.flags.Usage = c.usage
	return c
}

func (c *invocation) usage() {
	w := c.flags.Output()
	fmt.Fprintf(w, "usage: pbemd %s %s\n\n", c.cmd.name, c.cmd.args)
	if c.cmd.help != "" {
		fmt.Fprintf(w, "%s\n\n", c.cmd.help)
	}
	c.flags.PrintDefaults()
	if len(c.cmd.examples) > 0 {
		fmt.Fprintln(w, "\nexamples:")
		for _, e := range c.cmd.examples {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
}

// asksHelp reports whether the arguments ask for the usage: its text then
// goes to standard output, as asked for, and the exit status is 0.
func asksHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// A usageError is a wrong use of a subcommand: its message, then the usage.
type usageError string

func (e usageError) Error() string { return string(e) }

// An exitStatus ends the subcommand with that status and says nothing more:
// what was wrong has been told already.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// parse parses the flags. want is how many arguments must follow them, and
// what says which, for the error when they do not.
func (c *invocation) parse(want int, what string) ([]string, error) {
	if err := c.flags.Parse(c.args); err != nil {
		return nil, c.parseError(err)
	}
	if c.flags.NArg() != want {
		if c.flags.NArg() > want {
			return nil, usageError(fmt.Sprintf("unexpected argument %q; want %s", c.flags.Arg(want), what))
		}
		return nil, usageError("want " + what)
	}
	return c.flags.Args(), nil
}

// parseError is the error of a failed c.flags.Parse: -h is no error.
func (c *invocation) parseError(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return exitStatus(0)
	}
	return exitStatus(2) // the flag package has told what is wrong
}

// exit runs the subcommand and returns its exit status.
func (c *invocation) exit() int {
	err := c.cmd.run(c)
	var status exitStatus
	var bad usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &status):
		return int(status)
	case errors.As(err, &bad):
		fmt.Fprintf(c.stderr, "pbemd %s: %v\n", c.cmd.name, err)
		c.usage()
		return 2
	default:
		fmt.Fprintf(c.stderr, "pbemd %s: %v\n", c.cmd.name, err)
		return 1
	}
}

// runRules is "pbemd rules": the rules tool parses its own arguments, since
// a game's options (-size=9) are flags only that game knows.
func runRules(c *invocation) error {
	if status := rulestool.Run(c.args, c.stdout, c.stderr); status != 0 {
		return exitStatus(status)
	}
	return nil
}
