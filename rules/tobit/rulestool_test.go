package tobit_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules/rulestool"
	"github.com/pbemd/pbemd/rules/tobit"
)

func runTool(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = rulestool.Run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestRulesTool(t *testing.T) {
	start, _ := tobit.Game.Start(nil)

	t.Run("board", func(t *testing.T) {
		code, out, errOut := runTool(t, "tobit", "-board")
		if code != 0 || errOut != "" {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		if want := start.Board() + "White to move.\n"; out != want {
			t.Errorf("output\n%s\nwant\n%s", out, want)
		}
	})

	t.Run("moves and legal", func(t *testing.T) {
		code, out, errOut := runTool(t, "tobit", "-legal", "9-16", "28-21")
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		pos := start.Clone()
		pos.Play("9-16")
		pos.Play("28-21")
		if got, want := strings.Fields(out), pos.Legal(); !reflect.DeepEqual(got, want) {
			t.Errorf("-legal printed %q, want %q", got, want)
		}
	})

	t.Run("perft", func(t *testing.T) {
		code, out, errOut := runTool(t, "tobit", "-perft", "3")
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		if want := strconv.FormatUint(start.Perft(3), 10) + "\n"; out != want {
			t.Errorf("-perft 3 printed %q, want %q", out, want)
		}
	})

	t.Run("json from a position", func(t *testing.T) {
		text := layout("w", "w14", "b21", "b29", "b38")
		code, out, errOut := runTool(t, "tobit", "-position", text, "-json", "-perft", "1", "14x30")
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		var got rulestool.Report
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v in %s", err, out)
		}
		want := layout("b", "w30", "b38")
		if got.Position != want || got.ToMove != "black" || got.Result != "" ||
			!reflect.DeepEqual(got.Legal, []string{"38-32"}) || got.Perft == nil || *got.Perft != 1 {
			t.Errorf("json %+v, want position %s, black to move, legal [38-32], perft 1", got, want)
		}
	})

	t.Run("game over", func(t *testing.T) {
		code, out, _ := runTool(t, "tobit", "-position", layout("w", "w15", "b22"), "-json", "15x29")
		if code != 0 || !strings.Contains(out, `"result": "white"`) {
			t.Errorf("exit %d, output %s", code, out)
		}
	})

	t.Run("illegal move", func(t *testing.T) {
		code, out, errOut := runTool(t, "tobit", "9-16", "28-21", "16-9")
		if code != 1 || out != "" {
			t.Fatalf("exit %d, stdout %q", code, out)
		}
		want := `pbemd rules: move 3 (index 2) "16-9" refused: ` +
			"a hul never steps backward; the White hul on 16 may step to 23 or 17 or 15\n"
		if errOut != want {
			t.Errorf("stderr\n got %q\nwant %q", errOut, want)
		}
	})

	t.Run("capture is compulsory", func(t *testing.T) {
		code, out, _ := runTool(t, "tobit", "-json", "9-16", "30-23", "10-17")
		var got rulestool.Refusal
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v in %s", err, out)
		}
		if code != 1 || got.Index == nil || *got.Index != 2 || got.Error != "capture is compulsory: 16x30" {
			t.Errorf("exit %d, json %+v", code, got)
		}
	})

	t.Run("bad position", func(t *testing.T) {
		code, _, errOut := runTool(t, "tobit", "-position", "wwww w")
		if code != 1 || !strings.Contains(errOut, "the position has 4 points, want 38") {
			t.Errorf("exit %d, stderr %q", code, errOut)
		}
	})
}
