package tanbo_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules/record"
	"github.com/pbemd/pbemd/rules/tanbo"
)

// The SGF of a record has Tanbo's own GM number, the setup stones, a node
// a move whose point maps back to the move, the comments (escaped) and
// the result.
func TestSGF(t *testing.T) {
	r, err := record.Parse(`[Event "Tanbo Board 101"]
[Date "2026.11.27"]
[Game "tanbo"]
[Black "alice"]
[White "bob]\\"]
[Options "-size=9"]
[Result "1-0"]
[Termination "alice resigned"]

{hi} 1. h7 b7 {a ] bracket} 2. b3 1-0
`)
	if err != nil {
		t.Fatal(err)
	}
	w, ok := tanbo.Game.(record.SGFWriter)
	if !ok {
		t.Fatal("Tanbo writes no SGF")
	}
	sgf, err := w.SGF(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"(;FF[4]GM[99]", "SZ[9]", "GN[Tanbo Board 101]", "PB[alice]", `PW[bob\]\\]`,
		"DT[2026-11-27]", "RE[W+R]", "AB[hb][bh]", "AW[bb][hh]", "PL[B]C[hi]",
		"\n;B[hc]", "\n;W[bc]C[a \\] bracket]", "\n;B[bg])\n"} {
		if !strings.Contains(sgf, want) {
			t.Errorf("SGF lacks %q:\n%s", want, sgf)
		}
	}
	var got []string
	for _, m := range regexp.MustCompile(`;[BW]\[([a-z]{2})\]`).FindAllStringSubmatch(sgf, -1) {
		p, err := tanbo.PointOfSGF(m[1], 9)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, p)
	}
	if strings.Join(got, " ") != "h7 b7 b3" {
		t.Errorf("the SGF's moves map back to %q, want h7 b7 b3", got)
	}
	// An illegal record has no SGF.
	r.Moves[1].Text = "a1"
	if _, err := w.SGF(r); err == nil || !strings.Contains(err.Error(), "move 2") {
		t.Errorf("an illegal move: %v", err)
	}
}

// SGF's corners are Tanbo's corners on every size.
func TestSGFPoint(t *testing.T) {
	for _, c := range []struct {
		point string
		size  int
		sgf   string
	}{{"a1", 9, "ai"}, {"i9", 9, "ia"}, {"a19", 19, "aa"}, {"s1", 19, "ss"}, {"m7", 13, "mg"}} {
		got, err := tanbo.SGFPoint(c.point, c.size)
		if err != nil || got != c.sgf {
			t.Errorf("SGFPoint(%s, %d) = %q, %v; want %q", c.point, c.size, got, err, c.sgf)
		}
		back, err := tanbo.PointOfSGF(got, c.size)
		if err != nil || back != c.point {
			t.Errorf("PointOfSGF(%s, %d) = %q, %v; want %s", got, c.size, back, err, c.point)
		}
	}
	if _, err := tanbo.SGFPoint("j10", 9); err == nil {
		t.Error("j10 on 9x9 mapped")
	}
	for _, bad := range []string{"", "a", "jj", "a]", "aaa"} {
		if _, err := tanbo.PointOfSGF(bad, 9); err == nil {
			t.Errorf("PointOfSGF(%q) read", bad)
		}
	}
}
