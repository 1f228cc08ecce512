package tanbo

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/record"
)

// SGFNumber is the GM number of Tanbo's SGF records. SGF (FF[4]) assigns
// numbers 1 to 40 to games it knows, Tanbo none; 99 is ours, so that no
// reader takes the record for Go, whose captures differ.
const SGFNumber = 99

// SGFPoint is the SGF coordinates of a point of a board of the size:
// column and row letters from the top left, "aa"; a1 on 9x9 is "ai".
func SGFPoint(text string, size int) (string, error) {
	b := newBoard(size)
	p, err := b.parsePoint(text)
	if err != nil {
		return "", err
	}
	f, r := fileRank(p)
	return string([]byte{byte('a' + f), byte('a' + size - 1 - r)}), nil
}

// PointOfSGF is the point that SGF coordinates name on a board of the
// size, in Tanbo's notation: "ai" on 9x9 is a1.
func PointOfSGF(sgf string, size int) (string, error) {
	if len(sgf) != 2 || sgf[0] < 'a' || sgf[1] < 'a' || int(sgf[0]-'a') >= size || int(sgf[1]-'a') >= size {
		return "", fmt.Errorf("%q is no SGF point of a %dx%d board; a point is two letters from aa", sgf, size, size)
	}
	return string(rune(sgf[0])) + strconv.Itoa(size-int(sgf[1]-'a')), nil
}

// SGF writes the record of a Tanbo game as an SGF (FF[4]) game tree: its
// size, players, date, result and setup stones, then a node a move with
// the comments written after it. It is the record's other form, so it
// replays the record to check every move and to know who played it.
func (game) SGF(r *record.Record) (string, error) {
	rec := *r
	rec.Moves = append([]record.Move(nil), r.Moves...)
	if _, _, err := record.Replay(Game, &rec); err != nil {
		return "", err
	}
	opts, _ := rules.ParseOptions(Game, strings.Fields(rec.Get("Options"))) // Replay read them
	var start rules.Position
	var err error
	if text := rec.Get("Position"); text != "" {
		start, err = Game.ParsePosition(text, opts)
	} else {
		start, err = Game.Start(opts)
	}
	if err != nil {
		return "", err
	}
	b := &start.(*position).b
	var s strings.Builder
	fmt.Fprintf(&s, "(;FF[4]GM[%d]CA[UTF-8]AP[pbemd]SZ[%d]", SGFNumber, b.size)
	for _, p := range [][2]string{{"GN", "Event"}, {"PC", "Site"}, {"PB", "Black"}, {"PW", "White"}} {
		if v := rec.Get(p[1]); v != "" {
			fmt.Fprintf(&s, "%s[%s]", p[0], sgfText(v))
		}
	}
	if d := rec.Get("Date"); d != "" {
		fmt.Fprintf(&s, "DT[%s]", sgfText(strings.ReplaceAll(d, ".", "-")))
	}
	if re := sgfResult(rec.Result(), rec.Get("Termination")); re != "" {
		fmt.Fprintf(&s, "RE[%s]", re)
	}
	if o := rec.Get("Options"); o != "" {
		fmt.Fprintf(&s, "GC[%s]", sgfText("Options: "+o))
	}
	for c, prop := range []string{"AB", "AW"} {
		var pts []string
		for r := b.size - 1; r >= 0; r-- {
			for f := 0; f < b.size; f++ {
				if b.cell[point(f, r)] == uint8(c+1) {
					pts = append(pts, string([]byte{byte('a' + f), byte('a' + b.size - 1 - r)}))
				}
			}
		}
		if len(pts) > 0 {
			s.WriteString("\n" + prop + "[" + strings.Join(pts, "][") + "]")
		}
	}
	fmt.Fprintf(&s, "PL[%s]", "BW"[b.toMove:b.toMove+1])
	comments := rec.Comments
	note := func(after int) {
		var texts []string
		for len(comments) > 0 && min(comments[0].After, len(rec.Moves)) == after {
			texts = append(texts, comments[0].Text)
			comments = comments[1:]
		}
		if len(texts) > 0 {
			fmt.Fprintf(&s, "C[%s]", sgfText(strings.Join(texts, "\n")))
		}
	}
	note(0)
	for i, m := range rec.Moves {
		pt, err := SGFPoint(m.Text, b.size)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&s, "\n;%s[%s]", "BW"[m.Seat:m.Seat+1], pt)
		note(i + 1)
	}
	s.WriteString(")\n")
	return s.String(), nil
}

// sgfResult is RE of a record's result: B+ or W+ (with R for a
// resignation, T for a forfeit on time, as the server words them), 0 for a draw; "" when the game is
// not over.
func sgfResult(result, termination string) string {
	var re string
	switch result {
	case record.WhiteWins:
		re = "W+"
	case record.BlackWins:
		re = "B+"
	case record.DrawResult:
		return "0"
	default:
		return ""
	}
	switch {
	case strings.Contains(termination, "resigned"):
		re += "R"
	case strings.Contains(termination, "did not move"), strings.Contains(termination, "ran out of time"):
		re += "T"
	}
	return re
}

// sgfText escapes a text value: a backslash before ']' and '\'.
func sgfText(v string) string {
	return strings.NewReplacer(`\`, `\\`, `]`, `\]`).Replace(v)
}
