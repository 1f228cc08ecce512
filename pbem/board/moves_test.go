package board

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// The mails' move list and MoveRows number every move as "#n" does, in
// the two-column layout, the turn layout and the one-entry-a-line layout of
// long moves; the turn of a Taratibu row is its place in the game.
func TestMoveRowsAsMails(t *testing.T) {
	g, _ := catalog.Lookup("taratibu")
	for name, c := range map[string]struct {
		seats []int
		text  string
		turns bool
	}{
		"alternate":      {[]int{0, 1, 0, 1, 0}, "%04d", false},
		"turns":          {[]int{0, 1, 1, 0, 0, 0, 1}, "%04d", true},
		"second first":   {[]int{1, 0, 1}, "%04d", false},
		"long turns":     {[]int{0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1}, "%04d", true},
		"no moves":       {nil, "%04d", false},
		"one long entry": {[]int{0, 0, 0, 0, 0, 0, 0, 0}, "%04d", true},
		"long moves":     {[]int{0, 1, 0}, "a1-b2-c3-d4-e5-f6-g7-h8-i9-j10-k11-%d", false},
	} {
		rec := &store.Game{Kind: "taratibu", Seats: []string{"alice", "bob"}}
		for i, s := range c.seats {
			rec.Moves = append(rec.Moves, store.Move{Seat: s, Text: fmt.Sprintf(c.text, 1111+i)})
		}
		mail := MoveList(g, rec, 0)
		var got []string
		for _, m := range regexp.MustCompile(`(\d+)\. (\S+)`).FindAllStringSubmatch(mail, -1) {
			got = append(got, "#"+m[1]+" "+m[2])
		}
		var want []string
		for i, m := range rec.Moves {
			want = append(want, fmt.Sprintf("#%d %s", i+1, m.Text))
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: the mail numbers the moves\n%s\nwant\n%s\n(%s)", name, strings.Join(got, "\n"), strings.Join(want, "\n"), mail)
		}
		var fromRows []string
		for i, row := range MoveRows(rec) {
			if c.turns && row.Turn != i+1 || !c.turns && row.Turn != 0 {
				t.Errorf("%s: row %d is turn %d", name, i, row.Turn)
			}
			if c.turns && !strings.Contains(mail, fmt.Sprintf("Turn %d, ", i+1)) {
				t.Errorf("%s: the mail does not show turn %d:\n%s", name, i+1, mail)
			}
			first := true
			for _, cell := range row.Seats {
				for _, m := range cell {
					if first && m.Number != row.Number {
						t.Errorf("%s: row numbered %d starts with move #%d", name, row.Number, m.Number)
					}
					first = false
					fromRows = append(fromRows, fmt.Sprintf("#%d %s", m.Number, m.Text))
				}
			}
		}
		if strings.Join(fromRows, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: MoveRows\n%s\nwant\n%s", name, strings.Join(fromRows, "\n"), strings.Join(want, "\n"))
		}
	}
}
