package taratibu_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules/rulestool"
)

// runTool runs "pbemd rules" with args and returns its exit status and output.
func runTool(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := rulestool.Run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestToolBoard(t *testing.T) {
	// Each turn is one argument, spaces and all.
	code, out, errOut := runTool(t, append([]string{"taratibu", "-board"}, sampleGame[:3]...)...)
	p := start(t)
	play(t, p, sampleGame[:3]...)
	if want := p.Board() + "Black to move.\n"; code != 0 || out != want {
		t.Errorf("exit %d, stderr %q, stdout\n%s\nwant\n%s", code, errOut, out, want)
	}
	// -board is the default.
	if code, out2, _ := runTool(t, append([]string{"taratibu"}, sampleGame[:3]...)...); code != 0 || out2 != out {
		t.Errorf("without -board: exit %d, stdout\n%s", code, out2)
	}
}

func TestToolSampleGame(t *testing.T) {
	code, out, errOut := runTool(t, append([]string{"taratibu"}, sampleGame...)...)
	if code != 0 || !strings.HasSuffix(out, "\nWhite wins (Man and all winged pieces taken).\n") {
		t.Errorf("exit %d, stderr %q, stdout\n%s", code, errOut, out)
	}
}

func TestToolLegalAndPerft(t *testing.T) {
	code, out, _ := runTool(t, "taratibu", "-legal", "-perft", "3", "7264", "4765")
	p := start(t)
	play(t, p, "7264", "4765")
	want := strings.Join(p.Legal(), "\n") + "\n" + fmt.Sprint(refParse(t, p.String()).perft(3)) + "\n"
	if code != 0 || out != want {
		t.Errorf("exit %d, stdout\n%s\nwant\n%s", code, out, want)
	}
	if !strings.Contains(out, "\n6564\n") {
		t.Errorf("the Angel's capture of the Hero, 6564, is not listed:\n%s", out)
	}
}

func TestToolPosition(t *testing.T) {
	pos := setup("M63 e64 m77 s11", "w 3 0 -")
	code, out, errOut := runTool(t, "taratibu", "-position", pos, "-json", "6364")
	var got rulestool.Report
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
		t.Fatalf("exit %d, stderr %q, %v in\n%s", code, errOut, err, out)
	}
	// The Man captured and may not move again: White's turn ends early.
	if got.Position != setup("M64 m77 s11", "b 4 0 -") || got.ToMove != "black" || got.Result != "" || len(got.Legal) == 0 {
		t.Errorf("json %+v", got)
	}
}

func TestToolJSON(t *testing.T) {
	code, out, errOut := runTool(t, "taratibu", "-json", "-perft", "2", "--", "7264")
	var got struct {
		Position string   `json:"position"`
		ToMove   string   `json:"to_move"`
		Result   *string  `json:"result"`
		Legal    []string `json:"legal"`
		Perft    *uint64  `json:"perft"`
	}
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
		t.Fatalf("exit %d, stderr %q, %v in\n%s", code, errOut, err, out)
	}
	p := start(t)
	play(t, p, "7264")
	ref := refParse(t, p.String())
	if got.Position != "dmfabes/htc4/7/5H1/7/4CT1/SEBAFMD b 2 0 -" || got.ToMove != "black" ||
		got.Result == nil || *got.Result != "" || len(got.Legal) != int(ref.perft(1)) ||
		got.Perft == nil || *got.Perft != ref.perft(2) {
		t.Errorf("json %s", out)
	}
}

func TestToolIllegalMove(t *testing.T) {
	args := []string{"taratibu", "7264", "4765 6564", "3153 5364 9953"}
	code, out, errOut := runTool(t, args...)
	want := `pbemd rules: move 3 (index 2) "3153 5364 9953" refused: move 3 of 3 "9953": 99 is not a square; a square is file and rank, each 1 to 7, from 11 to 77` + "\n"
	if code != 1 || out != "" || errOut != want {
		t.Errorf("exit %d, stdout %q, stderr\n%s\nwant\n%s", code, out, errOut, want)
	}
	// The vector's second-move-after-capture, as JSON.
	args = append([]string{"taratibu", "-json"}, sampleGame[:5]...)
	args = append(args, "6543 4321 2133")
	code, out, _ = runTool(t, args...)
	var got rulestool.Refusal
	if err := json.Unmarshal([]byte(out), &got); code != 1 || err != nil {
		t.Fatalf("exit %d, %v in %s", code, err, out)
	}
	wantErr := `move 3 of 3 "2133": the Sphinx on 21 has already captured this turn and may not move again`
	if got.Index == nil || *got.Index != 5 || got.Move != "6543 4321 2133" || got.Error != wantErr {
		t.Errorf("json %+v, want index 5 and error %q", got, wantErr)
	}
	// Too many moves for the turn.
	code, _, errOut = runTool(t, "taratibu", "7264 4765")
	if want := `pbemd rules: move 1 (index 0) "7264 4765" refused: 2 moves given, but White has only 1 move left in turn 1` + "\n"; code != 1 || errOut != want {
		t.Errorf("exit %d, stderr %q, want %q", code, errOut, want)
	}
}
