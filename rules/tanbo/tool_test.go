package tanbo_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules/rulestool"
)

// run runs "pbemd rules" with args and returns its exit status and output.
func run(args ...string) (status int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	status = rulestool.Run(args, &out, &errOut)
	return status, out.String(), errOut.String()
}

func TestToolBoard(t *testing.T) {
	golden, err := os.ReadFile("testdata/start9.golden")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"tanbo", "-size=9"},
		{"tanbo", "-size=9", "-board"},
		{"Tanbo", "-board", "-size=9"},
	} {
		status, out, errOut := run(args...)
		if want := string(golden) + "Black to move.\n"; status != 0 || out != want || errOut != "" {
			t.Errorf("%q: status %d, stdout\n%s\nstderr %q; want 0 and\n%s", args, status, out, errOut, want)
		}
	}
}

func TestToolPlays(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		// Legal lists a1, b1, ..., a2, ...: rank by rank from the bottom.
		{[]string{"tanbo", "-size=9", "-legal"}, "b1\na2\nc2\nb3\nh7\ng8\ni8\nh9\n"},
		{[]string{"tanbo", "-size=9", "-perft", "2"}, "64\n"},
		{[]string{"tanbo", "-perft=1"}, "24\n"},
		{[]string{"tanbo", "-size=13", "-perft", "1"}, "24\n"},
		// White's a1 is gone; Black keeps b1 a2 a3.
		{[]string{"tanbo", "-position", "...../...../b..../...../wb... b", "-board", "A2"},
			"    a b c d e\n" +
				" 5  . . . . .  5\n" +
				" 4  . . . . .  4\n" +
				" 3  X . . . .  3\n" +
				" 2  X . . . .  2\n" +
				" 1  . X . . .  1\n" +
				"    a b c d e\n" +
				"X Black (3 stones)   O White (0 stones)\n" +
				"Black wins (no stones left).\n"},
		{[]string{"tanbo", "-size=9", "-legal", "--", "g8", "a8"}, "b1\na2\nc2\nb3\ng7\nh7\nf8\ni8\ng9\nh9\n"},
	}
	for _, tt := range tests {
		status, out, errOut := run(tt.args...)
		if status != 0 || out != tt.want || errOut != "" {
			t.Errorf("%q: status %d, stdout\n%s\nstderr %q; want 0 and\n%s", tt.args, status, out, errOut, tt.want)
		}
	}
}

func TestToolJSON(t *testing.T) {
	status, out, _ := run("tanbo", "-size=9", "-json", "-perft", "1", "g8")
	if status != 0 {
		t.Fatalf("status %d, output %s", status, out)
	}
	var got rulestool.Report
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	want := "........./.w....bb./........./........./........./........./........./.b.....w./......... w"
	if got.Position != want || got.ToMove != "white" || got.Result != "" || got.Perft == nil || *got.Perft != 8 ||
		strings.Join(got.Legal, " ") != "h1 g2 i2 h3 b7 a8 c8 b9" {
		t.Errorf("json %+v, want position %s, white to move, no result, perft 8, legal h1 g2 i2 h3 b7 a8 c8 b9", got, want)
	}

	status, out, _ = run("tanbo", "-json", "-position", "...../...../w..../.w.../bw... b", "a2")
	if status != 0 || !strings.Contains(out, `"result": "white"`) || !strings.Contains(out, `"to_move": ""`) {
		t.Errorf("self-bounded last root: status %d, json %s; want result white", status, out)
	}
}

func TestToolRefuses(t *testing.T) {
	tests := []struct {
		args   []string
		status int
		stderr string
	}{
		{[]string{"tanbo", "-size=9", "g8", "e5"}, 1,
			`pbemd rules: move 2 (index 1) "e5" refused: e5 touches 0 white stones; a new white stone must touch exactly 1 white stone, up, down, left or right` + "\n"},
		{[]string{"tanbo", "-size=9", "z9"}, 1,
			`pbemd rules: move 1 (index 0) "z9" refused: z9 is off the board; points are a1 to i9` + "\n"},
		{[]string{"tanbo", "-position", "5/5/5/w4/bw3 w"}, 1,
			`pbemd rules: "5/5/5/w4/bw3 w": the black root at a1 (1 stone) has no liberty; a position may not hold a bounded root` + "\n"},
		{[]string{"tanbo", "-size=7"}, 1,
			`pbemd rules: "-size=7" has a value -size does not take; write -size=19|13|9` + "\n"},
	}
	for _, tt := range tests {
		status, _, errOut := run(tt.args...)
		if status != tt.status || (tt.stderr != "" && errOut != tt.stderr) {
			t.Errorf("%q: status %d, stderr\n%s\nwant %d and\n%s", tt.args, status, errOut, tt.status, tt.stderr)
		}
	}

	status, out, _ := run("tanbo", "-json", "-size=9", "g8", "e5")
	var got rulestool.Refusal
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if status != 1 || got.Index == nil || *got.Index != 1 || got.Move != "e5" || !strings.HasPrefix(got.Error, "e5 touches 0 white stones") {
		t.Errorf("json refusal: status %d, %+v; want 1 naming index 1, e5", status, got)
	}
}
