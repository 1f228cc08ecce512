package taratibu_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/rulestest"
	"github.com/pbemd/pbemd/rules/taratibu"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// sampleGame is the seed's sample game, one turn a submission.
var sampleGame = []string{
	"7264",
	"4765 6564",
	"3153 5364 5232",
	"1735 7765 3533 3311",
	"4163 6345 4527 5131 3111",
	"6543 6755 4321 5564 2647 4727",
	"3231 3121 7153 5335 3557",
}

func start(t testing.TB) rules.Position {
	t.Helper()
	p, err := taratibu.Game.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func parse(t testing.TB, text string) rules.Position {
	t.Helper()
	p, err := taratibu.Game.ParsePosition(text, nil)
	if err != nil {
		t.Fatalf("ParsePosition(%q): %v", text, err)
	}
	return p
}

func play(t testing.TB, p rules.Position, moves ...string) {
	t.Helper()
	for _, m := range moves {
		if _, err := p.Play(m); err != nil {
			t.Fatalf("Play(%q): %v", m, err)
		}
	}
}

// setup writes a position from pieces given as letter and square, "M23 c53",
// and the rest of the position format, "w 3 0 -".
func setup(pieces, rest string) string {
	var cells [7][7]byte // [rank-1][file-1]
	for r := range cells {
		for f := range cells[r] {
			cells[r][f] = '.'
		}
	}
	for _, p := range strings.Fields(pieces) {
		cells[p[2]-'1'][p[1]-'1'] = p[0]
	}
	rows := make([]string, 7)
	for r := 6; r >= 0; r-- {
		rows[6-r] = rules.CompressRow(string(cells[r][:]))
	}
	return strings.Join(rows, "/") + " " + rest
}

func TestVectors(t *testing.T) { rulestest.RunVectors(t, taratibu.Game) }

func TestStart(t *testing.T) {
	p := start(t)
	if got, want := p.String(), "dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 1 0 -"; got != want {
		t.Errorf("start position %q, want %q", got, want)
	}
	if p.Perft(0) != 1 || p.Perft(-1) != 0 {
		t.Errorf("perft(0) = %d, perft(-1) = %d; want 1 and 0", p.Perft(0), p.Perft(-1))
	}
	if p.ToMove() != 0 || p.Result().Over {
		t.Errorf("start: to move %d, result %+v; want White to move, game on", p.ToMove(), p.Result())
	}
	g := taratibu.Game
	if g.Name() != "taratibu" || g.Title() != "Taratibu" || g.Sides() != [2]string{"White", "Black"} {
		t.Errorf("game is %q %q %q", g.Name(), g.Title(), g.Sides())
	}
}

func TestSampleGame(t *testing.T) {
	p := start(t)
	play(t, p, sampleGame[:6]...)
	// Turn 7: White wins with the fifth of seven moves, taking the Bird,
	// Black's last winged piece; the Man went in turn 5.
	wantTaken := []string{"", "21", "", "", "57"}
	for i, m := range strings.Fields(sampleGame[6]) {
		if r := p.Result(); r.Over {
			t.Fatalf("game over (%+v) before move %d of turn 7", r, i+1)
		}
		steps, err := p.Play(m)
		if err != nil {
			t.Fatalf("turn 7 move %d %q: %v", i+1, m, err)
		}
		if got := strings.Join(steps[0].Captured, " "); len(steps) != 1 || got != wantTaken[i] {
			t.Errorf("turn 7 move %d %q: steps %v, want one taking %q", i+1, m, steps, wantTaken[i])
		}
	}
	if r := p.Result(); r != rules.Win(0, "Man and all winged pieces taken") {
		t.Errorf("result %+v, want White's win by the winged order", r)
	}
	if got := rules.Status(taratibu.Game, p); got != "White wins (Man and all winged pieces taken)." {
		t.Errorf("status %q", got)
	}
	if legal := p.Legal(); len(legal) != 0 || p.Perft(1) != 0 {
		t.Errorf("after the win: legal %q, perft(1) %d; want none", legal, p.Perft(1))
	}
	if _, err := p.Play("6364"); err == nil || err.Error() != `"6364": the game is over (White won); no more moves can be played` {
		t.Errorf("move after the end: %v", err)
	}
	// The finished game reads back finished.
	q := parse(t, p.String())
	if q.Result() != p.Result() || q.String() != p.String() {
		t.Errorf("finished game %q reads back as %q, %+v", p.String(), q.String(), q.Result())
	}
}

func TestSampleGameSteps(t *testing.T) {
	p := start(t)
	play(t, p, sampleGame[:4]...)
	steps, err := p.Play(sampleGame[4])
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range steps {
		got = append(got, s.String())
	}
	want := "4163 6345 4527 (takes 27) 5131 3111 (takes 11)"
	if strings.Join(got, " ") != want {
		t.Errorf("steps %q, want %q", strings.Join(got, " "), want)
	}
}

func TestWins(t *testing.T) {
	// White's Man on 23 takes Black's Man on 33; White's Captain on 53
	// leaps to 55 and takes the piece there. Black's other pieces sit on
	// rank 7 and 17, out of the way.
	tests := []struct {
		name   string
		pieces string
		moves  []string
		want   rules.Result
		after  []rules.Result // result after each single move
	}{
		{
			name:   "aquatic: Man, then the Turtle, the last aquatic piece",
			pieces: "M23 C53 m33 t55 s17 e27 b37 a47 h57",
			moves:  []string{"2333", "5355"},
			after:  []rules.Result{rules.Ongoing, rules.Win(0, "Man and all aquatic pieces taken")},
		},
		{
			name:   "quadruped: the Hero, the last quadruped piece, then the Man",
			pieces: "M23 C53 m33 h55 b17 a27 f37 d47 c57",
			moves:  []string{"5355", "2333"},
			after:  []rules.Result{rules.Ongoing, rules.Win(0, "Man and all quadruped pieces taken")},
		},
		{
			name:   "winged: Man, then the Duck, the last winged piece",
			pieces: "M23 C53 m33 d55 e17 f27 c37 t47 h57",
			moves:  []string{"2333", "5355"},
			after:  []rules.Result{rules.Ongoing, rules.Win(0, "Man and all winged pieces taken")},
		},
		{
			name:   "the Man alone wins nothing",
			pieces: "M23 C53 m33 t55 s17 e27 b37 a47 h57 f67 d77 c16",
			moves:  []string{"2333", "5355"},
			after:  []rules.Result{rules.Ongoing, rules.Ongoing},
		},
		{
			name:   "a whole order without the Man wins nothing",
			pieces: "M23 C53 m43 d55 e17 f27 c37 t47 h57",
			moves:  []string{"5355", "2333"},
			after:  []rules.Result{rules.Ongoing, rules.Ongoing},
		},
		{
			name:   "the Turtle ends two orders at once",
			pieces: "M23 C53 m33 t55 b17 a27",
			moves:  []string{"2333", "5355"},
			after:  []rules.Result{rules.Ongoing, rules.Win(0, "Man and all aquatic and quadruped pieces taken")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := parse(t, setup(tt.pieces, "w 3 0 -"))
			for i, m := range tt.moves {
				play(t, p, m)
				if got := p.Result(); got != tt.after[i] {
					t.Errorf("after %q: result %+v, want %+v", m, got, tt.after[i])
				}
			}
		})
	}
}

func TestBlackWins(t *testing.T) {
	// Black, in turn 4, takes White's Man on 44 and the Duck on 66, White's
	// last aquatic piece, with its third move; the fourth is never played.
	p := parse(t, setup("m34 c64 M44 D66 S11 E21 B31 A41 H51", "b 4 0 -"))
	steps, err := p.Play("3444 6466")
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 2 || p.Result() != rules.Win(1, "Man and all aquatic pieces taken") {
		t.Errorf("steps %v, result %+v; want Black's win", steps, p.Result())
	}
	if got := p.String(); got != setup("m44 c66 S11 E21 B31 A41 H51", "b 4 2 44,66") {
		t.Errorf("position %q", got)
	}
}

func TestCapturedPieceMayNotMoveAgain(t *testing.T) {
	p := parse(t, setup("H72 M11 e64 m77", "w 3 0 -"))
	play(t, p, "7264")
	if got, want := p.String(), setup("H64 M11 m77", "w 3 1 64"); got != want {
		t.Fatalf("after the capture %q, want %q", got, want)
	}
	_, err := p.Play("6465")
	if want := `"6465": the Hero on 64 has already captured this turn and may not move again`; err == nil || err.Error() != want {
		t.Errorf("moving the Hero again: %v, want %s", err, want)
	}
	for _, m := range p.Legal() {
		if strings.HasPrefix(m, "64") {
			t.Errorf("legal move %s moves the Hero that captured", m)
		}
	}
	// Other pieces still move; the turn ends and the Hero is free again.
	play(t, p, "1112 1211", "7776 7677 7776 7677")
	if got, want := p.String(), setup("H64 M11 m77", "w 5 0 -"); got != want {
		t.Fatalf("two turns later %q, want %q", got, want)
	}
	play(t, p, "6465")
}

func TestSplitTurn(t *testing.T) {
	whole := start(t)
	play(t, whole, sampleGame[:6]...)
	splits := [][]string{
		{"6543", "6755", "4321", "5564", "2647", "4727"},
		{"6543 6755", "4321,5564", "2647, 4727"},
		{"6543 6755 4321 5564 2647", "4727"},
		{" 6543,,6755\t4321 ", "5564 2647 4727,"},
	}
	for _, parts := range splits {
		p := start(t)
		play(t, p, sampleGame[:5]...)
		for i, part := range parts {
			if p.ToMove() != 1 {
				t.Fatalf("%q: White to move before part %d; Black's turn 6 is not done", parts, i)
			}
			play(t, p, part)
		}
		if p.ToMove() != 0 || p.String() != whole.String() {
			t.Errorf("turn split as %q gives %q (to move %d), the whole turn %q", parts, p.String(), p.ToMove(), whole.String())
		}
	}
}

func TestRefusedSubmissionChangesNothing(t *testing.T) {
	p := start(t)
	play(t, p, sampleGame[:5]...)
	play(t, p, "6543")
	before := p.String()
	_, err := p.Play("6755 4321 2133")
	want := `"6755 4321 2133": move 3 of 3 "2133": the Sphinx on 21 has already captured this turn and may not move again`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	if p.String() != before {
		t.Errorf("refused submission changed %q to %q", before, p.String())
	}
}

func TestTurnEndsEarly(t *testing.T) {
	// White's only piece, the Man, captures with the first of three moves:
	// it may not move again, so turn 3 ends and Black's turn 4 begins.
	p := parse(t, setup("M63 e64 m77 s11", "w 3 0 -"))
	before := p.String()
	_, err := p.Play("6364 6454")
	want := `"6364 6454": move 2 of 2 "6454": turn 3 ended after move 1 because White had no legal move left`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	if p.String() != before {
		t.Errorf("refused submission changed the position to %q", p.String())
	}
	play(t, p, "6364")
	if got, want := p.String(), setup("M64 m77 s11", "b 4 0 -"); got != want || p.ToMove() != 1 {
		t.Errorf("after the capture %q, want %q", got, want)
	}
	// A position written in the middle of such a turn reads as the rules
	// go on from it.
	q := parse(t, setup("M64 m77 s11", "w 3 1 64"))
	if got, want := q.String(), setup("M64 m77 s11", "b 4 0 -"); got != want {
		t.Errorf("stuck position reads as %q, want %q", got, want)
	}
}

func TestDrawAfterTurn10(t *testing.T) {
	p := parse(t, setup("M11 S17 m77 s71", "b 10 8 -"))
	play(t, p, "7766")
	if p.Result().Over {
		t.Fatalf("game over after move 9 of turn 10: %+v", p.Result())
	}
	if got := p.Perft(2); got != 0 {
		t.Errorf("perft(2) with one move left = %d, want 0", got)
	}
	play(t, p, "6677")
	if got := p.Result(); got != rules.Drawn("turn 10 ended") {
		t.Errorf("result %+v, want a draw", got)
	}
	if got := rules.Status(taratibu.Game, p); got != "Draw (turn 10 ended)." {
		t.Errorf("status %q", got)
	}
	if got, want := p.String(), setup("M11 S17 m77 s71", "b 10 10 -"); got != want {
		t.Errorf("position %q, want %q", got, want)
	}
	if q := parse(t, p.String()); q.Result() != p.Result() {
		t.Errorf("drawn position reads back as %+v", q.Result())
	}
	_, err := p.Play("7766")
	if want := `"7766": the game is over (turn 10 ended in a draw); no more moves can be played`; err == nil || err.Error() != want {
		t.Errorf("move after the draw: %v", err)
	}
}

func TestWholeGameToDraw(t *testing.T) {
	// Two Men walk about for ten turns without capturing: 55 single moves,
	// then a draw.
	p := parse(t, setup("M11 m77", "w 1 0 -"))
	played := 0
	for turn := 1; turn <= 10; turn++ {
		if p.Result().Over || p.ToMove() != (turn+1)%2 {
			t.Fatalf("before turn %d: result %+v, to move %d", turn, p.Result(), p.ToMove())
		}
		for i := 0; i < turn; i++ {
			quiet := ""
			for _, m := range p.Legal() {
				if !strings.Contains(p.String(), "M") || !strings.Contains(p.String(), "m") {
					t.Fatal("a Man was taken")
				}
				if steps, _ := p.Clone().Play(m); len(steps[0].Captured) == 0 {
					quiet = m
					break
				}
			}
			play(t, p, quiet)
			played++
		}
	}
	if played != 55 || p.Result() != rules.Drawn("turn 10 ended") {
		t.Errorf("after %d single moves: result %+v, want a draw after 55", played, p.Result())
	}
}

func TestMoveErrors(t *testing.T) {
	won := parse(t, setup("M23 C53 m33 t55 s17 e27 b37 a47 h57", "w 3 0 -"))
	tests := []struct {
		pos  rules.Position
		move string
		want string
	}{
		{start(t), "", `no move given; a move is four digits FRfr such as 7264, and several are separated by spaces or commas`},
		{start(t), " , ", `" , ": no move given; a move is four digits FRfr such as 7264, and several are separated by spaces or commas`},
		{start(t), "726", `"726": a move is four digits FRfr (from square, to square) such as 7264, not 3 characters`},
		{start(t), "72644", `"72644": a move is four digits FRfr (from square, to square) such as 7264, not 5 characters`},
		{start(t), "72-64", `"72-64": a move is four digits FRfr (from square, to square) such as 7264, not 5 characters`},
		{start(t), "72a4", `"72a4": a move is four digits FRfr (from square, to square) such as 7264; 'a' is not a digit`},
		{start(t), "8264", `"8264": 82 is not a square; a square is file and rank, each 1 to 7, from 11 to 77`},
		{start(t), "7208", `"7208": 08 is not a square; a square is file and rank, each 1 to 7, from 11 to 77`},
		{start(t), "7270", `"7270": 70 is not a square; a square is file and rank, each 1 to 7, from 11 to 77`},
		{start(t), "4344", `"4344": 43 is empty; White must move one of its own pieces`},
		{start(t), "7765", `"7765": the piece on 77 is Black's Sphinx; White moves only its own pieces`},
		{start(t), "7272", `"7272": the move starts and ends on 72; a piece must move to another square`},
		{start(t), "7262", `"7262": the Hero on 72 cannot move onto 62: White's own Turtle stands there`},
		{start(t), "7263", `"7263": the Hero on 72 cannot reach 63: a Hero is human (one step orthogonally) and quadruped (a knight's leap)`},
		{start(t), "1113", `"1113": the Sphinx on 11 cannot reach 13: a Sphinx is winged (a leap of exactly two squares diagonally) and quadruped (a knight's leap)`},
		{start(t), "5152", `"5152": the Fish on 51 cannot reach 52: a Fish is aquatic (a leap of exactly two squares orthogonally) and basic (one step diagonally)`},
		{start(t), "6162", `"6162": the Man on 61 cannot move onto 62: White's own Turtle stands there`},
		{start(t), "7264 6456", `"7264 6456": 2 moves given, but White has only 1 move left in turn 1`},
		{start(t), "7264,", ``},
		{won, "2333 5355 1112", `"2333 5355 1112": move 3 of 3 "1112": the game ended with move 2 (White won); no moves may follow`},
		{won, "2333 5355x", `"2333 5355x": move 2 of 2 "5355x": a move is four digits FRfr (from square, to square) such as 7264, not 5 characters`},
		{won, "2333 2333", `"2333 2333": move 2 of 2 "2333": 23 is empty; White must move one of its own pieces`},
	}
	for _, tt := range tests {
		p := tt.pos.Clone()
		before := p.String()
		_, err := p.Play(tt.move)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("Play(%q):\n got %s\nwant %s", tt.move, got, tt.want)
		}
		if err != nil && p.String() != before {
			t.Errorf("Play(%q) was refused but changed %q to %q", tt.move, before, p.String())
		}
	}
}

func TestPositionErrors(t *testing.T) {
	tests := []struct{ text, want string }{
		{"", `a position has 5 fields (board, side to move, turn, moves made, squares that captured) such as "dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 1 0 -"; this has 0`},
		{"dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 1 0", `a position has 5 fields (board, side to move, turn, moves made, squares that captured) such as "dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 1 0 -"; this has 4`},
		{"dmfabes/htc4/7/7/7/4CTH w 1 0 -", `the board has 6 ranks; it needs 7, from rank 7 to rank 1, separated by /`},
		{"dmfabes/htc4/7/7/7/4CTH/SEBAFMX w 1 0 -", `rank 1: row "SEBAFMX" has 'X'; a row holds the letters S E B A F M D C T H s e b a f m d c t h, '.' and digits`},
		{"dmfabes/htc4/7/7/7/4CTH/SEBAFMDS w 1 0 -", `rank 1: row "SEBAFMDS" is longer than 7 points`},
		{"dmfabes/htc4/6/7/7/4CTH/SEBAFMD w 1 0 -", `rank 5: row "6" has 6 points, want 7`},
		{"dmfabes/htc4/7/7/7/4CTS/SEBAFMD w 1 0 -", `White has two Sphinxs (S); each side has at most one piece of each kind`},
		{"dmfabes/htc4/7/7/7/4CTH/SEBAFMD x 1 0 -", `the side to move is w or b, not "x"`},
		{"dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 0 0 -", `the turn is a number from 1 to 10, not "0"`},
		{"dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 11 0 -", `the turn is a number from 1 to 10, not "11"`},
		{"dmfabes/htc4/7/7/7/4CTH/SEBAFMD b 1 0 -", `turn 1 is White's (White plays odd turns, Black even ones), not Black's`},
		{"dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 4 0 -", `turn 4 is Black's (White plays odd turns, Black even ones), not White's`},
		{"dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 1 1 -", `moves made in turn 1 is a number from 0 to 0, not "1"`},
		{"dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 3 -1 -", `moves made in turn 3 is a number from 0 to 2, not "-1"`},
		{"dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 3 2 88", `"88" is not a square; the pieces that captured this turn are given by squares 11 to 77, separated by commas, or - for none`},
		{"dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 3 2 11,", `"" is not a square; the pieces that captured this turn are given by squares 11 to 77, separated by commas, or - for none`},
		{"dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 3 2 77", `square 77 is listed as having captured this turn, but holds no piece of White, the side to move`},
		{"dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 3 2 44", `square 44 is listed as having captured this turn, but holds no piece of White, the side to move`},
		{"dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 3 2 11,11", `square 11 is listed twice among the squares that captured`},
		{"dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 3 1 11,21", `more pieces are listed as having captured this turn (2) than moves were made in it (1)`},
		{"dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 3 0 11", `more pieces are listed as having captured this turn (1) than moves were made in it (0)`},
		{setup("S11 s77", "w 3 0 -"), `both sides have lost their Man and a whole order; only one side can have won`},
	}
	for _, tt := range tests {
		_, err := taratibu.Game.ParsePosition(tt.text, nil)
		want := (&rules.Error{Input: tt.text, Msg: tt.want}).Error()
		if err == nil || err.Error() != want {
			t.Errorf("ParsePosition(%q):\n got %v\nwant %s", tt.text, err, want)
		}
	}
}

func TestPositionRoundTrip(t *testing.T) {
	tests := []struct{ in, out string }{
		{"dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 1 0 -", "dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 1 0 -"},
		{"dmfabes/htc4/7/7/7/4CTH/SEBAFMD  w  5 2  21,11", "dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 5 2 11,21"},
		{"dmfabes/htc..../7/7/7/4CTH/SEBAFMD b 10 9 -", "dmfabes/htc4/7/7/7/4CTH/SEBAFMD b 10 9 -"},
	}
	for _, tt := range tests {
		if got := parse(t, tt.in).String(); got != tt.out {
			t.Errorf("%q prints as %q, want %q", tt.in, got, tt.out)
		}
	}
}

// positions are the start, every position of the sample game after each
// single move, and a few made-up ones.
func positions(t testing.TB) []rules.Position {
	p := start(t)
	out := []rules.Position{p.Clone()}
	for _, turn := range sampleGame {
		for _, m := range strings.Fields(turn) {
			play(t, p, m)
			out = append(out, p.Clone())
		}
	}
	for _, text := range []string{
		setup("M23 C53 m33 t55 s17 e27 b37 a47 h57", "w 3 0 -"),
		setup("M63 e64 m77 s11", "w 3 0 -"),
		setup("M11 S17 m77 s71", "b 10 8 -"),
		setup("S44 E45 B46 A54 F55 M56 D64 C65 T66 H34 s43 e33 b53 a35 m47 c27", "w 9 4 -"),
	} {
		out = append(out, parse(t, text))
	}
	return out
}

func TestLegal(t *testing.T) {
	for _, p := range positions(t) {
		rulestest.CheckLegal(t, p)
	}
}

func TestLegalStart(t *testing.T) {
	// Counted by hand from the seed's table: Sphinx 3 (2332 33), Elk 5,
	// Bird 4, Angel 3, Fish 2, Man 0, Duck 2, Captain 4, Turtle 5, Hero 3.
	want := strings.Fields(`1123 1132 1133 2112 2113 2132 2133 2142 3113 3122 3142 3153
		4123 4142 4163 5142 5153 7153 7173 5232 5242 5253 5254 6242 6243 6254 6264 6274
		7253 7264 7273`)
	sort.Strings(want)
	got := start(t).Legal()
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("legal moves at the start\n got %q\nwant %q", got, want)
	}
}

func TestPerftAgainstReference(t *testing.T) {
	for i, p := range positions(t) {
		d := 3
		if i == 0 && !testing.Short() {
			d = 4 // a million sequences over four turns
		}
		r := refParse(t, p.String())
		for n := 1; n <= d; n++ {
			if got, want := p.Perft(n), r.perft(n); got != want {
				t.Errorf("%s: perft(%d) = %d, reference %d", p.String(), n, got, want)
				break
			}
		}
	}
}

func TestClone(t *testing.T) {
	p := start(t)
	q := p.Clone()
	play(t, q, "7264")
	if p.String() == q.String() || p.ToMove() != 0 {
		t.Errorf("playing on a clone changed the original: %q", p.String())
	}
	before := p.String()
	p.Perft(3)
	p.Legal()
	p.Board()
	if p.String() != before {
		t.Errorf("Perft, Legal or Board changed the position to %q", p.String())
	}
}

func TestBoard(t *testing.T) {
	var b strings.Builder
	show := func(title string, p rules.Position) {
		fmt.Fprintf(&b, "== %s\n%s\n%s\n", title, p.String(), p.Board())
	}
	p := start(t)
	show("start", p)
	play(t, p, sampleGame[:4]...)
	play(t, p, "4163 6345 4527")
	show("sample game, turn 5 after 3 moves", p)
	play(t, p, "5131 3111", sampleGame[5], sampleGame[6])
	show("sample game won", p)
	d := parse(t, setup("M11 S17 m77 s71", "b 10 10 -"))
	show("draw", d)
	got := b.String()
	rulestest.CheckMailText(t, "boards", got)
	rulestest.Golden(t, filepath.Join("testdata", "board.golden"), got, *update)
}

func TestHelp(t *testing.T) {
	h := taratibu.Game.Help()
	rulestest.CheckMailText(t, "help", h)
	// The example in the help must be a legal turn of the sample game.
	i := strings.Index(h, "taratibu move 101 alice secret ")
	if i < 0 {
		t.Fatal("help has no example move command")
	}
	example := strings.SplitN(h[i+len("taratibu move 101 alice secret "):], "\n", 2)[0]
	p := start(t)
	play(t, p, sampleGame[:2]...)
	play(t, p, example)
}

func FuzzPlay(f *testing.F) {
	for _, s := range append(append([]string{}, sampleGame...), "", "7264,", "72a4", "8264 1111", "1123 2311", "7264 6456 ,,") {
		f.Add(uint8(0), s)
	}
	f.Add(uint8(23), "6543 4321 2133")
	f.Add(uint8(40), "3557 3111")
	ps := positions(f)
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		rulestest.CheckMoveText(t, ps[int(which)%len(ps)], text)
	})
}

func FuzzParsePosition(f *testing.F) {
	for _, p := range positions(f) {
		f.Add(p.String())
	}
	for _, s := range []string{"", "7/7/7/7/7/7/7 w 1 0 -", "dmfabes/htc4/7/7/7/4CTH/SEBAFMD w 3 2 11,21", "m6/7/7/7/7/7/6M b 10 10 -", "1/2/3 w 1 0 -"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rulestest.CheckPositionText(t, taratibu.Game, nil, text)
	})
}

// BenchmarkPerft6 counts the 6-move sequences from the start. Leaves are
// counted, not made, so nodes/s counts sequences; makes/s counts the moves
// actually made and taken back (one per sequence of length 1 to 5).
func BenchmarkPerft6(b *testing.B) {
	p := start(b)
	var makes uint64
	for d := 1; d <= 5; d++ {
		makes += p.Perft(d)
	}
	var n uint64
	for b.Loop() {
		n = p.Perft(6)
	}
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(n)*float64(b.N)/secs, "nodes/s")
	b.ReportMetric(float64(makes)*float64(b.N)/secs, "makes/s")
}
