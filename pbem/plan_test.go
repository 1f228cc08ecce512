package pbem

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
)

// wholeTurn plays a whole turn on a copy of pos, its first move the k-th
// legal one (then the first legal ones, for Taratibu's turns of several
// moves), and returns the turn's text and the position after it.
func wholeTurn(t *testing.T, pos rules.Position, k int) (string, rules.Position) {
	t.Helper()
	p := pos.Clone()
	seat := p.ToMove()
	var moves []string
	for first := true; first || p.ToMove() == seat && !p.Result().Over; first = false {
		legal := p.Legal()
		if len(legal) == 0 {
			t.Fatalf("no legal move in %s", p)
		}
		// Different moves within a turn, so that Taratibu's long turns
		// do not walk a piece to and fro into a repetition.
		m := legal[(k+7*len(moves))%len(legal)]
		if _, err := p.Play(m); err != nil {
			t.Fatalf("legal move %s refused: %v", m, err)
		}
		moves = append(moves, m)
	}
	return strings.Join(moves, " "), p
}

// scriptedPlan writes bob's plan from pos (alice to move), one branch a
// line: three answers at the top, the main one last; a choice of two at
// the fourth level, the main one first, its plan closed by "end"s; the
// main line depth deep. It returns the lines and alice's main line.
func scriptedPlan(t *testing.T, pos rules.Position, level, depth int) (lines, main []string) {
	t.Helper()
	alts := []int{0}
	switch level {
	case 0:
		alts = []int{1, 2, 0}
	case 3:
		alts = []int{0, 1}
	}
	seen := map[string]bool{}
	for j, k := range alts {
		answer, after := wholeTurn(t, pos, k)
		if seen[answer] {
			continue // fewer legal answers than alternatives (a forced capture)
		}
		seen[answer] = true
		if after.Result().Over {
			t.Fatalf("the game ended after %s", answer)
		}
		reply, afterReply := wholeTurn(t, after, 0)
		if afterReply.Result().Over && level+1 < depth {
			t.Fatalf("the game ended after %s %s", answer, reply)
		}
		lead := "if"
		if j > 0 {
			lead = "else if"
		}
		lines = append(lines, fmt.Sprintf("%s %s then %s", lead, answer, reply))
		if k != 0 || level+1 == depth {
			continue
		}
		more, line := scriptedPlan(t, afterReply, level+1, depth)
		lines = append(lines, more...)
		main = append([]string{answer}, line...)
		if j < len(alts)-1 {
			// Each plan nested under this branch is closed, so that the
			// next "else" is this level's.
			for range depth - 1 - level {
				lines = append(lines, "end")
			}
		}
	}
	if len(main) == 0 {
		answer, _ := wholeTurn(t, pos, 0)
		main = []string{answer}
	}
	return lines, main
}

// TestPlanPlaysOutInEveryGame: in each game, a plan six moves deep with
// three answers at the top and a choice deeper is checked when queued and
// played as alice's answers come. Alice gets one board mail a move; bob,
// whose moves the plan plays, gets none until the plan runs out.
func TestPlanPlaysOutInEveryGame(t *testing.T) {
	for _, name := range gameNames() {
		t.Run(name, func(t *testing.T) {
			depth := 6
			if name == "taratibu" {
				depth = 5 // ten turns in all: bob's five are the whole game
			}
			h := newHarness(t)
			h.signup("alice")
			h.signup("bob")
			h.send("alice@example.org", name+" challenge alice bob", "")
			g, _ := catalog.Lookup(name)
			rec := h.game(name, 101)
			if rec.Seats[0] != "alice" {
				t.Fatalf("seats %q", rec.Seats)
			}
			opts, err := rules.ParseOptions(g, rec.Options)
			if err != nil {
				t.Fatal(err)
			}
			pos, err := replay(g, rec, opts, 0)
			if err != nil {
				t.Fatal(err)
			}
			lines, main := scriptedPlan(t, pos, 0, depth)
			r := one(t, h.send("bob@example.org", name+" queue 101 bob pw-bob", strings.Join(lines, "\n")), "bob@example.org")
			says(t, r.Body, "Planned for bob (")
			pl, err := planOf(h.game(name, 101), 1)
			if err != nil {
				t.Fatal(err)
			}
			if pl.depth() != depth || len(pl) != 3 || pl.nodes() != strings.Count(strings.Join(lines, "\n"), "if ") {
				t.Fatalf("plan stored: depth %d, %d branches, %d moves: %s", pl.depth(), len(pl), pl.nodes(), pl)
			}
			for i, answer := range main {
				out := h.send("alice@example.org", fmt.Sprintf("%s move 101 alice pw-alice %s", name, answer), "")
				if h.game(name, 101).Over {
					// The plan's last move ended the game: both hear of it.
					if i != len(main)-1 {
						t.Fatalf("the game ended after alice's answer %d of %d", i+1, len(main))
					}
					boardMails(t, out, out[0].Subject, "alice@example.org", "bob@example.org")
					break
				}
				r := one(t, out, "alice@example.org")
				says(t, r.Body, "bob played ")
				has(t, r.Body, "(queued).")
				if rec := h.game(name, 101); rec.Moves[len(rec.Moves)-1].Seat != 1 || !rec.Moves[len(rec.Moves)-1].Auto {
					t.Fatalf("after alice's answer %d, the last move is %+v", i+1, rec.Moves[len(rec.Moves)-1])
				}
			}
			// The plan has run out: alice's next move gives bob his turn and
			// his board mail.
			if !h.game(name, 101).Over {
				answer, _ := wholeTurn(t, mustReplay(t, h, name), 0)
				out := h.send("alice@example.org", fmt.Sprintf("%s move 101 alice pw-alice %s", name, answer), "")
				boardMails(t, out, fmt.Sprintf("%s Board 101 bob", g.Title()), "alice@example.org", "bob@example.org")
			}
			rec = h.game(name, 101)
			for _, m := range rec.Moves {
				if m.Auto != (m.Seat == 1) {
					t.Errorf("move %+v: Auto should mark bob's planned moves only", m)
				}
			}
			if len(rec.Queue) != 0 {
				t.Errorf("queue left: %+v", rec.Queue)
			}
		})
	}
}

func mustReplay(t *testing.T, h *harness, name string) rules.Position {
	t.Helper()
	g, _ := catalog.Lookup(name)
	rec := h.game(name, 101)
	opts, err := rules.ParseOptions(g, rec.Options)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := replay(g, rec, opts, len(rec.Moves))
	if err != nil {
		t.Fatal(err)
	}
	return pos
}
