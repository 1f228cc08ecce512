package main

import (
	"errors"
	"flag"
	"fmt"
	"os"

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
			"Copies DIR/%s to FILE. The database is opened read-only, so this\n"+
			"works while the daemon is stopped; several backups may run at once.\n\n", store.FileName)
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
	db, err := store.Open(store.PathIn(*data), &store.Options{ReadOnly: true})
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
