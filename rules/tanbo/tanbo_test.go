package tanbo

import (
	"flag"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/rulestest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func start(t testing.TB, size string) rules.Position {
	t.Helper()
	opts, err := rules.ParseOptions(Game, []string{"-size=" + size})
	if err != nil {
		t.Fatal(err)
	}
	pos, err := Game.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

func parse(t testing.TB, text string) rules.Position {
	t.Helper()
	pos, err := Game.ParsePosition(text, nil)
	if err != nil {
		t.Fatalf("ParsePosition(%q): %v", text, err)
	}
	return pos
}

func TestVectors(t *testing.T) { rulestest.RunVectors(t, Game) }

// TestSeedRemovalExamples plays the seed's two 9x9 examples from the public
// vectors and checks which stones each removal takes.
func TestSeedRemovalExamples(t *testing.T) {
	tests := []struct {
		name     string // start of the vector's name
		captured string
	}{
		// The upper left White root, d5 included, goes alone.
		{"seed 9x9 removal example A", "d5 a6 b6 c6 d6 e6 a7 c7 b8 c8 a9 b9"},
		// The lower left Black root and the lower right White root go.
		{"seed 9x9 removal example B", "a1 b1 c1 d1 e1 g1 i1 a2 b2 c2 e2 f2 g2 h2 i2 " +
			"a3 c3 d3 e3 f3 g3 h3 c4 e4 f4 g4 h4 a5 b5 c5 f5 g5 h5 i5"},
	}
	vectors := rulestest.Vectors(t, Game)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := slices.IndexFunc(vectors, func(v rulestest.Vector) bool { return strings.HasPrefix(v.Name, tt.name) })
			if i < 0 {
				t.Fatalf("no vector named %q", tt.name)
			}
			v := vectors[i]
			pos := parse(t, v.Position)
			steps, err := pos.Play(v.Moves[0])
			if err != nil {
				t.Fatal(err)
			}
			want := rules.Step{Move: "d5", Captured: strings.Fields(tt.captured)}
			if len(steps) != 1 || steps[0].String() != want.String() {
				t.Errorf("steps %v, want %v", steps, want)
			}
			if got := pos.String(); got != v.Expect.Position {
				t.Errorf("position\n got %s\nwant %s", got, v.Expect.Position)
			}
			if r := pos.Result(); r.Over {
				t.Errorf("result %+v, want the game to go on", r)
			}
		})
	}
}

// TestRemoval plays hand-made positions on 5x5 boards, bottom row last.
func TestRemoval(t *testing.T) {
	tests := []struct {
		name     string
		position string
		move     string
		after    string
		captured []string
		result   rules.Result
	}{{
		// a2 leaves the root a1 a2 no liberty: a3, b2 and b1 are White.
		name:     "Black bounds his own last root and loses",
		position: "...../...../w..../.w.../bw... b",
		move:     "A2",
		after:    "...../...../w..../.w.../.w... w",
		captured: []string{"a1", "a2"},
		result:   rules.Win(1, "no stones left"),
	}, {
		// As above, but Black has another root: only the extended one goes.
		name:     "self-bounding move removes only the extended root",
		position: "....b/...../w..../.w.../bw... b",
		move:     "a2",
		after:    "....b/...../w..../.w.../.w... w",
		captured: []string{"a1", "a2"},
		result:   rules.Ongoing,
	}, {
		// a2 takes the last liberty of White a1 and makes b2 touch two
		// black stones, the last liberty of Black b1; a2 a3 keep a4.
		name:     "move bounds roots of both colours",
		position: "...../...../b..../...../wbw.. b",
		move:     "a2",
		after:    "...../...../b..../b..../..w.. w",
		captured: []string{"a1", "b1"},
		result:   rules.Ongoing,
	}, {
		name:     "move bounds the opponent's last root and wins",
		position: "...../...../b..../...../wb... b",
		move:     "a2",
		after:    "...../...../b..../b..../.b... w",
		captured: []string{"a1"},
		result:   rules.Win(0, "no stones left"),
	}, {
		// White's e5 fills the last liberty of Black e4 (d4 and e3 are
		// White) while White e5 d5 keeps c5.
		name:     "White bounds a Black root, Black plays on",
		position: "...w./...wb/....w/...../b.... w",
		move:     "e5",
		after:    "...ww/...w./....w/...../b.... b",
		captured: []string{"e4"},
		result:   rules.Ongoing,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos := parse(t, tt.position)
			steps, err := pos.Play(tt.move)
			if err != nil {
				t.Fatal(err)
			}
			want := rules.Step{Move: strings.ToLower(tt.move), Captured: tt.captured}
			if len(steps) != 1 || steps[0].String() != want.String() {
				t.Errorf("steps %v, want %v", steps, want)
			}
			if got := pos.String(); got != tt.after {
				t.Errorf("position %s, want %s", got, tt.after)
			}
			if got := pos.Result(); got != tt.result {
				t.Errorf("result %+v, want %+v", got, tt.result)
			}
		})
	}
}

// TestFirstMoves counts the opening placements. Setup stones are far enough
// apart that no point touches two, so Black's count is the sum of his
// stones' on-board neighbours: on 19x19 and 13x13 two corners (2 each),
// four edge stones (3 each) and two inner stones (4 each) make 24; on 9x9
// two inner stones make 8. White's replies touch none of those points.
func TestFirstMoves(t *testing.T) {
	tests := []struct {
		size   string
		perft1 uint64
		perft2 uint64
		legal  string
	}{
		{"19", 24, 24 * 24, "f1 h1 r1 g2 s2 a6 m6 a8 l7 n7 m8 " +
			"f13 h13 g12 g14 r13 s12 s14 a18 b19 l19 n19 m18 b7"},
		{"13", 24, 24 * 24, "d1 f1 l1 e2 m2 a4 a6 b5 i4 i6 h5 j5 " +
			"e8 e10 d9 f9 m8 m10 l9 a12 b13 h13 j13 i12"},
		{"9", 8, 64, "a2 c2 b1 b3 g8 i8 h7 h9"},
	}
	for _, tt := range tests {
		t.Run(tt.size, func(t *testing.T) {
			pos := start(t, tt.size)
			if got := pos.Perft(1); got != tt.perft1 {
				t.Errorf("Perft(1) = %d, want %d", got, tt.perft1)
			}
			if got := pos.Perft(2); got != tt.perft2 {
				t.Errorf("Perft(2) = %d, want %d", got, tt.perft2)
			}
			got := pos.Legal()
			want := strings.Fields(tt.legal)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("legal %q\nwant %q", got, want)
			}
		})
	}
}

func TestStartPositions(t *testing.T) {
	tests := []struct{ size, want string }{
		{"19", "b.....w.....b.....w/19/19/19/19/19/w.....b.....w.....b/19/19/19/19/19/" +
			"b.....w.....b.....w/19/19/19/19/19/w.....b.....w.....b b"},
		{"13", "b...w...b...w/13/13/13/w...b...w...b/13/13/13/b...w...b...w/13/13/13/w...b...w...b b"},
		{"9", startNine},
	}
	for _, tt := range tests {
		// The wanted text uses digit runs; the position reads them.
		want := parse(t, tt.want).String()
		if got := start(t, tt.size).String(); got != want {
			t.Errorf("size %s start\n got %s\nwant %s", tt.size, got, want)
		}
		if strings.ContainsAny(want, "0123456789") {
			t.Errorf("canonical position %q has digits; it writes empty points as dots", want)
		}
	}
}

func TestRefusedMoves(t *testing.T) {
	const twoFriends = "....w/...../...../b..../.b... b"
	tests := []struct {
		position, move, err string
	}{
		{startNine, "", `no point given; a move is one point, a1 to i9, like d5`},
		{startNine, "  ", `"  ": no point given; a move is one point, a1 to i9, like d5`},
		{startNine, "5d", `"5d": not a point; a move is one point, a letter and a number from a1 to i9, like d5`},
		{startNine, "d", `"d": not a point; a move is one point, a letter and a number from a1 to i9, like d5`},
		{startNine, "d5 e5", `"d5 e5": not a point; a move is one point, a letter and a number from a1 to i9, like d5`},
		{startNine, "pass", `"pass": Tanbo has no pass; a player with stones always has a point to play, a1 to i9`},
		{startNine, "d-5", `"d-5": not a point; a move is one point, a letter and a number from a1 to i9, like d5`},
		{startNine, "j5", `"j5": j5 is off the board; points are a1 to i9`},
		{startNine, "A10", `"A10": a10 is off the board; points are a1 to i9`},
		{startNine, "a0", `"a0": a0 is off the board; points are a1 to i9`},
		{startNine, "b99999999999999999999", `"b99999999999999999999": b99999999999999999999 is off the board; points are a1 to i9`},
		{startNine, "b2", `"b2": b2 is taken by a black stone; a stone goes on an empty point`},
		{startNine, "H2", `"H2": h2 is taken by a white stone; a stone goes on an empty point`},
		{startNine, "e5", `"e5": e5 touches 0 black stones; a new black stone must touch exactly 1 black stone, up, down, left or right`},
		{startNine, "c8", `"c8": c8 touches 0 black stones; a new black stone must touch exactly 1 black stone, up, down, left or right`},
		{twoFriends, "a1", `"a1": a1 touches 2 black stones (b1, a2); a new black stone must touch exactly 1 black stone, up, down, left or right`},
		{"...../...../.www./...../b.... w", "c3", `"c3": c3 is taken by a white stone; a stone goes on an empty point`},
		{"...../..w../.w.w./..w../b.... w", "c3", `"c3": c3 touches 4 white stones (c2, b3, d3, c4); a new white stone must touch exactly 1 white stone, up, down, left or right`},
		{"...../...../...../...../b.... w", "a2", `"a2": the game is over: Black won (no stones left); no more moves`},
	}
	for _, tt := range tests {
		pos := parse(t, tt.position)
		_, err := pos.Play(tt.move)
		if err == nil {
			t.Errorf("%s: move %q accepted", tt.position, tt.move)
			continue
		}
		if err.Error() != tt.err {
			t.Errorf("%s: move %q\n got %s\nwant %s", tt.position, tt.move, err, tt.err)
		}
		if got := pos.String(); got != tt.position {
			t.Errorf("refused move %q changed the position to %s", tt.move, got)
		}
	}
}

func TestBadPositions(t *testing.T) {
	tests := []struct{ text, err string }{
		{"", `a position is rows from the top separated by / and the side to move, like "` + startNine + `"`},
		{"...../...../...../...../b....", `"...../...../...../...../b....": a position is rows from the top separated by / and the side to move, like "` + startNine + `"`},
		{"..../..../..../b... w", `"..../..../..../b... w": has 4 rows; a board has 5 to 19 rows`},
		{strings.Repeat("20/", 19) + "b19 b", `"` + strings.Repeat("20/", 19) + `b19 b": has 20 rows; a board has 5 to 19 rows`},
		{"...../...../...../...../b.... x", `"...../...../...../...../b.... x": the side to move is "x"; it must be b or w`},
		{"...../...../...../...../b.... B", `"...../...../...../...../b.... B": the side to move is "B"; it must be b or w`},
		{"...../...../...x./...../b.... b", `"...../...../...x./...../b.... b": row 3 from the top: row "...x." has 'x'; a row holds the letters b w, '.' and digits`},
		{"...../...../...B./...../b.... b", `"...../...../...B./...../b.... b": row 3 from the top: row "...B." has 'B'; a row holds the letters b w, '.' and digits`},
		{"...../...../..../...../b.... b", `"...../...../..../...../b.... b": row 3 from the top: row "...." has 4 points, want 5`},
		{"...../...../6/...../b.... b", `"...../...../6/...../b.... b": row 3 from the top: row "6" has an empty run of 6; runs are 1 to 5`},
		{"5/5/5/5/5 b", `"5/5/5/5/5 b": the board has no stones; a position needs stones of at least one colour`},
		{"5/5/5/w4/bw3 w", `"5/5/5/w4/bw3 w": the black root at a1 (1 stone) has no liberty; a position may not hold a bounded root`},
		{"5/5/w4/bw3/bw3 w", `"5/5/w4/bw3/bw3 w": the black root at a1 (2 stones) has no liberty; a position may not hold a bounded root`},
	}
	for _, tt := range tests {
		_, err := Game.ParsePosition(tt.text, nil)
		if err == nil {
			t.Errorf("position %q accepted", tt.text)
			continue
		}
		if err.Error() != tt.err {
			t.Errorf("position %q\n got %s\nwant %s", tt.text, err, tt.err)
		}
	}
}

func TestPositionFormat(t *testing.T) {
	tests := []struct{ text, want string }{
		{"5/5/5/5/b4 w", "...../...../...../...../b.... w"},
		{"2b2/5/5/5/4w b", "..b../...../...../...../....w b"},
		{"  1b1b1/5/5/5/w1w2   w ", ".b.b./...../...../...../w.w.. w"},
		{strings.Repeat("19/", 18) + "b18 b", strings.Repeat(strings.Repeat(".", 19)+"/", 18) + "b" + strings.Repeat(".", 18) + " b"},
		{"7/7/3w3/7/7/7/7 w", "......./......./...w.../......./......./......./....... w"},
	}
	for _, tt := range tests {
		pos := parse(t, tt.text)
		if got := pos.String(); got != tt.want {
			t.Errorf("position %q printed as %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestResultOfPositions reads finished positions: a side with no stones has
// lost, whoever is to move.
func TestResultOfPositions(t *testing.T) {
	tests := []struct {
		text string
		want rules.Result
	}{
		{"5/5/5/5/b4 w", rules.Win(0, "no stones left")},
		{"5/5/5/5/b4 b", rules.Win(0, "no stones left")},
		{"5/5/2w2/5/5 b", rules.Win(1, "no stones left")},
		{"5/5/2w2/5/b4 b", rules.Ongoing},
	}
	for _, tt := range tests {
		pos := parse(t, tt.text)
		if got := pos.Result(); got != tt.want {
			t.Errorf("%s: result %+v, want %+v", tt.text, got, tt.want)
		}
		if tt.want.Over && (len(pos.Legal()) != 0 || pos.Perft(1) != 0) {
			t.Errorf("%s: game over but Legal gives %q", tt.text, pos.Legal())
		}
	}
}

var legalPositions = []string{
	startNine,
	"...../...../w..../.w.../bw... b",
	"...../...../b..../...../wbw.. b",
	"...w./...wb/....w/...../b.... w",
	"wwbb..b../.wwb..bbb/w.wbbb.b./wwwwwbbbb/bbb..wwww/..b.wwbw./b.bbbbbw./bbb.wwwww/bwwww.w.w w",
	"wwbb..b../.wwb..bbb/..wbbb.b./wwwwwbbbb/bbb..wwww/..b.wwbw./b.bbbbbw./bbb.wwwww/bwwww.w.w w",
	"wwbb..b../.wwb..bbb/..wbbb.b./wwwwwbbbb/bbb..wwww/..b.wwbw./b.bbbbbw./bbb.wwwww/bwwww.w.w b",
}

func TestCheckLegal(t *testing.T) {
	for _, text := range legalPositions {
		t.Run(text, func(t *testing.T) { rulestest.CheckLegal(t, parse(t, text)) })
	}
	for _, size := range []string{"19", "13", "9"} {
		t.Run(size, func(t *testing.T) { rulestest.CheckLegal(t, start(t, size)) })
	}
}

func TestClone(t *testing.T) {
	pos := start(t, "9")
	c := pos.Clone()
	if _, err := c.Play("g8"); err != nil {
		t.Fatal(err)
	}
	if pos.String() != startNine {
		t.Errorf("playing on a clone changed the original to %s", pos.String())
	}
	if _, err := pos.Play("a2"); err != nil {
		t.Fatal(err)
	}
	if c.String() == pos.String() {
		t.Errorf("clone and original agree after different moves: %s", c.String())
	}
}

func TestBoardGolden(t *testing.T) {
	tests := []struct {
		name string
		pos  rules.Position
	}{
		{"start19", start(t, "19")},
		{"start9", start(t, "9")},
		{"exampleA", parse(t, legalPositions[4])},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.pos.Board()
			rulestest.Golden(t, filepath.Join("testdata", tt.name+".golden"), got, *update)
			rulestest.CheckMailText(t, tt.name+" board", got)
		})
	}
}

func TestHelp(t *testing.T) {
	h := Game.Help()
	rulestest.CheckMailText(t, "help", h)
	for _, want := range []string{"-size=19", "-size=13", "-size=9", "-swap", "tanbo move", "exactly one", "no stones left"} {
		if !strings.Contains(h, want) {
			t.Errorf("help does not mention %q", want)
		}
	}
}

func FuzzPosition(f *testing.F) {
	for _, s := range legalPositions {
		f.Add(s)
	}
	f.Add("5/5/5/5/b4 w")
	f.Add("19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/b18 b")
	f.Add("5/5/5/bw3/wb3 w")
	f.Add("01/5/5/5/b4 w")
	f.Fuzz(func(t *testing.T, text string) {
		rulestest.CheckPositionText(t, Game, nil, text)
	})
}

func FuzzMove(f *testing.F) {
	positions := []rules.Position{start(f, "9"), start(f, "19")}
	for _, s := range legalPositions {
		positions = append(positions, parse(f, s))
	}
	for _, s := range []string{"d5", "D5", " g8 ", "b2", "e5", "j5", "a10", "a0", "s19", "t20", "", "5d", "d05", "\xff1"} {
		f.Add(uint8(0), s)
		f.Add(uint8(1), s)
	}
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		rulestest.CheckMoveText(t, positions[int(which)%len(positions)], text)
	})
}

// TestStringAllocatesOnce: the robots read every position they score as
// text, so printing one makes the string and nothing else.
func TestStringAllocatesOnce(t *testing.T) {
	for _, size := range []string{"9", "13", "19"} {
		pos := start(t, size)
		if n := testing.AllocsPerRun(10, func() { _ = pos.String() }); n != 1 {
			t.Errorf("%sx%s: String allocates %v times, want 1", size, size, n)
		}
	}
}
