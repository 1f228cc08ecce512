package main

import (
	"fmt"
	"runtime/debug"
)

// runVersion is "pbemd version": the module version and the VCS revision
// the binary was built from, as the Go toolchain recorded them.
func runVersion(c *invocation) error {
	if _, err := c.parse(0, "no arguments"); err != nil {
		return err
	}
	fmt.Fprintln(c.stdout, versionLine())
	return nil
}

// versionLine is "pbemd VERSION (REVISION[, modified] DATE) GOVERSION".
func versionLine() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "pbemd (no build information)"
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var rev, at, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	if rev == "" {
		rev = "unknown revision"
	}
	line := fmt.Sprintf("pbemd %s (%s%s", version, rev, modified)
	if at != "" {
		line += " " + at
	}
	return line + ") " + info.GoVersion
}
