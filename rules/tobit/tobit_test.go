package tobit_test

import (
	"flag"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/rulestest"
	"github.com/pbemd/pbemd/rules/tobit"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// layout builds a position text from pieces written as letter and point,
// "w14" or "B30", with side "w" or "b" to move.
func layout(side string, pieces ...string) string {
	b := []byte(strings.Repeat(".", 38))
	for _, pc := range pieces {
		n, err := strconv.Atoi(pc[1:])
		if err != nil {
			panic(pc)
		}
		b[n-1] = pc[0]
	}
	return string(b) + " " + side
}

func parse(t *testing.T, text string) rules.Position {
	t.Helper()
	pos, err := tobit.Game.ParsePosition(text, nil)
	if err != nil {
		t.Fatalf("ParsePosition(%q): %v", text, err)
	}
	return pos
}

func sorted(s []string) []string {
	s = append([]string(nil), s...)
	sort.Strings(s)
	return s
}

func TestVectors(t *testing.T) { rulestest.RunVectors(t, tobit.Game) }

func TestGame(t *testing.T) {
	g := tobit.Game
	if g.Name() != "tobit" || g.Title() != "Tobit" || g.Sides() != [2]string{"White", "Black"} {
		t.Errorf("game is %q %q %v", g.Name(), g.Title(), g.Sides())
	}
	pos, err := g.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pos.String(), "wwwwwwwwwwww..............bbbbbbbbbbbb w"; got != want {
		t.Errorf("start is %q, want %q", got, want)
	}
	if pos.ToMove() != 0 || pos.Result().Over {
		t.Errorf("start: to move %d, result %+v", pos.ToMove(), pos.Result())
	}
}

// TestRules checks hand-made positions: the complete set of legal moves,
// and the move that is played with what it captures and leaves.
func TestRules(t *testing.T) {
	tests := []struct {
		name     string
		position string
		legal    []string
		play     string   // a move to play, may be shorthand
		move     string   // its canonical form
		captured []string // the points it captures
		after    string   // the position after it
	}{
		{
			name:     "capture is compulsory over a plain move",
			position: layout("w", "w9", "w15", "b22", "b38"),
			legal:    []string{"15x29"},
			play:     "15x29", move: "15x29", captured: []string{"22"},
			after: layout("b", "w9", "w29", "b38"),
		},
		{
			name:     "a White hul captures backward",
			position: layout("w", "w22", "b15", "b38"),
			legal:    []string{"22x8"},
			play:     "22x8", move: "22x8", captured: []string{"15"},
			after: layout("b", "w8", "b38"),
		},
		{
			name:     "a Black hul captures backward",
			position: layout("b", "b15", "w22", "w1"),
			legal:    []string{"15x29"},
			play:     "15x29", move: "15x29", captured: []string{"22"},
			after: layout("w", "b29", "w1"),
		},
		{
			name:     "a hul captures sideways",
			position: layout("w", "w8", "b9", "b38"),
			legal:    []string{"8x10"},
			play:     "8x10", move: "8x10", captured: []string{"9"},
			after: layout("b", "w10", "b38"),
		},
		{
			name:     "two jumps, written in shorthand",
			position: layout("w", "w14", "b21", "b29", "b38"),
			legal:    []string{"14x28x30"},
			play:     "14x30", move: "14x28x30", captured: []string{"21", "29"},
			after: layout("b", "w30", "b38"),
		},
		{
			name:     "the shorter of two sequences may be chosen",
			position: layout("w", "w15", "b16", "b22", "b30", "b32"),
			legal:    []string{"15x17", "15x29x31x33"},
			play:     "15x17", move: "15x17", captured: []string{"16"},
			after: layout("b", "w17", "b22", "b30", "b32"),
		},
		{
			name:     "the longer of two sequences may be chosen",
			position: layout("w", "w15", "b16", "b22", "b30", "b32"),
			legal:    []string{"15x17", "15x29x31x33"},
			play:     "15x29x31x33", move: "15x29x31x33", captured: []string{"22", "30", "32"},
			after: layout("b", "w33", "b16"),
		},
		{
			name: "a tobit flies to capture and lands on any empty point " +
				"beyond before the next piece",
			position: layout("w", "W6", "b9", "w12", "b38"),
			legal:    []string{"6x10", "6x11"},
			play:     "6x11", move: "6x11", captured: []string{"9"},
			after: layout("b", "W11", "w12", "b38"),
		},
		{
			name:     "a tobit may land where its capture ends or where it goes on",
			position: layout("w", "W6", "b9", "w12", "b25"),
			legal:    []string{"6x10", "6x11x32", "6x11x38"},
			play:     "6x32", move: "6x11x32", captured: []string{"9", "25"},
			after: layout("b", "w12", "W32"),
		},
		{
			name:     "pieces on endpoints cannot be captured",
			position: layout("w", "W23", "w7", "b6", "B1", "b36"),
			legal: []string{"7-14", "7-8", "23-16", "23-20", "23-21", "23-22",
				"23-24", "23-25", "23-26", "23-3", "23-30", "23-9"},
			play: "23-3", move: "23-3",
			after: layout("b", "W3", "w7", "b6", "B1", "b36"),
		},
		{
			name:     "a hul promoted in mid-capture ends its capture",
			position: layout("w", "w20", "b21", "b29", "b8"),
			legal:    []string{"20x22x35"},
			play:     "20x35", move: "20x22x35", captured: []string{"21", "29"},
			after: layout("b", "W35", "b8"),
		},
		{
			name:     "a tobit may not turn back 180 degrees between jumps",
			position: layout("w", "W8", "b7", "b10"),
			legal:    []string{"8x11", "8x12", "8x6"},
			play:     "8x12", move: "8x12", captured: []string{"10"},
			after: layout("b", "b7", "W12"),
		},
		{
			name:     "captured pieces leave at once, so a loop may pass its start",
			position: layout("w", "w14", "b15", "b21", "b23", "b29"),
			legal:    []string{"14x16x30x28x14", "14x28x30x16x14"},
			play:     "14x28x30x16x14", move: "14x28x30x16x14", captured: []string{"21", "29", "23", "15"},
			after: layout("b", "w14"),
		},
		{
			name:     "a hul steps forward and sideways, a tobit slides",
			position: layout("w", "w16", "w17", "W13", "b38"),
			legal: []string{"13-14", "13-15", "16-15", "16-23", "17-18",
				"17-24"},
			play: "13-15", move: "13-15",
			after: layout("b", "w16", "w17", "W15", "b38"),
		},
		{
			name:     "a hul is promoted on stepping to the far endpoints",
			position: layout("b", "b7", "b6", "W38"),
			legal:    []string{"7-1", "7-8"},
			play:     "7-1", move: "7-1",
			after: layout("w", "B1", "b6", "W38"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos := parse(t, tt.position)
			if got := pos.Legal(); !reflect.DeepEqual(sorted(got), sorted(tt.legal)) {
				t.Errorf("legal moves\n got %q\nwant %q", got, tt.legal)
			}
			rulestest.CheckLegal(t, pos)
			steps, err := pos.Play(tt.play)
			if err != nil {
				t.Fatalf("Play(%q): %v", tt.play, err)
			}
			want := []rules.Step{{Move: tt.move, Captured: tt.captured}}
			if !reflect.DeepEqual(steps, want) {
				t.Errorf("Play(%q) = %#v, want %#v", tt.play, steps, want)
			}
			if got := pos.String(); got != tt.after {
				t.Errorf("after %s\n got %s\nwant %s", tt.play, got, tt.after)
			}
		})
	}
}

// TestMoveErrors checks refused moves and their exact texts, and that a
// refused move leaves the position as it was.
func TestMoveErrors(t *testing.T) {
	start := "wwwwwwwwwwww..............bbbbbbbbbbbb w"
	const form = "write a step like 9-16 or a capture like 14x16x30"
	tests := []struct {
		position, move, err string
	}{
		{start, "", "a move is a step like 9-16 or a capture like 14x16x30"},
		{start, "9", `"9": a move names at least two points; ` + form},
		{start, "9-", `"9-": a move is points joined by - or x; ` + form},
		{start, "9--16", `"9--16": a move is points joined by - or x; ` + form},
		{start, "x9x16", `"x9x16": a move is points joined by - or x; ` + form},
		{start, "9-16-23", `"9-16-23": a step goes from one point to another, like 9-16; ` +
			`a capture writes x between its landing points, like 14x16x30`},
		{start, "9-16x23", `"9-16x23": a move joins its points with - for a step or x for a capture, not both`},
		{start, "9-40", `"9-40": 40 is not a point; points are 1 to 38`},
		{start, "0-7", `"0-7": 0 is not a point; points are 1 to 38`},
		{start, "009-16", `"009-16": 009 is not a point; points are 1 to 38`},
		{start, "9.16", `"9.16": '.' is not part of a move; ` + form},
		{start, "e2-e4", `"e2-e4": 'e' is not part of a move; ` + form},
		{start, "9 - 16", `"9 - 16": ' ' is not part of a move; ` + form},
		{start, "20-21", `"20-21": point 20 is empty`},
		{start, "28-21", `"28-21": the piece on 28 is Black's; White is to move`},
		{start, "9-2", `"9-2": point 2 is occupied`},
		{start, "7-15", `"7-15": no line runs from 7 to 15`},
		{start, "9-23", `"9-23": a hul steps one point at a time; the White hul on 9 may step to 16`},
		{start, "9x16", `"9x16": there is nothing to capture; legal moves: 7-14, 8-15, 9-16, 10-17, 11-18`},
		{layout("w", "w16", "b38"), "16-9",
			`"16-9": a hul never steps backward; the White hul on 16 may step to 23 or 17 or 15`},
		{layout("w", "W6", "w8", "b38"), "6-9", `"6-9": the White hul on 8 blocks the way`},
		{layout("w", "w9", "w15", "b22", "b38"), "9-16", `"9-16": capture is compulsory: 15x29`},
		{layout("w", "w9", "w15", "b22", "b38"), "15-29", `"15-29": capture is compulsory: 15x29`},
		{layout("w", "w9", "w15", "b22", "b38"), "9x23",
			`"9x23": the White hul on 9 has nothing to capture; captures are compulsory: 15x29`},
		{layout("w", "w9", "w15", "b22", "b38"), "15x22", `"15x22": point 22 is occupied`},
		{layout("w", "w14", "b21", "b29", "b38"), "14x28",
			`"14x28": the capture must go on while it can: 14x28x30`},
		{layout("w", "w14", "b21", "b29", "b38"), "14x28x36",
			`"14x28x36": no line runs from 28 to 36`},
		{layout("w", "w14", "b21", "b29", "b38"), "14x28x30x32",
			`"14x28x30x32": the jump 30x32 captures nothing`},
		{layout("w", "w14", "b21", "b29", "b38"), "14x20",
			`"14x20": no capture of the White hul on 14 ends on 20; its captures: 14x28x30`},
		{layout("w", "w7", "b14"), "7x28",
			`"7x28": a hul captures only a piece next to it, landing just beyond it`},
		{layout("w", "W8", "b7", "b10"), "8x11x6",
			`"8x11x6": a piece may not turn back 180 degrees between two jumps, as it does on 11`},
		{layout("w", "W6", "b9", "b10", "b7"), "6x11",
			`"6x11": the jump 6x11 passes over 3 pieces; a jump captures one`},
		{layout("w", "W9", "w11", "b10", "b16"), "9x12",
			`"9x12": the jump 9x12 passes over the White hul on 11`},
		{layout("w", "w20", "b21", "b29", "b8"), "20x22x35x2",
			`"20x22x35x2": the hul was promoted on 35, which ends the capture there`},
		{layout("w", "w14", "b15", "b21", "b23", "b29"), "14x14",
			`"14x14": 14x14 is ambiguous: it could be 14x16x30x28x14 or 14x28x30x16x14; write the whole path`},
		{layout("b", "b6", "w7", "w8"), "6-7", `"6-7": the game is over (Black cannot move)`},
	}
	for _, tt := range tests {
		pos := parse(t, tt.position)
		_, err := pos.Play(tt.move)
		if err == nil {
			t.Errorf("%s: Play(%q) accepted", tt.position, tt.move)
			continue
		}
		if err.Error() != tt.err {
			t.Errorf("%s: Play(%q)\n got %s\nwant %s", tt.position, tt.move, err, tt.err)
		}
		if pos.String() != tt.position {
			t.Errorf("refused %q changed the position to %s", tt.move, pos.String())
		}
	}
}

func TestPositionErrors(t *testing.T) {
	const format = "a position is 38 characters for points 1 to 38 (w W b B or .), " +
		"a space and the side to move (w or b)"
	start := "wwwwwwwwwwww..............bbbbbbbbbbbb"
	tests := []struct{ text, err string }{
		{"", format},
		{start, `"` + start + `": ` + format},
		{start + " w x", `"` + start + ` w x": ` + format},
		{"wwww w", `"wwww w": the position has 4 points, want 38; ` + format},
		{"wwwwxwwwwwww..............bbbbbbbbbbbb w",
			`"wwwwxwwwwwww..............bbbbbbbbbbbb w": point 5 holds 'x'; a point holds w, W, b, B or .`},
		{start + " white", `"` + start + ` white": the side to move is "white"; write w or b`},
		{layout("b", "w36"),
			`"` + layout("b", "w36") + `": a White hul on point 36 would have been promoted; write W for a tobit`},
		{layout("w", "b3"),
			`"` + layout("w", "b3") + `": a Black hul on point 3 would have been promoted; write B for a tobit`},
		{"wwwwwwwwwwwww.............bbbbbbbbbbbb w",
			`"wwwwwwwwwwwww.............bbbbbbbbbbbb w": White has 13 pieces; a side has at most 12`},
	}
	for _, tt := range tests {
		_, err := tobit.Game.ParsePosition(tt.text, nil)
		if err == nil {
			t.Errorf("ParsePosition(%q) accepted", tt.text)
			continue
		}
		if err.Error() != tt.err {
			t.Errorf("ParsePosition(%q)\n got %s\nwant %s", tt.text, err, tt.err)
		}
	}
}

func TestResult(t *testing.T) {
	tests := []struct {
		position string
		want     rules.Result
	}{
		{layout("b", "b6", "w7", "w8"), rules.Win(0, "Black cannot move")},
		{layout("w", "w1", "b7", "b14"), rules.Win(1, "White cannot move")},
		{layout("b", "w7"), rules.Win(0, "Black has no pieces")},
		{layout("w", "B7"), rules.Win(1, "White has no pieces")},
		{layout("w", "w1", "b38"), rules.Ongoing},
	}
	for _, tt := range tests {
		pos := parse(t, tt.position)
		if got := pos.Result(); got != tt.want {
			t.Errorf("%s: result %+v, want %+v", tt.position, got, tt.want)
		}
		if tt.want.Over && (len(pos.Legal()) != 0 || pos.Perft(1) != 0) {
			t.Errorf("%s: game over but moves %q", tt.position, pos.Legal())
		}
	}

	// Taking the last piece wins.
	pos := parse(t, layout("w", "w15", "b22"))
	if _, err := pos.Play("15x29"); err != nil {
		t.Fatal(err)
	}
	if got, want := pos.Result(), rules.Win(0, "Black has no pieces"); got != want {
		t.Errorf("after taking the last piece: %+v, want %+v", got, want)
	}
}

func TestRepetition(t *testing.T) {
	start := layout("w", "W13", "B26")
	pos := parse(t, start)
	moves := []string{"13-14", "26-25", "14-13", "25-26", "13-14", "26-25", "14-13", "25-26"}
	for i, m := range moves {
		if r := pos.Result(); r.Over {
			t.Fatalf("over before move %d: %+v", i, r)
		}
		if i == len(moves)-1 {
			// The last move makes the third occurrence: perft from here
			// counts it as a move, but nothing after it.
			fresh := parse(t, pos.String())
			drawn := parse(t, start)
			if got, want := pos.Perft(2), fresh.Perft(2)-drawn.Perft(1); got != want {
				t.Errorf("Perft(2) before the third occurrence = %d, want %d", got, want)
			}
			if pos.Perft(1) != fresh.Perft(1) {
				t.Errorf("Perft(1) = %d, want %d", pos.Perft(1), fresh.Perft(1))
			}
		}
		if _, err := pos.Play(m); err != nil {
			t.Fatalf("move %d %q: %v", i, m, err)
		}
	}
	if got, want := pos.Result(), rules.Drawn("threefold repetition"); got != want {
		t.Fatalf("result %+v, want %+v", got, want)
	}
	if pos.String() != start {
		t.Fatalf("position %s, want %s", pos.String(), start)
	}
	if len(pos.Legal()) != 0 || pos.Perft(1) != 0 {
		t.Errorf("drawn game still has moves %q", pos.Legal())
	}
	if _, err := pos.Play("13-14"); err == nil || !strings.Contains(err.Error(), "the game is over (threefold repetition)") {
		t.Errorf("move after the draw: %v", err)
	}
	// Reading the position starts a fresh history.
	if r := parse(t, pos.String()).Result(); r.Over {
		t.Errorf("read back, the position is over: %+v", r)
	}
	// A clone keeps the history.
	if r := pos.Clone().Result(); !r.Over {
		t.Errorf("clone lost the history: %+v", r)
	}
}

func TestCloneIsIndependent(t *testing.T) {
	pos, _ := tobit.Game.Start(nil)
	c := pos.Clone()
	if _, err := c.Play("9-16"); err != nil {
		t.Fatal(err)
	}
	if pos.String() == c.String() {
		t.Errorf("playing on the clone changed the original: %s", pos.String())
	}
	if _, err := pos.Play("7-14"); err != nil {
		t.Fatal(err)
	}
	if c.String() != "wwwwwwww.www...w..........bbbbbbbbbbbb b" {
		t.Errorf("clone is %s", c.String())
	}
}

// positions is a set of positions for the legality checks: the start, the
// hand-made ones and some from play.
var positions = []string{
	"wwwwwwwwwwww..............bbbbbbbbbbbb w",
	layout("w", "w9", "w15", "b22", "b38"),
	layout("w", "w14", "b21", "b29", "b38"),
	layout("w", "w15", "b16", "b22", "b30", "b32"),
	layout("w", "W6", "b9", "w12", "b25"),
	layout("w", "W23", "w7", "b6", "B1", "b36"),
	layout("w", "w20", "b21", "b29", "b8"),
	layout("w", "W8", "b7", "b10"),
	layout("w", "w14", "b15", "b21", "b23", "b29"),
	layout("b", "B20", "B9", "b31", "w22", "w24", "W15", "w17", "w10"),
	"w.wWw.w.b.w...b..w..Bb.w..b....b..bW.. b",
}

func TestCheckLegal(t *testing.T) {
	for _, text := range positions {
		t.Run(text, func(t *testing.T) { rulestest.CheckLegal(t, parse(t, text)) })
	}
}

func TestBoardGolden(t *testing.T) {
	tests := []struct{ name, position string }{
		{"start", "wwwwwwwwwwww..............bbbbbbbbbbbb w"},
		{"tobits", layout("b", "W6", "B1", "w12", "B36", "b27", "w33", "W38")},
	}
	for _, tt := range tests {
		got := parse(t, tt.position).Board()
		rulestest.Golden(t, filepath.Join("testdata", tt.name+".golden"), got, *update)
		rulestest.CheckMailText(t, tt.name+" board", got)
	}
}

func TestHelp(t *testing.T) {
	h := tobit.Game.Help()
	rulestest.CheckMailText(t, "help", h)
	for _, want := range []string{"9-16", "14x16x30", "14x30", "tobit move 101 alice secret", "Options: none"} {
		if !strings.Contains(h, want) {
			t.Errorf("help does not mention %q", want)
		}
	}
}

func FuzzParsePosition(f *testing.F) {
	for _, p := range positions {
		f.Add(p)
	}
	f.Add("wwww w")
	f.Add(" wwwwwwwwwwww..............bbbbbbbbbbbb\tb ")
	f.Fuzz(func(t *testing.T, text string) {
		rulestest.CheckPositionText(t, tobit.Game, nil, text)
	})
}

func FuzzPlay(f *testing.F) {
	for _, m := range []string{"9-16", "14x30", "14x28x30", "15X29", " 8x11 ", "6x32", "20x36", "9--16", "x", "14x14"} {
		f.Add(m)
	}
	var ps []rules.Position
	for _, text := range positions {
		pos, err := tobit.Game.ParsePosition(text, nil)
		if err != nil {
			f.Fatal(err)
		}
		ps = append(ps, pos)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, pos := range ps {
			rulestest.CheckMoveText(t, pos, text)
		}
	})
}

// FuzzGame plays games chosen by the fuzzer's bytes and checks every
// position on the way: legal moves play back, positions read back, and the
// result agrees with the moves.
func FuzzGame(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte("the quick brown fox jumps over the lazy dog, twice over"))
	f.Fuzz(func(t *testing.T, choices []byte) {
		if len(choices) > 200 {
			choices = choices[:200] // a long game, not a slow one
		}
		pos, _ := tobit.Game.Start(nil)
		for _, c := range choices {
			legal := pos.Legal()
			if r := pos.Result(); r.Over != (len(legal) == 0) {
				t.Fatalf("%s: result %+v with %d moves", pos, r, len(legal))
			}
			if len(legal) == 0 {
				return
			}
			rulestest.CheckLegal(t, pos)
			rulestest.CheckPositionText(t, tobit.Game, nil, pos.String())
			if _, err := pos.Play(legal[int(c)%len(legal)]); err != nil {
				t.Fatal(err)
			}
		}
	})
}
