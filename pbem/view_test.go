package pbem

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// MoveRows numbers and fills its rows as the board mails' move list does,
// in the two-column layout and in the one-entry-a-line layout of long turns.
func TestMoveRowsAsMails(t *testing.T) {
	g, _ := catalog.Lookup("taratibu")
	for name, seats := range map[string][]int{
		"alternate":      {0, 1, 0, 1, 0},
		"turns":          {0, 1, 1, 0, 0, 0, 1},
		"second first":   {1, 0, 1},
		"long turns":     {0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1},
		"no moves":       {},
		"one long entry": {0, 0, 0, 0, 0, 0, 0, 0},
	} {
		rec := &store.Game{Kind: "taratibu", Seats: []string{"alice", "bob"}}
		for i, s := range seats {
			rec.Moves = append(rec.Moves, store.Move{Seat: s, Text: fmt.Sprintf("%04d", 1111+i)})
		}
		mail := moveList(g, rec)
		var fromMail []string
		for _, m := range regexp.MustCompile(`(?m)^ *(\d+)\. (.*)$`).FindAllStringSubmatch(mail, -1) {
			fromMail = append(fromMail, m[1]+" "+strings.Join(strings.Fields(m[2]), " "))
		}
		var fromRows []string
		for _, row := range MoveRows(rec) {
			var words []string
			long := regexp.MustCompile(`\d\. (White|Black): `).MatchString(mail)
			for seat, cell := range row.Seats {
				if long && cell != nil {
					words = append(words, []string{"White:", "Black:"}[seat], []string{"alice:", "bob:"}[seat])
				}
				if cell == nil && !long && seat == 0 {
					words = append(words, "...")
				}
				for _, m := range cell {
					words = append(words, m.Text)
					if m.Number < 1 || rec.Moves[m.Number-1].Text != m.Text {
						t.Errorf("%s: move %q numbered %d", name, m.Text, m.Number)
					}
				}
			}
			fromRows = append(fromRows, fmt.Sprintf("%d %s", row.Number, strings.Join(words, " ")))
		}
		if strings.Join(fromRows, "\n") != strings.Join(fromMail, "\n") {
			t.Errorf("%s: MoveRows\n%s\nthe mail's list\n%s\n(%s)", name, strings.Join(fromRows, "\n"), strings.Join(fromMail, "\n"), mail)
		}
	}
}

// Current reads the position a record keeps, which is the one a replay of
// its moves reaches.
func TestCurrentIsReplay(t *testing.T) {
	h := twoPlayers(t)
	for _, m := range []string{"alice pw-alice h7", "bob pw-bob b7", "alice pw-alice h6"} {
		h.send(strings.Fields(m)[0]+"@example.org", "tanbo move 101 "+m, "")
	}
	var rec *store.Game
	h.db.View(func(tx *store.Tx) (err error) { rec, err = tx.Game("tanbo", 101); return })
	_, cur, err := Current(rec)
	if err != nil {
		t.Fatal(err)
	}
	_, rep, err := Replay(rec, len(rec.Moves))
	if err != nil {
		t.Fatal(err)
	}
	if cur.String() != rep.String() || cur.ToMove() != rep.ToMove() || cur.Board() != rep.Board() {
		t.Errorf("Current %q, Replay %q", cur.String(), rep.String())
	}
	rec.Position = "garbage"
	if _, cur, err = Current(rec); err != nil || cur.String() != rep.String() {
		t.Errorf("with an unreadable position Current gives %v, %v; want the replay", cur, err)
	}
	if _, _, err := Replay(rec, len(rec.Moves)+1); err == nil {
		t.Error("Replay beyond the last move: no error")
	}
}
