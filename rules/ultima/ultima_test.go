package ultima

import (
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/rulestest"
)

func TestVectors(t *testing.T) { rulestest.RunVectors(t, Game) }

var (
	defaults   = rules.Options{}
	single     = rules.Options{"singleleap": ""}
	pure       = rules.Options{"pure": ""}
	drawStale  = rules.Options{"stalemate": "draw"}
	pureSingle = rules.Options{"pure": "", "singleleap": ""}
)

func mustParse(t testing.TB, text string, opts rules.Options) rules.Position {
	t.Helper()
	pos, err := Game.ParsePosition(text, opts)
	if err != nil {
		t.Fatalf("position %q refused: %v", text, err)
	}
	return pos
}

// A playCase plays one move on a hand-made position and checks either the
// step and the position that follow or the exact refusal.
type playCase struct {
	name  string
	opts  rules.Options
	pos   string
	move  string
	step  string // the step as mails print it
	after string // the position after the move
	err   string // the exact refusal, instead of step and after
}

func runPlay(t *testing.T, cases []playCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pos := mustParse(t, c.pos, c.opts)
			steps, err := pos.Play(c.move)
			if c.err != "" {
				if err == nil {
					t.Fatalf("%s accepted as %v; want refusal %q", c.move, steps, c.err)
				}
				if err.Error() != c.err {
					t.Fatalf("refusal\n got %s\nwant %s", err, c.err)
				}
				if pos.String() != c.pos {
					t.Fatalf("refused move changed the position to %s", pos)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s refused: %v", c.move, err)
			}
			if len(steps) != 1 || steps[0].String() != c.step {
				t.Errorf("steps %v, want %s", steps, c.step)
			}
			if pos.String() != c.after {
				t.Errorf("position after\n got %s\nwant %s", pos, c.after)
			}
		})
	}
}

func TestCaptures(t *testing.T) {
	runPlay(t, []playCase{
		{name: "king lands on an enemy", pos: "7k/8/8/3p4/4K3/8/8/8 w", move: "Ke4-d5",
			step: "Ke4-d5 (takes d5)", after: "7k/8/8/3K4/8/8/8/8 b"},
		// c4 against the king on b4, e4 against a frozen withdrawer on f4,
		// d5 against the leaper on d6; e3 is diagonal and stays.
		{name: "pawn takes three by custody, king and frozen piece as anvils", pos: "7k/8/3L4/3x2i1/1Kw1cW2/4p3/8/3P4 w", move: "Pd1-d4",
			step: "Pd1-d4 (takes c4 e4 d5)", after: "7k/8/3L4/6i1/1K1P1W2/4p3/8/8 b"},
		{name: "moving between two enemies is safe", pos: "3p3k/8/8/2P1P3/8/8/8/K7 b", move: "d8-d5",
			step: "Pd8-d5", after: "7k/8/8/2PpP3/8/8/8/K7 w"},
		{name: "withdrawer moves away along the file", pos: "7k/8/8/3pp3/3W4/8/8/K7 w", move: "Wd4-d1",
			step: "Wd4-d1 (takes d5)", after: "7k/8/8/4p3/8/8/8/K2W4 b"},
		{name: "withdrawer moves away along the diagonal", pos: "7k/8/8/3pp3/3W4/8/8/K7 w", move: "Wd4-b2",
			step: "Wd4-b2 (takes e5)", after: "7k/8/8/3p4/8/8/1W6/K7 b"},
		{name: "withdrawer moving sideways takes nothing", pos: "7k/8/8/3pp3/3W4/8/8/K7 w", move: "Wd4-a4",
			step: "Wd4-a4", after: "7k/8/8/3pp3/W7/8/8/K7 b"},
		{name: "withdrawer takes a chameleon", pos: "7k/8/8/4x3/3W4/8/8/K7 w", move: "Wd4-c3",
			step: "Wd4-c3 (takes e5)", after: "7k/8/8/8/8/2W5/8/K7 b"},
		{name: "long leaper jumps three", pos: "7k/3p4/8/3p4/8/3p4/3L4/K7 w", move: "Ld2-d4-d6-d8",
			step: "Ld2-d8 (takes d3 d5 d7)", after: "3L3k/8/8/8/8/8/8/K7 b"},
		{name: "long leaper stops after two", pos: "7k/3p4/8/3p4/8/3p4/3L4/K7 w", move: "Ld2-d6",
			step: "Ld2-d6 (takes d3 d5)", after: "7k/3p4/3L4/8/8/8/8/K7 b"},
		{name: "long leaper lands directly beyond", pos: "7k/8/3p4/8/8/3p4/3L4/K7 w", move: "Ld2-d4",
			step: "Ld2-d4 (takes d3)", after: "7k/8/3p4/8/3L4/8/8/K7 b"},
		{name: "long leaper lands further on", pos: "7k/8/3p4/8/8/3p4/3L4/K7 w", move: "Ld2-d5",
			step: "Ld2-d5 (takes d3)", after: "7k/8/3p4/3L4/8/8/8/K7 b"},
		{name: "long leaper lands after the second jump", pos: "7k/8/3p4/8/8/3p4/3L4/K7 w", move: "Ld2-d8",
			step: "Ld2-d8 (takes d3 d6)", after: "3L3k/8/8/8/8/8/8/K7 b"},
		{name: "single leap lands directly beyond", opts: single, pos: "7k/8/3p4/8/8/3p4/3L4/K7 w", move: "Ld2-d4",
			step: "Ld2-d4 (takes d3)", after: "7k/8/3p4/8/3L4/8/8/K7 b"},
		{name: "coordinator with its king", pos: "7k/8/8/8/C3p3/8/2p5/2p1K3 w", move: "Ca4-c4",
			step: "Ca4-c4 (takes c1 e4)", after: "7k/8/8/8/2C5/8/2p5/4K3 b"},
		{name: "moving the king does not coordinate", pos: "7k/8/8/8/2C1p3/8/4K3/2p5 w", move: "Ke2-e1",
			step: "Ke2-e1", after: "7k/8/8/8/2C1p3/8/8/2p1K3 b"},
		{name: "immobilizer captures nothing", pos: "7k/8/8/1p6/8/8/8/I3K3 w", move: "Ia1-a5",
			step: "Ia1-a5", after: "7k/8/8/Ip6/8/8/8/4K3 b"},
		{name: "chameleon withdraws from a withdrawer", pos: "7k/8/8/3w4/3X4/8/8/K7 w", move: "Xd4-d1",
			step: "Xd4-d1 (takes d5)", after: "7k/8/8/8/8/8/8/K2X4 b"},
		{name: "chameleon does not withdraw from a pawn", pos: "7k/8/8/3p4/3X4/8/8/K7 w", move: "Xd4-d1",
			step: "Xd4-d1", after: "7k/8/8/3p4/8/8/8/K2X4 b"},
		{name: "chameleon leaps a leaper", pos: "7k/8/8/8/3l4/8/3X4/K7 w", move: "Xd2-d6",
			step: "Xd2-d6 (takes d4)", after: "7k/8/3X4/8/8/8/8/K7 b"},
		{name: "chameleon leaps two leapers", pos: "7k/8/3l4/8/3l4/8/3X4/K7 w", move: "Xd2-d4-d7",
			step: "Xd2-d7 (takes d4 d6)", after: "7k/3X4/8/8/8/8/8/K7 b"},
		{name: "chameleon single leap", opts: single, pos: "7k/8/3l4/8/3l4/8/3X4/K7 w", move: "Xd2-d5",
			step: "Xd2-d5 (takes d4)", after: "7k/8/3l4/3X4/8/8/8/K7 b"},
		{name: "chameleon coordinates only coordinators", pos: "7k/8/8/8/X3p3/8/8/2c1K3 w", move: "Xa4-c4",
			step: "Xa4-c4 (takes c1)", after: "7k/8/8/8/2X1p3/8/8/4K3 b"},
		{name: "chameleon takes a pawn on an orthogonal move", pos: "7k/8/3P4/3p4/X7/8/8/K7 w", move: "Xa4-d4",
			step: "Xa4-d4 (takes d5)", after: "7k/8/3P4/8/3X4/8/8/K7 b"},
		{name: "chameleon takes no pawn on a diagonal move", pos: "7k/8/3P4/3p4/8/8/1X6/K7 w", move: "Xb2-d4",
			step: "Xb2-d4", after: "7k/8/3P4/3p4/3X4/8/8/K7 b"},
		{name: "chameleon does not withdraw from a chameleon", pos: "7k/8/8/3x4/3X4/8/8/K7 w", move: "Xd4-d1",
			step: "Xd4-d1", after: "7k/8/8/3x4/8/8/8/K2X4 b"},
		{name: "chameleon coordinates no chameleon or immobilizer", pos: "7k/8/8/8/X3i3/8/8/2x1K3 w", move: "Xa4-c4",
			step: "Xa4-c4", after: "7k/8/8/8/2X1i3/8/8/2x1K3 b"},
		{name: "chameleon takes no immobilizer by custody", pos: "7k/8/3P4/3i4/X7/8/8/K7 w", move: "Xa4-d4",
			step: "Xa4-d4", after: "7k/8/3P4/3i4/3X4/8/8/K7 b"},
		{name: "chameleon leaps and withdraws", pos: "7k/8/8/4w3/4X3/8/4l3/K7 w", move: "Xe4-e1",
			step: "Xe4-e1 (takes e2 e5)", after: "7k/8/8/8/8/8/8/K3X3 b"},
		{name: "pure: a leaping chameleon takes only the leaper", opts: pure, pos: "7k/8/8/4w3/4X3/8/4l3/K7 w", move: "Xe4-e1",
			step: "Xe4-e1 (takes e2)", after: "7k/8/8/4w3/8/8/8/K3X3 b"},
		{name: "pure: a chameleon that does not leap withdraws", opts: pure, pos: "7k/8/8/4w3/4X3/8/8/K7 w", move: "Xe4-e1",
			step: "Xe4-e1 (takes e5)", after: "7k/8/8/8/8/8/8/K3X3 b"},
		// The seed's example: leapers f6 and d6 leapt, withdrawer h6
		// withdrawn from, coordinator c2 coordinated with the king on g2,
		// pawns c7, b6 and c5 held against c8, a6 and c4; check to d7.
		{name: "seven captures", pos: "2P5/2pk4/Pp1l1lXw/2p5/2P5/8/2c3K1/8 w", move: "Xg6-e6-c6",
			step: "Xg6-c6 (takes c2 c5 b6 d6 f6 h6 c7)", after: "2P5/3k4/P1X5/8/2P5/8/6K1/8 b"},
		{name: "pure: seven captures become two", opts: pure, pos: "2P5/2pk4/Pp1l1lXw/2p5/2P5/8/2c3K1/8 w", move: "Xg6-c6",
			step: "Xg6-c6 (takes d6 f6)", after: "2P5/2pk4/PpX4w/2p5/2P5/8/2c3K1/8 b"},
		{name: "pure: without the leapers five", opts: pure, pos: "2P5/2pk4/Pp4Xw/2p5/2P5/8/2c3K1/8 w", move: "Xg6-c6",
			step: "Xg6-c6 (takes c2 c5 b6 h6 c7)", after: "2P5/3k4/P1X5/8/2P5/8/6K1/8 b"},
	})
}

func TestSevenCapturesGiveCheck(t *testing.T) {
	pos := mustParse(t, "2P5/2pk4/Pp1l1lXw/2p5/2P5/8/2c3K1/8 w", defaults)
	if _, err := pos.Play("Xg6-c6"); err != nil {
		t.Fatal(err)
	}
	if !pos.(*Position).b.inCheck(pos.(*Position).r) {
		t.Errorf("after Xg6-c6 Black is not in check by the chameleon next to his king")
	}
	if pos.Result().Over {
		t.Errorf("the king can take the chameleon, but the game is over: %v", pos.Result())
	}
}

func TestLeaperRules(t *testing.T) {
	runPlay(t, []playCase{
		{name: "two in a row", pos: "7k/8/8/8/3p4/3p4/3L4/K7 w", move: "Ld2-d6",
			err: `"Ld2-d6": no legal move from d2 to d6: a long leaper cannot jump the two pieces in a row on d3 and d4`},
		{name: "own piece", pos: "7k/8/8/8/8/3P4/3L4/K7 w", move: "Ld2-d5",
			err: `"Ld2-d5": no legal move from d2 to d5: the white pawn on d3 blocks the way; a long leaper never jumps a piece of its own side`},
		{name: "single leap lands directly beyond", opts: single, pos: "7k/8/3p4/8/8/3p4/3L4/K7 w", move: "Ld2-d5",
			err: `"Ld2-d5": no legal move from d2 to d5: with -singleleap a long leaper lands directly beyond the piece it jumps, on d4`},
		{name: "single leap jumps one", opts: single, pos: "7k/8/3p4/8/8/3p4/3L4/K7 w", move: "Ld2-d8",
			err: `"Ld2-d8": no legal move from d2 to d8: with -singleleap a long leaper jumps only one piece per move`},
		{name: "chameleon jumps only leapers", pos: "7k/8/8/8/3p4/8/3X4/K7 w", move: "Xd2-d6",
			err: `"Xd2-d6": no legal move from d2 to d6: the black pawn on d4 blocks the way; a chameleon jumps only long leapers`},
		{name: "chameleon single leap", opts: pureSingle, pos: "7k/8/3l4/8/3l4/8/3X4/K7 w", move: "Xd2-d7",
			err: `"Xd2-d7": no legal move from d2 to d7: with -singleleap a chameleon jumps only one piece per move`},
		{name: "path off the line", pos: "7k/3p4/8/3p4/8/3p4/3L4/K7 w", move: "Ld2-d4-e6-d8",
			err: `"Ld2-d4-e6-d8": e6 is not on the way from d4 to d8; the squares of a path lie in order on the move's line`},
		{name: "path out of order", pos: "7k/3p4/8/3p4/8/3p4/3L4/K7 w", move: "Ld2-d6-d4-d8",
			err: `"Ld2-d6-d4-d8": d4 is not on the way from d6 to d8; the squares of a path lie in order on the move's line`},
	})
}

func TestFreezing(t *testing.T) {
	runPlay(t, []playCase{
		{name: "frozen by an immobilizer", pos: "7k/8/8/4p3/3I4/8/8/K7 b", move: "e5-e6",
			err: `"e5-e6": the pawn on e5 is frozen by the white immobilizer on d4 and cannot move; a frozen piece may only be removed, e.g. Pe5-off`},
		{name: "frozen however it got there", pos: "7k/8/8/Ip6/8/8/8/4K3 b", move: "b5-b6",
			err: `"b5-b6": the pawn on b5 is frozen by the white immobilizer on a5 and cannot move; a frozen piece may only be removed, e.g. Pb5-off`},
		{name: "suicide of a frozen piece", pos: "7k/8/8/4p3/3I4/8/8/K7 b", move: "suicide e5",
			step: "Pe5-off", after: "7k/8/8/8/3I4/8/8/K7 w"},
		{name: "immobilizers freeze each other (white)", pos: "7k/8/8/4i3/3I4/8/8/K7 w", move: "Id4-d3",
			err: `"Id4-d3": the immobilizer on d4 is frozen by the black immobilizer on e5 and cannot move; a frozen piece may only be removed, e.g. Id4-off`},
		{name: "immobilizers freeze each other (black)", pos: "7k/8/8/4i3/3I4/8/8/K7 b", move: "Ie5-e6",
			err: `"Ie5-e6": the immobilizer on e5 is frozen by the white immobilizer on d4 and cannot move; a frozen piece may only be removed, e.g. Ie5-off`},
		{name: "a frozen immobilizer still freezes", pos: "7k/8/8/4i3/3I4/2p5/8/K7 b", move: "c3-c4",
			err: `"c3-c4": the pawn on c3 is frozen by the white immobilizer on d4 and cannot move; a frozen piece may only be removed, e.g. Pc3-off`},
		{name: "a chameleon freezes an immobilizer", pos: "7k/8/8/4x3/3I4/2p5/8/K7 w", move: "Id4-d3",
			err: `"Id4-d3": the immobilizer on d4 is frozen by the black chameleon on e5 and cannot move; a frozen piece may only be removed, e.g. Id4-off`},
		{name: "an immobilizer freezes a chameleon", pos: "7k/8/8/4x3/3I4/2p5/8/K7 b", move: "Xe5-e6",
			err: `"Xe5-e6": the chameleon on e5 is frozen by the white immobilizer on d4 and cannot move; a frozen piece may only be removed, e.g. Xe5-off`},
		{name: "a chameleon freezes only immobilizers", pos: "7k/8/8/4x3/3W4/8/8/K7 w", move: "Wd4-d3",
			step: "Wd4-d3", after: "7k/8/8/4x3/8/3W4/8/K7 b"},
		{name: "default: a chameleon next to the immobilizer frees nothing", pos: "7k/8/8/2p5/3I4/4x3/8/K7 b", move: "c5-c6",
			err: `"c5-c6": the pawn on c5 is frozen by the white immobilizer on d4 and cannot move; a frozen piece may only be removed, e.g. Pc5-off`},
		{name: "pure: a chameleon next to the immobilizer frees its side", opts: pure, pos: "7k/8/8/2p5/3I4/4x3/8/K7 b", move: "c5-c6",
			step: "Pc5-c6", after: "7k/8/2p5/8/3I4/4x3/8/K7 w"},
		{name: "pure: but not itself", opts: pure, pos: "7k/8/8/2p5/3I4/4x3/8/K7 b", move: "Xe3-e2",
			err: `"Xe3-e2": the chameleon on e3 is frozen by the white immobilizer on d4 and cannot move; a frozen piece may only be removed, e.g. Xe3-off`},
		{name: "pure: two chameleons free each other", opts: pure, pos: "7k/8/8/8/3I4/2x1x3/8/K7 b", move: "Xe3-e2",
			step: "Xe3-e2", after: "7k/8/8/8/3I4/2x5/4x3/K7 w"},
		{name: "default: two chameleons stay frozen", pos: "7k/8/8/8/3I4/2x1x3/8/K7 b", move: "Xe3-e2",
			err: `"Xe3-e2": the chameleon on e3 is frozen by the white immobilizer on d4 and cannot move; a frozen piece may only be removed, e.g. Xe3-off`},
		{name: "pure: an immobilizer frees its side", opts: pure, pos: "7k/8/8/2p1i3/3I4/8/8/K7 b", move: "c5-c6",
			step: "Pc5-c6", after: "7k/8/2p5/4i3/3I4/8/8/K7 w"},
		{name: "pure: but not itself", opts: pure, pos: "7k/8/8/2p1i3/3I4/8/8/K7 b", move: "Ie5-e6",
			err: `"Ie5-e6": the immobilizer on e5 is frozen by the white immobilizer on d4 and cannot move; a frozen piece may only be removed, e.g. Ie5-off`},
	})
}

// TestFrozenLegal lists complete move lists where freezing decides them.
func TestFrozenLegal(t *testing.T) {
	tests := []struct {
		pos  string
		opts rules.Options
		want string
	}{
		{"7k/8/8/4i3/3I4/8/8/K7 w", defaults, "Ka1-b1 Ka1-a2 Ka1-b2 Id4-off"},
		{"7k/8/8/4i3/3I4/2p5/8/K7 b", defaults, "Pc3-off Ie5-off Kh8-h7 Kh8-g7 Kh8-g8"},
		{"7k/8/8/4x3/3I4/2p5/8/K7 w", defaults, "Ka1-b1 Ka1-a2 Ka1-b2 Id4-off"},
		{"7k/8/8/4x3/3I4/2p5/8/K7 b", defaults, "Pc3-off Xe5-off Kh8-h7 Kh8-g7 Kh8-g8"},
	}
	for _, tt := range tests {
		pos := mustParse(t, tt.pos, tt.opts)
		got := strings.Join(pos.Legal(), " ")
		if sorted(got) != sorted(tt.want) {
			t.Errorf("%s: legal moves\n got %s\nwant %s", tt.pos, got, tt.want)
		}
		rulestest.CheckLegal(t, pos)
	}
}

func sorted(list string) string {
	f := strings.Fields(list)
	for i := range f {
		for j := i + 1; j < len(f); j++ {
			if f[j] < f[i] {
				f[i], f[j] = f[j], f[i]
			}
		}
	}
	return strings.Join(f, " ")
}

func TestCheck(t *testing.T) {
	const rule = "; a move may not leave its own king capturable"
	runPlay(t, []playCase{
		{name: "into a withdrawer's capture", pos: "7k/8/8/3w4/8/4K3/8/8 w", move: "Ke3-e4",
			err: `"Ke3-e4": the move leaves the white king on e4 open to capture by the black withdrawer on d5` + rule},
		{name: "a frozen withdrawer attacks nothing", pos: "7k/8/2I5/3w4/8/4K3/8/8 w", move: "Ke3-e4",
			step: "Ke3-e4", after: "7k/8/2I5/3w4/4K3/8/8/8 b"},
		{name: "a withdrawer with no room attacks nothing", pos: "7k/8/2p5/3w4/8/4K3/8/8 w", move: "Ke3-e4",
			step: "Ke3-e4", after: "7k/8/2p5/3w4/4K3/8/8/8 b"},
		{name: "into a coordinator's capture on the file", pos: "7k/3K4/8/c7/8/8/8/8 w", move: "Kd7-d8",
			err: `"Kd7-d8": the move leaves the white king on d8 open to capture by the black coordinator on a5` + rule},
		{name: "into a coordinator's capture on the diagonal", pos: "7k/3K4/8/c7/8/8/8/8 w", move: "Kd7-c8",
			err: `"Kd7-c8": the move leaves the white king on c8 open to capture by the black coordinator on a5` + rule},
		{name: "off the coordinator's lines", pos: "7k/3K4/8/c7/8/8/8/8 w", move: "Kd7-e7",
			step: "Kd7-e7", after: "7k/4K3/8/c7/8/8/8/8 b"},
		{name: "a frozen coordinator attacks nothing", pos: "7k/3K4/8/c7/1I6/8/8/8 w", move: "Kd7-d8",
			step: "Kd7-d8", after: "3K3k/8/8/c7/1I6/8/8/8 b"},
		{name: "into a leaper's capture", pos: "3l3k/8/8/8/8/3K4/8/8 w", move: "Kd3-d4",
			err: `"Kd3-d4": the move leaves the white king on d4 open to capture by the black long leaper on d8` + rule},
		{name: "out of a leaper's line", pos: "3l3k/8/8/8/8/3K4/8/8 w", move: "Kd3-c3",
			step: "Kd3-c3", after: "3l3k/8/8/8/8/2K5/8/8 b"},
		{name: "a frozen leaper attacks nothing", pos: "2Il3k/8/8/8/8/3K4/8/8 w", move: "Kd3-d4",
			step: "Kd3-d4", after: "2Il3k/8/8/8/3K4/8/8/8 b"},
		{name: "into a leaper's double jump", pos: "3l3k/8/3P4/8/2K5/8/8/8 w", move: "Kc4-d4",
			err: `"Kc4-d4": the move leaves the white king on d4 open to capture by the black long leaper on d8` + rule},
		{name: "a single leaper cannot jump twice", opts: single, pos: "3l3k/8/3P4/8/2K5/8/8/8 w", move: "Kc4-d4",
			step: "Kc4-d4", after: "3l3k/8/3P4/8/3K4/8/8/8 b"},
		{name: "into a pawn's custody", pos: "7k/3p4/8/8/5p2/4K3/8/8 w", move: "Ke3-e4",
			err: `"Ke3-e4": the move leaves the white king on e4 open to capture by the black pawn on d7` + rule},
		{name: "a frozen pawn attacks nothing", pos: "2I4k/3p4/8/8/5p2/4K3/8/8 w", move: "Ke3-e4",
			step: "Ke3-e4", after: "2I4k/3p4/8/8/4Kp2/8/8/8 b"},
		{name: "a frozen anvil still holds", pos: "7k/3p4/8/6I1/5p2/4K3/8/8 w", move: "Ke3-e4",
			err: `"Ke3-e4": the move leaves the white king on e4 open to capture by the black pawn on d7` + rule},
		{name: "a frozen king is an anvil", pos: "8/3p4/8/3K2I1/5k2/8/8/8 w", move: "Kd5-e4",
			err: `"Kd5-e4": the move leaves the white king on e4 open to capture by the black pawn on d7` + rule},
		{name: "next to the enemy king", pos: "8/8/4k3/8/4K3/8/8/8 w", move: "Ke4-e5",
			err: `"Ke4-e5": the move leaves the white king on e5 open to capture by the black king on e6` + rule},
		{name: "next to a frozen enemy king", pos: "8/5I2/4k3/8/4K3/8/8/8 w", move: "Ke4-e5",
			step: "Ke4-e5", after: "8/5I2/4k3/4K3/8/8/8/8 b"},
		{name: "next to a chameleon", pos: "7k/8/4x3/8/4K3/8/8/8 w", move: "Ke4-d5",
			err: `"Ke4-d5": the move leaves the white king on d5 open to capture by the black chameleon on e6` + rule},
		{name: "next to a frozen chameleon", pos: "7k/5I2/4x3/8/4K3/8/8/8 w", move: "Ke4-e5",
			step: "Ke4-e5", after: "7k/5I2/4x3/4K3/8/8/8/8 b"},
		{name: "an immobilizer captures nothing", pos: "7k/8/4i3/8/4K3/8/8/8 w", move: "Ke4-e5",
			step: "Ke4-e5", after: "7k/8/4i3/4K3/8/8/8/8 b"},
		{name: "a pawn may not open a leaper's line", pos: "4l2k/8/8/8/4P3/4K3/8/8 w", move: "Pe4-a4",
			err: `"Pe4-a4": the move leaves the white king on e3 open to capture by the black long leaper on e8` + rule},
		{name: "a pawn may not make a gap for a double jump", pos: "4l2k/8/8/8/4P3/4K3/8/8 w", move: "Pe4-e5",
			err: `"Pe4-e5": the move leaves the white king on e3 open to capture by the black long leaper on e8` + rule},
		{name: "but a single leaper cannot use it", opts: single, pos: "4l2k/8/8/8/4P3/4K3/8/8 w", move: "Pe4-e5",
			step: "Pe4-e5", after: "4l2k/8/8/4P3/8/4K3/8/8 b"},
		{name: "a suicide may not open a line", pos: "4l2k/8/8/5i2/4P3/4K3/8/8 w", move: "Pe4-off",
			err: `"Pe4-off": the move leaves the white king on e3 open to capture by the black long leaper on e8` + rule},
	})
}

func TestEnd(t *testing.T) {
	tests := []struct {
		pos  string
		opts rules.Options
		move string // played first when not empty
		want string // rules.Status
	}{
		{"7k/6IK/8/8/8/8/8/8 b", defaults, "", "White wins (checkmate)."},
		{"7k/6I1/8/8/8/8/8/K7 b", defaults, "", "White wins (stalemate)."},
		{"7k/6I1/8/8/8/8/8/K7 b", drawStale, "", "Draw (stalemate)."},
		{"7k/6I1/6K1/8/8/8/8/8 w", defaults, "Kg6-h7", "White wins (checkmate)."},
		{"7k/6I1/6K1/8/8/8/8/8 w", defaults, "Kg6-h6", "White wins (stalemate)."},
		{"7k/6I1/6K1/8/8/8/8/8 w", drawStale, "Kg6-h6", "Draw (stalemate)."},
		{"7k/6I1/6K1/8/8/8/8/8 w", drawStale, "Kg6-h7", "White wins (checkmate)."},
		// The frozen pawn can still commit suicide: no stalemate.
		{"7k/6I1/8/8/8/8/8/K2Ip3 b", defaults, "", "Black to move."},
	}
	for _, tt := range tests {
		pos := mustParse(t, tt.pos, tt.opts)
		if tt.move != "" {
			if _, err := pos.Play(tt.move); err != nil {
				t.Fatalf("%s: %v", tt.pos, err)
			}
		}
		if got := rules.Status(Game, pos); got != tt.want {
			t.Errorf("%s %v %s: %s, want %s", tt.pos, tt.opts, tt.move, got, tt.want)
		}
		if pos.Result().Over && len(pos.Legal()) != 0 {
			t.Errorf("%s: game over with legal moves %v", tt.pos, pos.Legal())
		}
	}
	pos := mustParse(t, "7k/6IK/8/8/8/8/8/8 b", defaults)
	_, err := pos.Play("Kh8-g8")
	if want := `"Kh8-g8": the game is over: White wins (checkmate).`; err == nil || err.Error() != want {
		t.Errorf("move after the end: %v, want %s", err, want)
	}
}
