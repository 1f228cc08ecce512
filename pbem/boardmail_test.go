package pbem

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	model "github.com/pbemd/pbemd/pbem/board"
)

// playFirstLegal plays n moves on tanbo board 101, each the first legal move
// of the side to move, and returns the replies to the last.
func playFirstLegal(t *testing.T, h *harness, n int) []reply {
	t.Helper()
	var out []reply
	for range n {
		rec := h.game("tanbo", 101)
		_, pos, err := model.Current(rec)
		if err != nil {
			t.Fatal(err)
		}
		who := rec.Seats[pos.ToMove()]
		out = h.send(who+"@example.org", fmt.Sprintf("tanbo move 101 %s pw-%s %s", who, who, pos.Legal()[0]), "")
		if len(out) == 0 || strings.HasSuffix(out[0].Subject, "Error") {
			t.Fatalf("move %d refused: %v", len(rec.Moves)+1, out)
		}
	}
	return out
}

// listedMoves reads "n. move" pairs off a board mail's move list.
func listedMoves(body string) [][2]string {
	var moves [][2]string
	for _, m := range regexp.MustCompile(`(\d+)\. ([a-s]\d+)\b`).FindAllStringSubmatch(body, -1) {
		moves = append(moves, [2]string{m[1], m[2]})
	}
	return moves
}

// The numbers of a board mail's move list are the numbers "#n" takes: the
// same moves sent with them on a new board are each accepted.
func TestMoveListNumbersAreAccepted(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	playFirstLegal(t, h, 9)
	show := one(t, h.send("alice@example.org", "tanbo show 101", ""), "alice@example.org")
	moves := listedMoves(show.Body)
	if len(moves) != 9 {
		t.Fatalf("the move list of show has %d moves, want 9:\n%s", len(moves), show.Body)
	}
	h.send("alice@example.org", "tanbo challenge alice bob -size=9", "")
	for i, m := range moves {
		who := []string{"alice", "bob"}[i%2]
		out := h.send(who+"@example.org", fmt.Sprintf("tanbo move 102 %s pw-%s %s#%s", who, who, m[1], m[0]), "")
		if len(out) == 0 || strings.HasSuffix(out[0].Subject, "Error") {
			t.Fatalf("%s#%s as listed was refused: %s", m[1], m[0], out[0].Body)
		}
	}
	// A number ahead of the board names the next one.
	r := one(t, h.send("alice@example.org", "tanbo move 102 bob pw-bob a1#14", ""), "alice@example.org")
	says(t, r.Body, "the next move on Tanbo board 102 is #10, not #14")
}

// An ordinary board mail shows the last rows of the move list and says how
// to get the rest; the first mail, show and the end mail show all of it.
func TestBoardMailShowsRecentMoves(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	// 15 moves are 8 rows, two moves a row: the last rows hold moves 5 to 15.
	out := playFirstLegal(t, h, 2*recentRows+3)
	body := out[0].Body
	if got := listedMoves(body); len(got) != 11 || got[0][0] != "5" {
		t.Errorf("an ordinary board mail lists %v, want the last %d rows, moves 5 to 15:\n%s", got, recentRows, body)
	}
	has(t, body, "Moves 1 to 4 are not shown; for the whole list send:\n  tanbo show 101\n")
	golden(t, "board-recent", out[:1])
	show := one(t, h.send("alice@example.org", "tanbo show 101", ""), "alice@example.org")
	if n := len(listedMoves(show.Body)); n != 2*recentRows+3 {
		t.Errorf("show lists %d moves, want all %d", n, 2*recentRows+3)
	}
	hasNot(t, show.Body, "not shown")
	end := h.send("bob@example.org", "tanbo resign 101 bob pw-bob", "")
	if n := len(listedMoves(end[0].Body)); n != 2*recentRows+3 {
		t.Errorf("the end mail lists %d moves, want all %d:\n%s", n, 2*recentRows+3, end[0].Body)
	}
}

// The mail to the player to move ends with the command to send; the
// others' mails do not.
func TestBoardMailEndsWithNextCommand(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	out := h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	for _, r := range out {
		ends := strings.HasSuffix(r.Body, "\n  tanbo move 101 bob PASSWORD MOVE#2\n")
		if want := r.To == "bob@example.org"; ends != want {
			t.Errorf("mail to %s ends with the command: %v, want %v:\n%s", r.To, ends, want, r.Body)
		}
	}
}

// Text written below a quote (bottom posting) is kept: a move's comment and
// a chat; the quote and its attribution are not.
func TestBottomPosted(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	quoted := "On Sun, Nov 22, 2026 at 12:00 PM pbemd <pbem@example.org> wrote:\n> Summary of Tanbo Board 101\n>\n> It is alice's turn.\n\n"
	out := h.send("alice@example.org", "Re: tanbo move 101 alice pw-alice h7 **", quoted+"Your move, Bob.\n-- \nAlice\n")
	r := boardMails(t, out, "Tanbo Board 101 bob **", "alice@example.org", "bob@example.org")
	has(t, r.Body, "alice writes:\nYour move, Bob.\n")
	hasNot(t, r.Body, "wrote:", "> Summary", "-- \nAlice")
	out = h.send("bob@example.org", "Re: tanbo chat 101 bob pw-bob", quoted+"Thinking.\n")
	has(t, out[0].Body, "bob writes:\nThinking.\n")
	hasNot(t, out[0].Body, "wrote:")
	// A long unflowed paragraph is re-wrapped; its words are all kept.
	long := strings.TrimSpace(strings.Repeat("a long line of chat ", 12))
	out = h.send("bob@example.org", "tanbo chat 101 bob pw-bob", quoted+long+"\n")
	for _, r := range out {
		checkWidth(t, "chat", r)
		says(t, r.Body, long)
	}
	// Above and below a quote, in one comment.
	out = h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "Hm.\n\n"+quoted+"There.\n")
	has(t, out[0].Body, "bob writes:\nHm.\n\nThere.\n")
}

// A reply to a board mail with its subject unchanged holds no command: the
// answer says how to write one, with the next move's number.
func TestBoardMailSubjectReply(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	for _, subject := range []string{"Re: Tanbo Board 101 alice **", "Re: New Tanbo Board 101 alice", "RE: Tanbo Board 101 won by bob"} {
		out := h.send("alice@example.org", subject, "h7")
		r := errorReply(t, out, "alice@example.org", strings.Join(strings.Fields(strings.SplitN(out[0].Body, "\n\n", 2)[0]), " "))
		has(t, r.Body, "\n  tanbo move 101 alice PASSWORD MOVE#1\n")
		if subject == "Re: Tanbo Board 101 alice **" {
			golden(t, "board-subject", out)
		}
	}
	// The alias still plays: "board" = "move".
	boardMails(t, h.send("alice@example.org", "tanbo board 101 alice pw-alice h7", ""), "Tanbo Board 101 bob", "alice@example.org", "bob@example.org")
}

// The tutorial's commands, set apart on lines of their own, work as it
// says when sent in its order.
func TestTutorialCommands(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	text := one(t, h.send("x@example.org", "help tutorial", ""), "x@example.org").Body
	var cmds []string
	for _, l := range strings.Split(text, "\n") {
		// The robot's game is played by TestRobotsInFirstMails; here
		// board 101 is Alice and Bob's.
		if strings.HasPrefix(l, "     ") && !strings.Contains(l, "PASSWORD") && !strings.Contains(l, "-robot") {
			cmds = append(cmds, strings.TrimSpace(l))
		}
	}
	if len(cmds) < 3 {
		t.Fatalf("the tutorial sets apart %d commands: %q", len(cmds), cmds)
	}
	h.send("bob@example.org", "signup bob secret", "")
	for _, c := range cmds {
		who := "alice"
		if strings.Contains(c, " bob ") && !strings.Contains(c, "challenge") {
			who = "bob"
		}
		out := h.send(who+"@example.org", c, "")
		if len(out) == 0 || strings.HasSuffix(strings.ToLower(out[0].Subject), "error") {
			t.Errorf("the tutorial's %q fails: %v", c, out)
		}
	}
	if g := h.game("tanbo", 101); len(g.Moves) != 1 || g.Moves[0].Text != "h7" {
		t.Errorf("after the tutorial's commands board 101 has moves %+v, want h7", g.Moves)
	}
}

// The board mails of every game at the start, in the middle (Taratibu by
// turns) and at the end, as golden files.
func TestBoardMailsOfEachGame(t *testing.T) {
	t.Parallel()
	for _, kind := range gameNames() {
		t.Run(kind, func(t *testing.T) {
			h := newHarness(t)
			h.signup("alice", "bob")
			out := h.send("alice@example.org", kind+" challenge alice bob", "")
			golden(t, "board-"+kind+"-start", out[:1])
			for range 8 {
				rec := h.game(kind, 101)
				_, pos, err := model.Current(rec)
				if err != nil {
					t.Fatal(err)
				}
				who := rec.Seats[pos.ToMove()]
				legal := pos.Legal()
				out = h.send(who+"@example.org", fmt.Sprintf("%s move 101 %s pw-%s %s#%d", kind, who, who, legal[len(legal)/2], len(rec.Moves)+1), "")
				if len(out) == 0 || strings.HasSuffix(out[0].Subject, "Error") {
					t.Fatalf("move refused: %v", out)
				}
			}
			// The mail to the player to move, which ends with his command.
			for _, r := range out {
				if strings.HasSuffix(r.Body, "#9\n") {
					golden(t, "board-"+kind+"-middle", []reply{r})
				}
			}
			rec := h.game(kind, 101)
			_, pos, _ := model.Current(rec)
			who := rec.Seats[pos.ToMove()]
			out = h.send(who+"@example.org", fmt.Sprintf("%s resign 101 %s pw-%s", kind, who, who), "Good game.")
			golden(t, "board-"+kind+"-end", out[:1])
		})
	}
}

// The errors about a board, each in one golden file: what was wrong and
// what to send instead, the board, the quoted mail.
func TestErrorReplies(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	var out []reply
	for _, c := range [][2]string{
		{"bob", "tanbo move 101 bob pw-bob b7"},           // not his turn
		{"alice", "tanbo move 101 alice pw-alice h7#3"},   // wrong number
		{"alice", "tanbo move 101 alice pw-alice"},        // too few words
		{"alice", "tanbo move 101 alice pw-alice pass"},   // no pass
		{"alice", "tanbo dance 101"},                      // no such command
		{"alice", "tanbo challenge alice bob -size=7"},    // bad option
		{"alice", "tanbo move 101 alice pw-alice accept"}, // nothing to accept
	} {
		out = append(out, one(t, h.send(c[0]+"@example.org", c[1], ""), c[0]+"@example.org"))
	}
	golden(t, "errors", out)
}
