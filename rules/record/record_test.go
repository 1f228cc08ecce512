package record_test

import (
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/rules/record"
)

// played plays up to n moves of g from its start, choosing among the legal
// moves by a fixed stride, and returns them as a record's moves with the
// final position.
func played(t *testing.T, g rules.Game, opts []string, n int) ([]record.Move, rules.Position) {
	t.Helper()
	o, err := rules.ParseOptions(g, opts)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := g.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	var moves []record.Move
	for i := 0; i < n && !pos.Result().Over; i++ {
		legal := pos.Legal()
		if len(legal) == 0 {
			break
		}
		m := legal[(i*7+3)%len(legal)]
		seat := pos.ToMove()
		if _, err := pos.Play(m); err != nil {
			t.Fatalf("%s: legal move %q refused: %v", g.Name(), m, err)
		}
		moves = append(moves, record.Move{Text: m, Seat: seat})
	}
	return moves, pos
}

// Every game's record, written and read back, replays to the position the
// moves reached, with its comments (hostile ones too) intact.
func TestWriteParseReplayEveryGame(t *testing.T) {
	for _, g := range catalog.All() {
		t.Run(g.Name(), func(t *testing.T) {
			var opts []string
			if g.Name() == "tanbo" {
				opts = []string{"-size=9"}
			}
			moves, want := played(t, g, opts, 120)
			sides := record.SideTags(g)
			r := &record.Record{
				Tags: []record.Tag{
					{"Event", g.Title() + " Board 101"}, {"Game", g.Name()},
					{sides[0], "alice"}, {sides[1], `bob "the \ brave"`},
					{"Options", strings.Join(opts, " ")},
					{"Result", record.ResultText(g, want.Result())},
				},
				Moves: moves,
				Comments: []record.Comment{
					{0, "good luck"},
					{1, "a brace } 1-0 { [Result \"0-1\"] and a backslash \\x7d \\"},
					{len(moves), "gg"},
				},
			}
			text := r.String()
			for i, line := range strings.Split(text, "\n") {
				if len(line) > record.LineWidth && !strings.HasPrefix(line, "[") {
					t.Errorf("line %d is %d columns: %q", i+1, len(line), line)
				}
			}
			got, err := record.Parse(text)
			if err != nil {
				t.Fatalf("%v in\n%s", err, text)
			}
			pos, res, err := record.Replay(g, got)
			if err != nil {
				t.Fatalf("%v in\n%s", err, text)
			}
			if pos.String() != want.String() {
				t.Errorf("replayed to %s, want %s", pos, want)
			}
			if res.Over != want.Result().Over || res.Winner != want.Result().Winner {
				t.Errorf("result %+v, want %+v", res, want.Result())
			}
			if got.Get(sides[1]) != `bob "the \ brave"` {
				t.Errorf("tag %s read as %q", sides[1], got.Get(sides[1]))
			}
			if len(got.Comments) != 3 || got.Comments[1] != r.Comments[1] || got.Comments[2].After != len(moves) {
				t.Errorf("comments read as %+v, want %+v", got.Comments, r.Comments)
			}
			for i := range moves {
				if got.Moves[i] != moves[i] {
					t.Fatalf("move %d read as %+v, want %+v", i+1, got.Moves[i], moves[i])
				}
			}
			if again := got.String(); again != text {
				t.Errorf("written again differently:\n%s\nfirst:\n%s", again, text)
			}
		})
	}
}

// A game that ended off the board (a resignation) replays to its last
// position with the Result tag's result and the Termination's reason.
func TestReplayResignation(t *testing.T) {
	g, _ := catalog.Lookup("ultima")
	r, err := record.Parse(`[Game "ultima"]
[Result "0-1"]
[Termination "alice resigned"]

1. Pa2-a3 pa7-a6 0-1
`)
	if err != nil {
		t.Fatal(err)
	}
	pos, res, err := record.Replay(g, r)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Over || res.Winner != 1 || res.Reason != "alice resigned" {
		t.Errorf("result %+v, want Black (seat 1) by alice's resignation", res)
	}
	if pos.ToMove() != 0 || r.Moves[1].Seat != 1 {
		t.Errorf("to move %d, second move's seat %d", pos.ToMove(), r.Moves[1].Seat)
	}
}

// Tanbo's first seat is Black: its win is 0-1, as in PGN.
func TestResultBySideName(t *testing.T) {
	tanbo, _ := catalog.Lookup("tanbo")
	ultima, _ := catalog.Lookup("ultima")
	if got := record.ResultText(tanbo, rules.Win(0, "")); got != record.BlackWins {
		t.Errorf("Tanbo seat 0 (Black) wins: %s, want 0-1", got)
	}
	if got := record.ResultText(ultima, rules.Win(0, "")); got != record.WhiteWins {
		t.Errorf("Ultima seat 0 (White) wins: %s, want 1-0", got)
	}
	res, err := record.ParseResult(tanbo, "1-0")
	if err != nil || res.Winner != 1 {
		t.Errorf("Tanbo 1-0 read as %+v, %v; want seat 1 (White)", res, err)
	}
}

// Replay refuses an illegal move by its number and the rules' reason, and a
// result the moves contradict.
func TestReplayRefuses(t *testing.T) {
	g, _ := catalog.Lookup("ultima")
	for _, c := range []struct{ text, want string }{
		{"1. Pa2-a3 pa7-a6 2. Ke1-e5 *", `move 3 "Ke1-e5" is illegal`},
		{"1. Pa2-a3 zz9 *", `move 2 "zz9" is illegal`},
		{"[Game \"tanbo\"]\n\n*", `of the game "tanbo"`},
		{"[Options \"-nosuch\"]\n\n*", "Options tag"},
		{"[Position \"8/8 w\"]\n\n*", "start position"},
	} {
		r, err := record.Parse(c.text)
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		if _, _, err := record.Replay(g, r); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one with %q", c.text, err, c.want)
		}
	}
	// Tobit: a short game that ends on the board, claimed otherwise.
	tobit, _ := catalog.Lookup("tobit")
	moves, pos := played(t, tobit, nil, 400)
	if !pos.Result().Over {
		t.Skip("the fixed stride does not end a Tobit game in 400 moves")
	}
	wrong := record.WhiteWins
	if record.ResultText(tobit, pos.Result()) == wrong {
		wrong = record.BlackWins
	}
	r := &record.Record{Tags: []record.Tag{{"Result", wrong}}, Moves: moves}
	if _, _, err := record.Replay(tobit, r); err == nil || !strings.Contains(err.Error(), "but the Result tag says") {
		t.Errorf("a contradicted result: error %v", err)
	}
}

// Hostile text is refused with the line and what was expected, at a
// bounded cost.
func TestParseRefusesHostile(t *testing.T) {
	big := strings.Repeat("a1 ", record.MaxBytes/3+1) + "*"
	many := strings.Repeat("a1 ", record.MaxMoves+1) + "*"
	for _, c := range []struct{ text, want string }{
		{big, "at most"},
		{many, "more than 20000 moves"},
		{"[White \"alice\n\"]\n*", "line 1: tag White: its value has no closing quote"},
		{"[White \"a\\b\"]\n*", "a backslash in a value"},
		{"[White alice]\n*", "its value goes in quotes"},
		{"[White \"a\"]\n[White \"b\"]\n*", "line 2: tag White is given twice"},
		{"[ \"a\"]\n*", "a tag starts with ["},
		{"1. a1 {open comment", "a comment { has no closing }"},
		{"1. a1 {a \\q} *", "a backslash in a comment"},
		{"1. a1 (1. b2) *", "no variations"},
		{"1. a1 $1 *", "holds moves, move numbers and comments"},
		{"1. a1 *\n\n[Event \"two\"]\n1. b2 *", "a record is one game"},
		{"1. a1 b2", "ends without a result"},
		{"[Result \"1-0\"]\n\n1. a1 0-1", "the Result tag says 1-0"},
		{"1. a1 \xff *", "not valid UTF-8"},
		{"1. " + strings.Repeat("x", 300) + " *", "move 1 is longer than"},
		{"{" + strings.Repeat("x ", record.MaxComment) + "} *", "comment is longer than"},
		{strings.Repeat("[T \"v\"]\n", 2) + "*", "given twice"},
		{"[V \"" + strings.Repeat("v", record.MaxTagText+1) + "\"]\n*", "longer than 1024 bytes"},
	} {
		_, err := record.Parse(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			name := c.text
			if len(name) > 60 {
				name = name[:60] + "..."
			}
			t.Errorf("%q: error %v, want one with %q", name, err, c.want)
		}
	}
	var tags strings.Builder
	for i := 0; i <= record.MaxTags; i++ {
		tags.WriteString("[T" + strings.Repeat("x", i) + " \"v\"]\n")
	}
	if _, err := record.Parse(tags.String() + "*"); err == nil || !strings.Contains(err.Error(), "more than 64 tags") {
		t.Errorf("too many tags: %v", err)
	}
}

// Move numbers are optional and may be written as PGN writes them; the
// comments keep their places.
func TestParseLenient(t *testing.T) {
	r, err := record.Parse("\r\n[Game \"tanbo\"]\r\n\r\n{first} d5 1... e6\t{after two}\n 2. f7 *")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Moves) != 3 || r.Moves[2].Text != "f7" {
		t.Errorf("moves %+v", r.Moves)
	}
	if len(r.Comments) != 2 || r.Comments[0] != (record.Comment{0, "first"}) || r.Comments[1] != (record.Comment{2, "after two"}) {
		t.Errorf("comments %+v", r.Comments)
	}
	if r.Result() != record.Unfinished {
		t.Errorf("result %q", r.Result())
	}
}

// A Taratibu turn of several moves is written with the numbers that show
// where each side's run starts.
func TestNumberingOfRuns(t *testing.T) {
	r := &record.Record{Moves: []record.Move{
		{"5243", 0}, {"3645", 1}, {"2646", 1}, {"1122", 0}, {"1133", 0}, {"1144", 0},
	}}
	want := "1. 5243 1... 3645 2646 2. 1122 1133 1144 *\n"
	if got := r.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	r = &record.Record{Moves: []record.Move{{"e2-e5", 0}, {"e7-e6", 1}, {"d2-d4", 0}}, Comments: []record.Comment{{1, "hm"}}}
	want = "1. e2-e5 {hm} 1... e7-e6 2. d2-d4 *\n"
	if got := r.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A comment's word longer than a line (a link) is cut to fit, never
// within an escape, and reads back with the pieces apart.
func TestLongCommentWordFits(t *testing.T) {
	word := strings.Repeat("}", 30) + strings.Repeat("x", 100)
	r := &record.Record{Comments: []record.Comment{{0, "see " + word}}}
	text := r.String()
	for _, line := range strings.Split(text, "\n") {
		if len(line) > record.LineWidth {
			t.Errorf("a line of %d columns: %q", len(line), line)
		}
	}
	got, err := record.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if strings.ReplaceAll(got.Comments[0].Text, " ", "") != "see"+word {
		t.Errorf("read back %q", got.Comments[0].Text)
	}
}
