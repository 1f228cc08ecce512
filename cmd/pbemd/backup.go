package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/pbemd/pbemd/pbem/daemon"
	"github.com/pbemd/pbemd/store"
)

// runBackup is "pbemd backup [-data DIR] FILE": it writes a consistent copy
// of the database to FILE, replacing FILE only once the copy is complete.
func runBackup(args []string) int {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	data := fs.String("data", "./pbem-data", "the data `directory` that holds "+store.FileName)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: pbemd backup [-data DIR] FILE\n\n"+
			"Copies DIR/%s to FILE, consistently, while the daemon runs or not:\n"+
			"a running daemon (which holds the database) sends the copy itself.\n\n", store.FileName)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "pbemd backup: want exactly one FILE to write the copy to")
		fs.Usage()
		return 2
	}
	out := fs.Arg(0)
	db, err := store.Open(store.PathIn(*data), &store.Options{ReadOnly: true, LockTimeout: 200 * time.Millisecond})
	if errors.Is(err, store.ErrLocked) {
		// A daemon holds the database: it makes the copy.
		if ferr := daemon.FetchBackup(*data, out); ferr != nil {
			fmt.Fprintf(os.Stderr, "pbemd backup: %v, and %v\n", err, ferr)
			return 1
		}
		fmt.Printf("pbemd backup: the running daemon copied %s to %s\n", store.PathIn(*data), out)
		return 0
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "pbemd backup: %v\n", err)
		return 1
	}
	err = db.BackupFile(out)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "pbemd backup: %v\n", err)
		return 1
	}
	fmt.Printf("pbemd backup: copied %s to %s\n", db.Path(), out)
	return 0
}
