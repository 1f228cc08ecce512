package rulestool

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules/ultima"
)

func run(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = Run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func startBoard(t *testing.T) string {
	t.Helper()
	pos, err := ultima.Game.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	return pos.Board()
}

func TestBoardIsTheDefault(t *testing.T) {
	want := startBoard(t) + "White to move.\n"
	for _, args := range [][]string{{"ultima"}, {"baroque"}, {"Ultima", "-board"}, {"baroque", "--board"}} {
		code, out, errOut := run(args...)
		if code != 0 || out != want || errOut != "" {
			t.Errorf("%q: exit %d\n%s\nstderr %q; want the start board", args, code, out, errOut)
		}
	}
}

func TestMovesAndStatus(t *testing.T) {
	code, out, _ := run("ultima", "e2-e5", "e7-e6")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(out, "\n")
	if !strings.Contains(out, " 5 | . . . . P . . . | 5") || !strings.Contains(out, " 6 | . . . . p . . . | 6") || lines[len(lines)-2] != "White to move." {
		t.Errorf("board after e2-e5 e7-e6:\n%s", out)
	}
}

func TestLegal(t *testing.T) {
	code, out, _ := run("ultima", "-legal")
	moves := strings.Fields(out)
	if code != 0 || len(moves) != 32 {
		t.Fatalf("exit %d, %d legal moves from the start, want 32:\n%s", code, len(moves), out)
	}
	for _, want := range []string{"Pa2-a3", "Pa2-a6", "Ph2-h6"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("-legal does not list %s", want)
		}
	}
}

func TestPerft(t *testing.T) {
	for _, args := range [][]string{{"ultima", "-perft", "2"}, {"baroque", "-perft=2"}, {"ultima", "--perft", "2"}} {
		if code, out, _ := run(args...); code != 0 || out != "944\n" {
			t.Errorf("%q: exit %d, %q; want 944", args, code, out)
		}
	}
	if code, out, _ := run("ultima", "-perft", "1", "e2-e5"); code != 0 || out != "29\n" {
		// After e2-e5 Black's e-pawn has one move, the others four each.
		t.Errorf("perft 1 after e2-e5: exit %d, %q; want 29", code, out)
	}
}

// TestOptionsAmongFlags: a game option may come before, between or after
// the tool's flags, and it changes the rules of the position.
func TestOptionsAmongFlags(t *testing.T) {
	const pos = "7k/8/3p4/8/8/3p4/3L4/K7 w"
	code, out, _ := run("ultima", "-position", pos, "-legal")
	if code != 0 || !strings.Contains(out, "Ld2-d5\n") || !strings.Contains(out, "Ld2-d8\n") {
		t.Fatalf("default rules: exit %d, the leaper may land anywhere after d3 and d6:\n%s", code, out)
	}
	for _, args := range [][]string{
		{"ultima", "-singleleap", "-position", pos, "-legal"},
		{"ultima", "-position", pos, "-singleleap", "-legal"},
		{"ultima", "-legal", "-position=" + pos, "-SingleLeap"},
	} {
		code, out, _ := run(args...)
		if code != 0 || !strings.Contains(out, "Ld2-d4\n") || strings.Contains(out, "Ld2-d5\n") || strings.Contains(out, "Ld2-d8\n") {
			t.Errorf("%q: exit %d; with -singleleap the leaper lands only on d4:\n%s", args, code, out)
		}
	}
	const stale = "7k/6I1/8/8/8/8/8/K7 b"
	if code, out, _ := run("ultima", "-position", stale, "-stalemate=draw"); code != 0 || !strings.HasSuffix(out, "Draw (stalemate).\n") {
		t.Errorf("-stalemate=draw: exit %d\n%s", code, out)
	}
	if code, out, _ := run("ultima", "-position", stale); code != 0 || !strings.HasSuffix(out, "White wins (stalemate).\n") {
		t.Errorf("default stalemate: exit %d\n%s", code, out)
	}
}

func TestBadOption(t *testing.T) {
	code, out, errOut := run("ultima", "-board", "-size=9", "e2-e5")
	want := `pbemd rules: "-size=9" is not an option; the options of Ultima are -singleleap -pure -stalemate=loss|draw` + "\n"
	if code != 1 || out != "" || errOut != want {
		t.Errorf("exit %d, stdout %q\nstderr %s\nwant %s", code, out, errOut, want)
	}
	code, _, errOut = run("ultima", "-stalemate=maybe")
	if code != 1 || !strings.Contains(errOut, `"-stalemate=maybe" has a value -stalemate does not take; write -stalemate=loss|draw`) {
		t.Errorf("exit %d, stderr %s", code, errOut)
	}
}

func TestIllegalMove(t *testing.T) {
	code, out, errOut := run("ultima", "e2-e5", "e7-e6", "d1-d4", "a2-a3")
	want := `pbemd rules: move 3 (index 2) "d1-d4" refused: no legal move from d1 to d4: the white pawn on d2 blocks the way` + "\n"
	if code != 1 || out != "" || errOut != want {
		t.Errorf("exit %d, stdout %q\nstderr %s\nwant %s", code, out, errOut, want)
	}
	code, out, _ = run("ultima", "-json", "e2-e5", "Le7-e6")
	var got Refusal
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("-json output %q: %v", out, err)
	}
	if code != 1 || got.Index == nil || *got.Index != 1 || got.Move != "Le7-e6" || got.Error != "e7 holds a pawn (P), not a long leaper (L)" {
		t.Errorf("exit %d, %+v", code, got)
	}
}

// TestDoubleDash: after -- every argument is a move, even one that looks
// like an option.
func TestDoubleDash(t *testing.T) {
	if code, out, _ := run("ultima", "-perft", "1", "--", "e2-e5"); code != 0 || out != "29\n" {
		t.Errorf("exit %d, %q; want 29", code, out)
	}
	code, _, errOut := run("ultima", "--", "e2-e5", "-pure")
	if code != 1 || !strings.Contains(errOut, `move 2 (index 1) "-pure" refused: not a move`) {
		t.Errorf("-pure after --: exit %d, stderr %s", code, errOut)
	}
}

func TestJSON(t *testing.T) {
	code, out, _ := run("baroque", "-json", "-perft", "1", "-board", "e2-e5")
	var got Report
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("exit %d, -json output %q: %v", code, out, err)
	}
	if code != 0 || got.Position != "clxwkxli/pppppppp/8/4P3/8/8/PPPP1PPP/ILXWKXLC b" || got.ToMove != "black" ||
		got.Result != "" || len(got.Legal) != 29 || got.Perft == nil || *got.Perft != 29 || got.Status != "Black to move." || !strings.Contains(got.Board, "a b c d e f g h") {
		t.Errorf("exit %d, %+v", code, got)
	}

	code, out, _ = run("ultima", "-json", "-position", "7k/6I1/6K1/8/8/8/8/8 w", "Kg6-h7")
	got.Legal = nil
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if code != 0 || got.Result != "white" || got.ToMove != "" || got.Legal == nil || len(got.Legal) != 0 {
		t.Errorf("after mate: exit %d, %s", code, out)
	}
}

func TestBadPosition(t *testing.T) {
	code, _, errOut := run("ultima", "-position", "8/8/8 w")
	want := `pbemd rules: "8/8/8 w": the position has 3 ranks; it needs 8, from rank 8 to rank 1, separated by /` + "\n"
	if code != 1 || errOut != want {
		t.Errorf("exit %d, stderr %s\nwant %s", code, errOut, want)
	}
}

func TestUsage(t *testing.T) {
	if code, _, errOut := run("chess"); code != 2 || !strings.Contains(errOut, `no game "chess"; games: ultima`) {
		t.Errorf("unknown game: exit %d, %s", code, errOut)
	}
	if code, _, errOut := run("ultima", "-perft", "x"); code != 2 || !strings.Contains(errOut, `-perft needs a depth of 0 or more, not "x"`) {
		t.Errorf("bad depth: exit %d, %s", code, errOut)
	}
	if code, out, _ := run("-h"); code != 0 || !strings.HasPrefix(out, "usage: pbemd rules GAME") {
		t.Errorf("-h: exit %d, %s", code, out)
	}
}
