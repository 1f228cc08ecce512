package rulestool

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules/tanbo"
)

func writeRecord(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "game.pgn")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// replay prints the final board, position and result of a record.
func TestReplayPrintsTheEnd(t *testing.T) {
	path := writeRecord(t, `[Game "tanbo"]
[Options "-size=9"]
[Result "1-0"]
[Termination "alice resigned"]

1. h7 b7 {well} 2. b3 1-0
`)
	code, out, errOut := run("replay", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	pos, _ := tanbo.Game.Start(map[string]string{"size": "9"})
	for _, m := range []string{"h7", "b7", "b3"} {
		if _, err := pos.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	want := pos.Board() + "Position: " + pos.String() + "\nResult: 1-0 White wins (alice resigned)\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// An illegal move is refused by its number and the rules' reason, exit 1;
// so is a record of no game, and a file that is too large.
func TestReplayRefuses(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[Game \"tanbo\"]\n[Options \"-size=9\"]\n\n1. h7 b7 2. a1 *", `move 3 "a1" is illegal`},
		{"1. e2-e5 *", "no Game tag"},
		{"[Game \"chess\"]\n\n*", `names "chess"`},
		{"[Game \"tanbo\"]\n\n1. b7 (2. c3) *", "line 3"},
	} {
		code, out, errOut := run("replay", writeRecord(t, c.text))
		if code != 1 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 1 and %q", c.text, code, out, errOut, c.want)
		}
	}
	if code, _, errOut := run("replay", writeRecord(t, strings.Repeat("x", 1<<20+1))); code != 1 || !strings.Contains(errOut, "larger than a record") {
		t.Errorf("a large file: exit %d, %s", code, errOut)
	}
	if code, _, errOut := run("replay", filepath.Join(t.TempDir(), "none.pgn")); code != 1 || !strings.Contains(errOut, "none.pgn") {
		t.Errorf("a missing file: exit %d, %s", code, errOut)
	}
	if code, _, _ := run("replay"); code != 2 {
		t.Errorf("no file: exit %d, want 2", code)
	}
}

// "-" reads the record from standard input.
func TestReplayStdin(t *testing.T) {
	var out, errOut bytes.Buffer
	code := replay([]string{"-"}, strings.NewReader("[Game \"ultima\"]\n\n1. Pa2-a3 *\n"), &out, &errOut)
	if code != 0 || !strings.Contains(out.String(), "Result: * (not over)") {
		t.Errorf("exit %d: %s%s", code, out.String(), errOut.String())
	}
}
