// Command gendoc makes the command tables of docs/commands.md anew from the
// service's command table; "go generate ./pbem" runs it:
//
//	go run ./internal/gendoc ../docs/commands.md
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/pbemd/pbemd/pbem"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gendoc FILE (the docs/commands.md to make current)")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "gendoc:", err)
		os.Exit(1)
	}
}

func run(name string) error {
	doc, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	out, err := pbem.CommandsDoc(doc)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if bytes.Equal(out, doc) {
		return nil
	}
	return os.WriteFile(name, out, 0o644)
}
