package rulestest

import (
	"os"
	"strings"
	"testing"
)

// CheckMailText checks text that goes into mails as it is (a board diagram,
// a help text): 7-bit printable ASCII, lines under 78 columns, a final
// newline. name says which text in the errors.
func CheckMailText(t testing.TB, name, s string) {
	t.Helper()
	if !strings.HasSuffix(s, "\n") {
		t.Errorf("%s does not end in a newline", name)
	}
	for i, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if len(line) >= 78 {
			t.Errorf("%s line %d has %d columns: %q", name, i+1, len(line), line)
		}
		for _, c := range []byte(line) {
			if c < ' ' || c > '~' {
				t.Errorf("%s line %d has byte %#x, not 7-bit printable: %q", name, i+1, c, line)
				break
			}
		}
	}
}

// Golden compares got with the golden file at path. With update it first
// writes got there; whoever runs -update reads the file before committing.
func Golden(t testing.TB, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it, then read it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run with -update after checking):\n got:\n%s\nwant:\n%s", path, got, want)
	}
}
