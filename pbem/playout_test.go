package pbem

import (
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
)

// PlayOut makes a board only as moves by mail would: a move the rules
// refuse, a move after the end, a move without its time or a board that
// has moves already is refused.
func TestPlayOutRefuses(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	at := h.now.Add(-time.Hour)
	for _, c := range []struct {
		name  string
		rec   *store.Game
		moves []string
		at    []time.Time
		want  string
	}{
		{"unknown game", &store.Game{Kind: "chess", Board: 1}, nil, nil, "want a new board"},
		{"has moves", &store.Game{Kind: "tanbo", Board: 1, Moves: []store.Move{{Text: "a1"}}}, nil, nil, "want a new board"},
		{"a move without a time", &store.Game{Kind: "tanbo", Board: 1, Seats: []string{"a", "b"}}, []string{"a1"}, nil, "a time for each"},
		{"an illegal move", &store.Game{Kind: "tanbo", Board: 1, Seats: []string{"a", "b"}}, []string{"z99; DROP"}, []time.Time{at}, "move 1"},
	} {
		_, err := h.svc.PlayOut(c.rec, c.moves, c.at, rules.Result{}, at)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want one saying %q", c.name, err, c.want)
		}
	}
}

// A board played out keeps its moves with their times, the position they
// reach and the end it was given; settled, a thread of the server's domain.
func TestPlayOutEnds(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	created := h.now.Add(-48 * time.Hour)
	rec := &store.Game{Kind: "tanbo", Board: 1, Seats: []string{"ann", "bob"}, Created: created, Winner: rules.Draw}
	var moves []string
	var times []time.Time
	err := h.db.Update(func(tx *store.Tx) error {
		pos, err := h.svc.PlayOut(&store.Game{Kind: "tanbo", Board: 2, Seats: []string{"ann", "bob"}}, nil, nil, rules.Result{}, created)
		if err != nil {
			return err
		}
		for i := range 3 {
			m := pos.Legal()[0]
			if _, err := pos.Play(m); err != nil {
				return err
			}
			moves, times = append(moves, m), append(times, created.Add(time.Duration(i+1)*time.Hour))
		}
		end := h.now.Add(-time.Hour)
		got, err := h.svc.PlayOut(rec, moves, times, rules.Win(0, "bob resigned"), end)
		if err != nil {
			return err
		}
		if rec.Thread != "" || rec.Rated {
			t.Errorf("played out: thread %q, rated %v; want neither before Settle", rec.Thread, rec.Rated)
		}
		if err := h.svc.Settle(tx, rec); err != nil {
			return err
		}
		if got.String() != pos.String() || rec.Position != pos.String() || len(rec.Moves) != 3 || !rec.Moves[2].At.Equal(times[2]) {
			t.Errorf("played out to %q with %d moves; want %q, 3 moves at their times", rec.Position, len(rec.Moves), pos.String())
		}
		if !rec.Over || rec.Winner != 0 || rec.EndReason != "bob resigned" || !rec.Updated.Equal(end) {
			t.Errorf("end: over %v winner %d %q at %v; want ann's win by resignation at %v", rec.Over, rec.Winner, rec.EndReason, rec.Updated, end)
		}
		if !strings.HasSuffix(rec.Thread, "@example.org") || !strings.HasPrefix(rec.Thread, "tanbo.1.") {
			t.Errorf("thread %q; want tanbo.1.<time>@example.org", rec.Thread)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
