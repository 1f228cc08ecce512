package rulestest

import (
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records whether an error was reported.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true }
func (r *recorder) Fatal(...any)          { r.failed = true }

func TestCheckMailText(t *testing.T) {
	cases := []struct {
		text string
		ok   bool
	}{
		{"a board\n  a b c\n", true},
		{"no newline", false},
		{"a tab\there\n", false},
		{"caf\xc3\xa9\n", false},
		{strings.Repeat("x", 78) + "\n", false},
		{strings.Repeat("x", 77) + "\n", true},
	}
	for _, c := range cases {
		r := &recorder{TB: t}
		CheckMailText(r, "text", c.text)
		if r.failed == c.ok {
			t.Errorf("CheckMailText(%q) failed=%v, want %v", c.text, r.failed, !c.ok)
		}
	}
}

func TestGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.golden")
	r := &recorder{TB: t}
	Golden(r, path, "board\n", false)
	if !r.failed {
		t.Errorf("a missing golden file passed")
	}
	r = &recorder{TB: t}
	Golden(r, path, "board\n", true)
	Golden(r, path, "board\n", false)
	if r.failed {
		t.Errorf("a golden file written by -update did not match")
	}
	Golden(r, path, "other\n", false)
	if !r.failed {
		t.Errorf("a different output matched")
	}
}
