package pbem

import (
	"strings"
	"testing"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/store"
)

// Current reads the position a record keeps, which is the one a replay of
// its moves reaches.
func TestCurrentIsReplay(t *testing.T) {
	h := twoPlayers(t)
	for _, m := range []string{"alice pw-alice h7", "bob pw-bob b7", "alice pw-alice h6"} {
		h.send(strings.Fields(m)[0]+"@example.org", "tanbo move 101 "+m, "")
	}
	var rec *store.Game
	h.db.View(func(tx *store.Tx) (err error) { rec, err = tx.Game("tanbo", 101); return })
	_, cur, err := model.Current(rec)
	if err != nil {
		t.Fatal(err)
	}
	_, rep, err := model.Replay(rec, len(rec.Moves))
	if err != nil {
		t.Fatal(err)
	}
	if cur.String() != rep.String() || cur.ToMove() != rep.ToMove() || cur.Board() != rep.Board() {
		t.Errorf("Current %q, Replay %q", cur.String(), rep.String())
	}
	rec.Position = "garbage"
	if _, cur, err = model.Current(rec); err != nil || cur.String() != rep.String() {
		t.Errorf("with an unreadable position Current gives %v, %v; want the replay", cur, err)
	}
	if _, _, err := model.Replay(rec, len(rec.Moves)+1); err == nil {
		t.Error("Replay beyond the last move: no error")
	}
}
