package main

import (
	"regexp"
	"strings"
	"testing"
)

// pbemd alone, pbemd help, -h, --help and help CMD print the usage with
// examples to standard output and exit 0; a wrong use exits 2.
func TestHelpExitStatus(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{nil, {"help"}, {"-h"}, {"-help"}, {"--help"}} {
		code, stdout, stderr := pbemd(t, "", args...)
		if code != 0 || !strings.Contains(stdout, "usage: pbemd SUBCOMMAND") || !strings.Contains(stdout, "Exit status:") || stderr != "" {
			t.Errorf("pbemd %q: exit %d, stdout\n%s\nstderr\n%s", args, code, stdout, stderr)
		}
		for _, c := range commands {
			if !strings.Contains(stdout, "pbemd "+c.name+" ") {
				t.Errorf("pbemd %q does not list %s", args, c.name)
			}
		}
	}
	for _, c := range commands {
		for _, args := range [][]string{{"help", c.name}, {c.name, "-h"}, {c.name, "--help"}} {
			code, stdout, _ := pbemd(t, "", args...)
			if code != 0 || !strings.Contains(stdout, "usage: pbemd "+c.name) && !strings.Contains(stdout, "pbemd rules") {
				t.Errorf("pbemd %q: exit %d, stdout\n%s", args, code, stdout)
			}
		}
	}
	if code, _, stderr := pbemd(t, "", "admin", "frobnicate"); code != 2 || !strings.Contains(stderr, `no action "frobnicate"`) {
		t.Errorf("admin frobnicate: exit %d, stderr\n%s", code, stderr)
	}
}

// pbemd version names the module version and the Go that built it.
func TestVersion(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := pbemd(t, "", "version")
	if code != 0 || !regexp.MustCompile(`^pbemd \S+ \(.+\) go1\.\d+`).MatchString(stdout) {
		t.Errorf("version: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
