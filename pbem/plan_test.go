package pbem

import (
	"fmt"
	"strings"
	"testing"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
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
			if rec := h.game(name, 101); rec.Seats[0] != "alice" {
				t.Fatalf("seats %q", rec.Seats)
			}
			lines, main := scriptedPlan(t, mustReplay(t, h, name), 0, depth)
			r := one(t, h.send("bob@example.org", name+" queue 101 bob pw-bob", strings.Join(lines, "\n")), "bob@example.org")
			says(t, r.Body, "Planned for bob (")
			checkWidth(t, name, r)
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
			rec := h.game(name, 101)
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
	_, pos, err := model.Replay(h.game(name, 101), len(h.game(name, 101).Moves))
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

// TestPlanText: plans read back as written, one line or one branch a
// line, and what is wrong or too big is refused with what would be right.
func TestPlanText(t *testing.T) {
	for _, text := range []string{
		"h3",
		"h3 then b9#4 then resign",
		"if Xd5-f5 then Pe2-e5 if Pd7-d6 then Wd1-a4 else Pc2-c4",
		"if a then b if c then d end else if e then f else g",
		"if a then b then c if d then e end end else h",
		"if 1122 2211 then 7264 6253 else 1213",
	} {
		pl, err := parsePlan(strings.Fields(text))
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if got := pl.String(); got != text {
			t.Errorf("%q reads back as %q", text, got)
		}
		var lines []string
		pl.lines(0, "", false, &lines)
		again, err := parsePlan(strings.Fields(strings.Join(lines, "\n")))
		if err != nil || again.String() != text {
			t.Errorf("%q one branch a line:\n%s\nreads back as %q, %v", text, strings.Join(lines, "\n"), again, err)
		}
	}
	// The example: the "else" belongs to the inner "if".
	pl, _ := parsePlan(strings.Fields("if Xd5-f5 then Pe2-e5 if Pd7-d6 then Wd1-a4 else Pc2-c4"))
	if len(pl) != 1 || len(pl[0].Next) != 2 || pl[0].Next[1].If != "" || pl[0].Next[1].Play != "Pc2-c4" {
		t.Errorf("the else went elsewhere: %+v", pl)
	}
	// "end" gives it to the outer one.
	pl, _ = parsePlan(strings.Fields("if Xd5-f5 then Pe2-e5 if Pd7-d6 then Wd1-a4 end else Pc2-c4"))
	if len(pl) != 2 || len(pl[0].Next) != 1 || pl[1].Play != "Pc2-c4" {
		t.Errorf("end did not close the inner plan: %+v", pl)
	}

	deep := strings.TrimSuffix(strings.Repeat("a then ", maxPlanDepth+1), " then ")
	var wide []string
	for i := range maxPlanNodes + 1 {
		wide = append(wide, fmt.Sprintf("if a%d then b", i))
	}
	for _, c := range []struct{ text, want string }{
		{deep, "a plan is at most 20 moves deep; plan fewer moves ahead"},
		{strings.Join(wide, " else "), "a plan has at most 64 moves; this one has more. Plan fewer answers"},
		{"else h3", `"else" (word 1) stands where a move must be; write the move you will play there`},
		{"if h7 b7", `"if h7 b7" must be followed by "then" and your move, e.g. "if h7 b7 then MOVE"`},
		{"if then b7", `"if" must be followed by the opponent's move, e.g. "if e7-e5 then g1-f3"`},
		{"if h7 then b7 else if h7 then b8", "the answer h7 is named twice in one choice; the second could never be played"},
		{"resign then h3", "nothing can be planned after a resignation"},
		{"if h7 then draw", `"draw" cannot be planned, only moves and resign can; send it when it is your turn`},
		{"h3 else b7", `"else" (word 2) follows a complete plan; an "else" must follow an "if ... then MOVE" still open`},
		{"if h7 then b7 end end", `"end" (word 6) follows a complete plan; an "else" must follow an "if ... then MOVE" still open`},
		{"if h7 then", `the plan ends after "then"; write the move you will play after it`},
		{"if h7 then b7#x", `"b7#x" does not end in a move number; write the move number as #N after the move, e.g. e2-e5#3`},
	} {
		_, err := parsePlan(strings.Fields(c.text))
		if err == nil || err.Error() != c.want {
			t.Errorf("%.40q: got %v, want %s", c.text, err, c.want)
		}
	}
}

// TestPlanOfOldRecords: a queue stored as a list of moves, as before
// plans, reads as the plan of those moves one after another.
func TestPlanOfOldRecords(t *testing.T) {
	rec := &store.Game{Kind: "tanbo", Board: 7, Seats: []string{"alice", "bob"}, Queue: []store.Queued{
		{Seat: 1, User: "bob", Text: "b7"},
		{Seat: 0, User: "alice", Text: "h3"},
		{Seat: 1, User: "bob", Text: "h3", Number: 4},
		{Seat: 1, User: "bob", Text: "resign"},
	}}
	pl, err := planOf(rec, 1)
	if err != nil || pl.String() != "b7 then h3#4 then resign" || !pl.hasResign() {
		t.Fatalf("bob's plan %q, %v", pl, err)
	}
	// Stored again, a list stays a list: older readers can read it.
	setPlan(rec, 1, pl.withoutResign(), time.Now())
	if len(rec.Queue) != 3 || rec.Queue[0].User != "alice" || rec.Queue[2].Text != "h3" || rec.Queue[2].Number != 4 {
		t.Errorf("stored again: %+v", rec.Queue)
	}
}

// TestPlanByMail: a plan in the Subject is checked against the board
// before it is kept; a forged mail cannot change it; an answer the plan
// does not name ends it, and its owner gets his board.
func TestPlanByMail(t *testing.T) {
	h := twoPlayers(t)
	for _, c := range []struct{ plan, want string }{
		{"if z9 then b7", `Your plan was not queued: the answer in "if z9" cannot be played there: `},
		{"if h7 then h7", "Your plan was not queued: after h7, your h7 is not legal: "},
		{"if h7 then b7 if b3 then b3", "Your plan was not queued: after b3, your b3 is not legal: "},
	} {
		r := one(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob "+c.plan, ""), "bob@example.org")
		says(t, r.Body, c.want)
	}
	if g := h.game("tanbo", 101); len(g.Queue) != 0 {
		t.Fatalf("a refused plan was kept: %+v", g.Queue)
	}
	r := one(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob if h7 then b7 if b3 then h3 else b6 end else if b3 then b7", ""), "bob@example.org")
	has(t, r.Body, "Planned for bob (4 moves); nobody else sees it before it is played:\n"+
		"  if h7 then b7\n    if b3 then h3\n    else b6\n  end\n  else if b3 then b7\n")
	checkWidth(t, "plan", r)
	// A forged mail in bob's name, without his password, changes nothing.
	h.deliver(h.forged("bob@example.org", "tanbo queue 101 bob guessed clear", ""))
	h.deliver(h.forged("bob@example.org", "tanbo queue 101 bob guessed if h7 then h3", ""))
	if pl, err := planOf(h.game("tanbo", 101), 1); err != nil || pl.nodes() != 4 {
		t.Fatalf("after forged mails, bob's plan is %q, %v", pl, err)
	}
	// It is alice's turn: she cannot see it, nor plan on bob's turn.
	errorReply(t, h.send("alice@example.org", "tanbo queue 101 alice pw-alice if b7 then b3", ""), "alice@example.org",
		"Your plan was not queued: it is your turn on Tanbo board 101; send your move first, then plan your answers to the reply.")

	// alice plays h7: bob's b7 is played for him, and only alice is mailed.
	r = one(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", ""), "alice@example.org")
	says(t, r.Body, "alice played h7.\nbob played b7 (queued).")
	has(t, one(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob", ""), "bob@example.org").Body,
		"Planned for bob (2 moves); nobody else sees it before it is played:\n  if b3 then h3\n  else b6\n")
	// alice answers g7, which the plan names only as "else": b8 is played.
	r = one(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice g7", ""), "alice@example.org")
	says(t, r.Body, "bob played b6 (queued).")
	if g := h.game("tanbo", 101); len(g.Queue) != 0 || len(g.Moves) != 4 {
		t.Fatalf("after the plan: %d moves, queue %+v", len(g.Moves), g.Queue)
	}

	// A plan that does not name the answer ends, and bob gets his board.
	one(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob if b3 then h3", ""), "bob@example.org")
	boardMails(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice f7", ""), "Tanbo Board 101 bob",
		"alice@example.org", "bob@example.org")
	if g := h.game("tanbo", 101); len(g.Queue) != 0 || len(g.Moves) != 5 {
		t.Errorf("after an answer the plan did not name: %d moves, queue %+v", len(g.Moves), g.Queue)
	}
}

// TestPlanAddResignAndDamage: "add" puts a move after each last move of a
// plan, a second resign takes back the one planned, a plan too big for the
// bounds is refused whole, and a damaged plan stops no board.
func TestPlanAddResignAndDamage(t *testing.T) {
	h := twoPlayers(t)
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "")
	one(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob if b3 then h3 else if g7 then b6", ""), "bob@example.org")
	r := one(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob add resign", ""), "bob@example.org")
	has(t, r.Body, "Planned for bob (4 moves)", "  if b3 then h3\n    then resign\n  end\n  else if g7 then b6\n    then resign\n")
	r = one(t, h.send("bob@example.org", "tanbo resign 101 bob pw-bob", ""), "bob@example.org")
	says(t, r.Body, "a second resign takes it back, so you play on.")
	if pl, _ := planOf(h.game("tanbo", 101), 1); pl.String() != "if b3 then h3 else if g7 then b6" {
		t.Errorf("after the take-back: %q", pl)
	}
	// Beyond the bounds, in the body, nothing is kept.
	many := strings.Repeat("b7 then ", maxPlanDepth) + "b7"
	errorReply(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob add", many), "bob@example.org",
		"a plan is at most 20 moves deep; plan fewer moves ahead.")
	big := strings.Repeat("if b3 then h3 ", 1000)
	errorReply(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob", big), "bob@example.org",
		"A plan is at most 8000 bytes; this one has 13999. Plan fewer answers.")
	if pl, _ := planOf(h.game("tanbo", 101), 1); pl.nodes() != 2 {
		t.Errorf("a refused plan changed the one kept: %q", pl)
	}

	// A plan that cannot be read is dropped when its turn comes; the move
	// that gave the turn stands, and its owner is told and mailed.
	err := h.db.Update(func(tx *store.Tx) error {
		g, err := tx.Game("tanbo", 101)
		if err != nil {
			return err
		}
		g.Queue = []store.Queued{{Seat: 1, User: "bob", Text: "if b3 then else"}}
		return tx.PutGame(g)
	})
	if err != nil {
		t.Fatal(err)
	}
	out := h.send("alice@example.org", "tanbo move 101 alice pw-alice b3", "")
	if len(out) != 3 || out[0].To != "bob@example.org" {
		t.Fatalf("after a damaged plan: %v", subjects(out))
	}
	says(t, out[0].Body, "Your plan on Tanbo board 101 could not be read (")
	boardMails(t, out[1:], "Tanbo Board 101 bob", "alice@example.org", "bob@example.org")
	if g := h.game("tanbo", 101); len(g.Moves) != 3 || len(g.Queue) != 0 {
		t.Errorf("after a damaged plan: %d moves, queue %+v", len(g.Moves), g.Queue)
	}
}

// TestPlanByReply: a reply to a board mail queues a plan from its first
// line, on the token of the player it was mailed to, and the plan plays.
func TestPlanByReply(t *testing.T) {
	h, out := ultimaGame(t)
	toBob := mailTo(t, out, "bob@example.org")
	r := one(t, h.deliver(h.plainReply("bob@example.org", toBob, "queue if e2-e5 then e7-e6 else if d2-d4 then d7-d6")), "bob@example.org")
	has(t, r.Body, "Planned for bob (2 moves)", "  if Pe2-e5 then Pe7-e6\n  else if Pd2-d4 then Pd7-d6\n")
	r = one(t, h.deliver(h.plainReply("alice@example.org", mailTo(t, out, "alice@example.org"), "d2-d4")), "alice@example.org")
	says(t, r.Body, "bob played Pd7-d6 (queued).")
	if got := strings.Join(moves(h), " "); got != "Pd2-d4 Pd7-d6" {
		t.Errorf("moves: %s", got)
	}
}
