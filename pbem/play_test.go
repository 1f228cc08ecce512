package pbem

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// TestFullGames plays a game of every registered game by mail to its end,
// checking every reply against a copy of the game kept by the test. Each
// move is the first legal one, so the games are the same every run; a game
// still running after maxMoves ends by resignation.
func TestFullGames(t *testing.T) {
	t.Parallel()
	const maxMoves = 150
	for _, g := range catalog.All() {
		t.Run(g.Name(), func(t *testing.T) {
			h := newHarness(t)
			h.signup("alice", "bob")
			players := [2]string{"alice", "bob"}
			params := smallestBoard(g)
			out := h.send("alice@example.org", strings.TrimSpace(g.Name()+" challenge alice bob "+params), "")
			if len(out) != 2 {
				t.Fatalf("challenge: %v", subjects(out))
			}
			opts, err := rules.ParseOptions(g, strings.Fields(params))
			if err != nil {
				t.Fatal(err)
			}
			game, err := g.Start(opts)
			if err != nil {
				t.Fatal(err)
			}
			checkBoardMails(t, g, out, game, players, true)
			for n := 1; !game.Result().Over; n++ {
				seat := game.ToMove()
				id := players[seat]
				if n > maxMoves {
					out = h.send(id+"@example.org", fmt.Sprintf("%s resign 101 %s pw-%s", g.Name(), id, id), "")
					if len(out) != 2 || !strings.Contains(out[0].Body, "Game won by "+players[1-seat]+".") {
						t.Fatalf("resignation: %v", subjects(out))
					}
					return
				}
				move := game.Legal()[0]
				if _, err := game.Play(move); err != nil {
					t.Fatalf("the test's copy refused its own legal move %q: %v", move, err)
				}
				out = h.send(id+"@example.org", fmt.Sprintf("%s move 101 %s pw-%s %s#%d", g.Name(), id, id, move, n), "")
				checkBoardMails(t, g, out, game, players, false)
				h.db.View(func(tx *store.Tx) error {
					rec, err := tx.Game(g.Name(), 101)
					if err == nil && !rec.Over && rec.ToMove != game.ToMove() {
						t.Fatalf("after move %d the record says seat %d is to move; the game says %d", n, rec.ToMove, game.ToMove())
					}
					return err
				})
			}
			// After the end, moves are refused.
			errorReply(t, h.send("alice@example.org", g.Name()+" move 101 alice pw-alice x", ""), "alice@example.org",
				g.Title()+" board 101 is over; no more moves can be played on it.")
		})
	}
}

// smallestBoard is a challenge option that keeps a test game short.
func smallestBoard(g rules.Game) string {
	for _, o := range g.Options() {
		if o.Name == "size" && len(o.Values) > 0 {
			return "-size=" + o.Values[len(o.Values)-1]
		}
	}
	return ""
}

// checkBoardMails checks the two board mails of a move: one to each player,
// the subject naming who is to move or how the game ended, the body showing
// the same board and state as the test's copy.
func checkBoardMails(t *testing.T, g rules.Game, out []reply, game rules.Position, players [2]string, isNew bool) {
	t.Helper()
	if len(out) != 2 || out[0].To != "alice@example.org" || out[1].To != "bob@example.org" {
		t.Fatalf("want one board mail to each player, got %v", subjects(out))
	}
	res := game.Result()
	var subject, state string
	switch {
	case !res.Over:
		subject = fmt.Sprintf("%s Board 101 %s", g.Title(), players[game.ToMove()])
		state = fmt.Sprintf("It is %s's turn.", players[game.ToMove()])
	case res.Winner == rules.Draw:
		subject, state = g.Title()+" Board 101 tie", "Game was a tie."
	default:
		subject = fmt.Sprintf("%s Board 101 won by %s", g.Title(), players[res.Winner])
		state = fmt.Sprintf("Game won by %s.", players[res.Winner])
	}
	if isNew {
		subject = "New " + subject
	}
	for _, r := range out {
		if r.Subject != subject {
			t.Fatalf("subject %q, want %q", r.Subject, subject)
		}
		if !strings.Contains(r.Body, "\n"+state+"\n") {
			t.Fatalf("body lacks %q:\n%s", state, r.Body)
		}
		if !strings.Contains(r.Body, game.Board()) {
			t.Fatalf("body lacks the board\n%s\nbody:\n%s", game.Board(), r.Body)
		}
	}
}
