package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules/catalog"
)

func robotRun(args ...string) (int, string, string) {
	var out, errs bytes.Buffer
	code := robotTool(args, &out, &errs)
	return code, out.String(), errs.String()
}

// TestRobotTool: the printed move is legal in the position given, the same
// for the same seed and node budget; a Taratibu answer is the rest of the
// turn; options among the flags apply.
func TestRobotTool(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args      []string
		game      string
		opts      []string
		position  string
		wantMoves int
	}{
		{[]string{"ultima", "-nodes", "500"}, "ultima", nil, "", 1},
		{[]string{"tanbo", "-size=9", "-level", "2", "-nodes", "300"}, "tanbo", []string{"-size=9"}, "", 1},
		{[]string{"taratibu", "-nodes", "300", "-position", "dmfabes/htc4/7/7/7/4CTH/SEBAFMD b 2 0 -"}, "taratibu", nil, "dmfabes/htc4/7/7/7/4CTH/SEBAFMD b 2 0 -", 2},
		{[]string{"tobit", "-level", "1"}, "tobit", nil, "", 1},
	}
	for _, tt := range tests {
		code, out, errs := robotRun(tt.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.args, code, errs)
		}
		again, out2, _ := robotRun(tt.args...)
		if again != 0 || out2 != out {
			t.Errorf("%v: %q then %q", tt.args, out, out2)
		}
		g, _ := catalog.Lookup(tt.game)
		opts := map[string]string{}
		for _, o := range tt.opts {
			name, v, _ := strings.Cut(o[1:], "=")
			opts[name] = v
		}
		pos, err := g.Start(opts)
		if tt.position != "" {
			pos, err = g.ParsePosition(tt.position, opts)
		}
		if err != nil {
			t.Fatal(err)
		}
		move := strings.TrimSpace(out)
		if n := len(strings.Fields(move)); n != tt.wantMoves {
			t.Errorf("%v: %q is %d moves, want %d", tt.args, move, n, tt.wantMoves)
		}
		if _, err := pos.Play(move); err != nil {
			t.Errorf("%v: %q is not legal: %v", tt.args, move, err)
		}
	}
}

func TestRobotToolRefusals(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "name a game first"},
		{[]string{"-level", "2"}, 2, "name a game first"},
		{[]string{"ultima", "-nosuch"}, 2, "-nosuch"},
		{[]string{"ultima", "stray"}, 2, `unexpected argument "stray"`},
		{[]string{"chess"}, 2, `no robot plays "chess"`},
		{[]string{"ultima", "-level", "4"}, 2, "levels are 1 to 3"},
		{[]string{"ultima", "-size=9"}, 2, "flag provided but not defined: -size"},
		{[]string{"ultima", "-position", "8/8 w"}, 1, "needs 8"},
		{[]string{"ultima", "-position", "6Ik/8/8/8/8/8/8/K7 b"}, 1, "the game is over"},
	} {
		code, out, errs := robotRun(tt.args...)
		if code != tt.code || out != "" || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", tt.args, code, out, errs, tt.code, tt.want)
		}
	}
}

func TestRobotToolHelp(t *testing.T) {
	t.Parallel()
	code, out, errs := robotRun("-h")
	if code != 0 || errs != "" || !strings.Contains(out, "usage: pbemd robot GAME") {
		t.Errorf("-h: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
