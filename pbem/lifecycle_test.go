package pbem

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/store"
)

// Moves of a 9x9 Tanbo game, legal in this order: alice (Black) plays the
// odd ones, bob (White) the even ones.
//   1 h7  2 b7  3 b3  4 h3  5 g7  6 b9

// game reads a board from the store.
func (h *harness) game(kind string, num int) *store.Game {
	h.t.Helper()
	var g *store.Game
	err := h.db.View(func(tx *store.Tx) error {
		var err error
		g, err = tx.Game(kind, num)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return g
}

// user reads a user from the store.
func (h *harness) user(id string) *store.User {
	h.t.Helper()
	var u *store.User
	err := h.db.View(func(tx *store.Tx) error {
		var err error
		u, err = tx.User(id)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return u
}

// boardMails checks that out is one mail to each address, all with the
// subject, and returns the first.
func boardMails(t *testing.T, out []reply, subject string, to ...string) reply {
	t.Helper()
	if len(out) != len(to) {
		t.Fatalf("got %v, want one mail to each of %v", subjects(out), to)
	}
	for i, r := range out {
		if r.To != to[i] || r.Subject != subject {
			t.Fatalf("mail %d: %s %q, want %s %q", i, r.To, r.Subject, to[i], subject)
		}
	}
	return out[0]
}

func has(t *testing.T, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Errorf("body lacks %q:\n%s", w, body)
		}
	}
}

// says checks that the body says each text, whatever its line breaks.
func says(t *testing.T, body string, wants ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(body), " ")
	for _, w := range wants {
		if !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("body does not say %q:\n%s", w, body)
		}
	}
}

func hasNot(t *testing.T, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if strings.Contains(body, w) {
			t.Errorf("body has %q:\n%s", w, body)
		}
	}
}

func TestQueue(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	// bob queues two moves before alice has moved: only he hears of them.
	r := one(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob b7", ""), "bob@example.org")
	if r.Subject != "Tanbo Board 101 queued" {
		t.Errorf("subject %q", r.Subject)
	}
	out := h.send("bob@example.org", "tanbo qmove 101 bob pw-bob add h3#4", "")
	golden(t, "queue", out)
	has(t, one(t, out, "bob@example.org").Body, "Queued for bob, in this order: b7, h3#4.")

	// alice moves: bob's first queued move is played at once, in the same
	// mail, and bob is not mailed: his board waits for alice's answer.
	r = one(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", ""), "alice@example.org")
	if r.Subject != "Tanbo Board 101 alice" {
		t.Errorf("subject %q", r.Subject)
	}
	has(t, r.Body, "alice played h7.\nbob played b7 (queued).\n", "   1. h7         2. b7 (Auto)\n")
	// and the second when its turn comes, as move #4.
	out = h.send("alice@example.org", "tanbo move 101 alice pw-alice b3", "")
	golden(t, "queue-played", out)
	r = one(t, out, "alice@example.org")
	has(t, r.Body, "bob played h3 (queued).", "   3. b3         4. h3 (Auto)\n")
	if g := h.game("tanbo", 101); len(g.Moves) != 4 || !g.Moves[3].Auto || g.Moves[2].Auto || len(g.Queue) != 0 {
		t.Errorf("stored moves %+v, queue %+v", g.Moves, g.Queue)
	}

	// An illegal queued move is reported to its owner only and dropped, with
	// the moves queued after it; the board waits for him.
	one(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob e5", ""), "bob@example.org")
	one(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob add b9", ""), "bob@example.org")
	out = h.send("alice@example.org", "tanbo move 101 alice pw-alice g7", "")
	if len(out) != 3 || out[0].To != "bob@example.org" || out[0].Subject != "Tanbo Board 101 queued move dropped" {
		t.Fatalf("illegal queued move: %v", subjects(out))
	}
	golden(t, "queue-dropped", out[:1])
	says(t, out[0].Body, "Your queued move e5 on Tanbo board 101 was not played: ", "The moves you queued after it (b9) were dropped with it.")
	boardMails(t, out[1:], "Tanbo Board 101 bob", "alice@example.org", "bob@example.org")
	if g := h.game("tanbo", 101); len(g.Moves) != 5 || len(g.Queue) != 0 {
		t.Errorf("after the drop: %d moves, queue %+v", len(g.Moves), g.Queue)
	}

	// Queued when it is his turn, a move is played at once.
	r = boardMails(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob b9#6", ""), "Tanbo Board 101 alice",
		"alice@example.org", "bob@example.org")
	has(t, r.Body, "bob played b9.")

	errs := []struct{ subject, want string }{
		{"tanbo queue 101 bob", "The command has the wrong number of words; write it as: tanbo queue board userid password [add] move[#n]|clear tanbo queue board userid password [add] if ANSWER then MOVE ..."},
		{"tanbo queue 101 bob pw-bob b1#3", "Move b1#3 cannot be queued: board 101 is at move #7 already; queue it with a later number, or without one."},
		{"tanbo queue 101 bob pw-bob propose", `"propose" cannot be queued, only moves and resign can; send it now with "tanbo move 101 bob PASSWORD propose".`},
	}
	for _, e := range errs {
		errorReply(t, h.send("bob@example.org", e.subject, ""), "bob@example.org", e.want)
	}
}

func TestQueuedMoveWithStaleNumber(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	one(t, h.send("bob@example.org", "tanbo queue 101 bob pw-bob b7#4", ""), "bob@example.org")
	out := h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	if len(out) != 3 || out[0].To != "bob@example.org" {
		t.Fatalf("%v", subjects(out))
	}
	says(t, out[0].Body, "Your queued move b7#4 on Tanbo board 101 was not played: it was queued as move #4, but the move to play was #2.")
}

func TestResignOutOfTurnIsQueued(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "")
	r := one(t, h.send("bob@example.org", "tanbo resign 101 bob pw-bob", ""), "bob@example.org")
	has(t, r.Body, "Queued for bob: resign. It is played when your turn comes")
	if g := h.game("tanbo", 101); g.Over {
		t.Fatal("a resignation out of turn ended the game at once")
	}
	r = boardMails(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice b3", ""), "Tanbo Board 101 won by alice",
		"alice@example.org", "bob@example.org")
	has(t, r.Body, "alice played b3.\nbob resigned (queued).\n", "Game won by alice.\nReason: bob resigned.")
}

func TestDrawByAgreement(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.signup("carol")
	h.send("carol@example.org", "tanbo sub 101 carol pw-carol", "")
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	// A proposal may be made out of turn; every mail shows it until answered.
	out := h.send("alice@example.org", "tanbo move 101 alice pw-alice propose", "")
	golden(t, "propose", out)
	const open = "Open proposal: alice proposes a draw; bob answers with \"tanbo move 101 bob PASSWORD accept\" (or reject)."
	r := boardMails(t, out, "Tanbo Board 101 bob", "alice@example.org", "bob@example.org", "carol@example.org")
	says(t, r.Body, open)
	says(t, one(t, h.send("carol@example.org", "tanbo show 101", ""), "carol@example.org").Body, open)

	errs := []struct{ from, subject, want string }{
		{"alice@example.org", "tanbo move 101 alice pw-alice propose", "You have already proposed a draw on Tanbo board 101 and bob has not answered yet; wait for the answer."},
		{"alice@example.org", "tanbo move 101 alice pw-alice accept", "The proposal of a draw on Tanbo board 101 is your own; bob must accept or reject it."},
		{"bob@example.org", "tanbo move 101 bob pw-bob undo", "alice has proposed a draw on Tanbo board 101; answer that first with accept or reject."},
	}
	for _, e := range errs {
		errorReply(t, h.send(e.from, e.subject, ""), e.from, e.want)
	}
	out = h.send("bob@example.org", "tanbo move 101 bob pw-bob accept", "")
	golden(t, "draw-accepted", out[:1])
	r = boardMails(t, out, "Tanbo Board 101 tie", "alice@example.org", "bob@example.org", "carol@example.org")
	has(t, r.Body, "bob accepted alice's draw proposal.", "Game was a tie.\nReason: draw by agreement.")
	hasNot(t, r.Body, "Open proposal")
	errorReply(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice propose", ""), "alice@example.org",
		"Tanbo board 101 is over; there is nothing to propose.")
}

func TestRejectedProposal(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	errorReply(t, h.send("bob@example.org", "tanbo move 101 bob pw-bob accept", ""), "bob@example.org",
		"There is no open proposal on Tanbo board 101 to accept: no draw or undo has been proposed there.")
	h.send("bob@example.org", "tanbo move 101 bob pw-bob draw", "")
	r := boardMails(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice reject", "Not yet!"), "Tanbo Board 101 alice **",
		"alice@example.org", "bob@example.org")
	has(t, r.Body, "alice rejected bob's proposal of a draw.", "It is alice's turn.", "alice writes:\nNot yet!")
	hasNot(t, r.Body, "Open proposal")
	if g := h.game("tanbo", 101); g.Over || g.Vote != nil {
		t.Errorf("after a rejection: over %v, vote %+v", g.Over, g.Vote)
	}
	// A move by the player who should answer declines the proposal; a move
	// by the proposer leaves it open.
	h.send("alice@example.org", "tanbo move 101 alice pw-alice propose", "")
	r = boardMails(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", ""), "Tanbo Board 101 bob",
		"alice@example.org", "bob@example.org")
	has(t, r.Body, "Open proposal: alice proposes a draw")
	r = boardMails(t, h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", ""), "Tanbo Board 101 alice",
		"alice@example.org", "bob@example.org")
	has(t, r.Body, "bob played on, declining alice's proposal of a draw.")
	hasNot(t, r.Body, "Open proposal")
}

func TestUndo(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	errorReply(t, h.send("bob@example.org", "tanbo move 101 bob pw-bob undo", ""), "bob@example.org",
		"You have played no move on Tanbo board 101, so there is nothing to take back.")
	for _, m := range []string{"alice h7", "bob b7", "alice b3"} {
		id, move, _ := strings.Cut(m, " ")
		h.send(id+"@example.org", "tanbo move 101 "+id+" pw-"+id+" "+move, "")
	}
	// bob asks to take back his b7: alice's b3, played after it, goes too.
	r := boardMails(t, h.send("bob@example.org", "tanbo move 101 bob pw-bob undo", ""), "Tanbo Board 101 bob",
		"alice@example.org", "bob@example.org")
	says(t, r.Body, "Open proposal: bob proposes to take back moves 2 to 3 (b7, b3); alice answers with \"tanbo move 101 alice PASSWORD accept\" (or reject).")
	out := h.send("alice@example.org", "tanbo move 101 alice pw-alice accept", "")
	golden(t, "undo", out[:1])
	r = boardMails(t, out, "Tanbo Board 101 bob", "alice@example.org", "bob@example.org")
	has(t, r.Body, "alice accepted bob's undo: moves 2 to 3 (b7, b3) taken back.", "It is bob's turn.\nWhite (bob) plays move #2.", "   1. h7\n")
	if g := h.game("tanbo", 101); len(g.Moves) != 1 || g.Moves[0].Text != "h7" || g.Vote != nil {
		t.Errorf("after the undo: moves %+v vote %+v", g.Moves, g.Vote)
	}
	// The game goes on from there.
	boardMails(t, h.send("bob@example.org", "tanbo move 101 bob pw-bob b7#2", ""), "Tanbo Board 101 alice", "alice@example.org", "bob@example.org")
	// alice's last turn is h7, and bob's b7 came after it.
	h.send("alice@example.org", "tanbo move 101 alice pw-alice undo", "")
	r = boardMails(t, h.send("bob@example.org", "tanbo move 101 bob pw-bob accept", ""), "Tanbo Board 101 alice", "alice@example.org", "bob@example.org")
	has(t, r.Body, "bob accepted alice's undo: moves 1 to 2 (h7, b7) taken back.", "      No moves yet.")
}

func TestOpenSeat(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob", "carol")
	out := h.send("alice@example.org", "tanbo challenge alice ? -size=9", "")
	golden(t, "open-seat", out)
	r := one(t, out, "alice@example.org")
	says(t, r.Body, "A new game: alice (Black) against ? (White).", "Waiting for an opponent; anyone may take the open seat with:\n  tanbo join 101 userid password\n")
	errorReply(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", ""), "alice@example.org",
		"Tanbo board 101 waits for an opponent; no move can be played until someone takes the open seat (tanbo join 101 userid password).")
	has(t, one(t, h.send("carol@example.org", "tanbo games open", ""), "carol@example.org").Body,
		"  101  alice - ?                       0  open seat")
	has(t, one(t, h.send("carol@example.org", "list tanbo", ""), "carol@example.org").Body,
		"  101  alice - ?                       0  open seat")
	errorReply(t, h.send("alice@example.org", "tanbo join 101 alice pw-alice", ""), "alice@example.org",
		"alice already holds a seat on Tanbo board 101; the open seat is for another player.")

	out = h.send("bob@example.org", "tanbo join 101 bob pw-bob", "")
	golden(t, "join", out)
	r = boardMails(t, out, "New Tanbo Board 101 alice", "alice@example.org", "bob@example.org")
	says(t, r.Body, "bob joined: alice (Black) against bob (White). The game begins.", "It is alice's turn.")
	errorReply(t, h.send("carol@example.org", "tanbo join 101 carol pw-carol", ""), "carol@example.org",
		"Tanbo board 101 has no open seat, its players are alice and bob; send 'tanbo games open' for the boards waiting for a player.")
	boardMails(t, h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", ""), "Tanbo Board 101 bob", "alice@example.org", "bob@example.org")

	// The open seat may come first: the joiner then moves first.
	h.send("alice@example.org", "tanbo challenge ? alice -size=9", "")
	r = boardMails(t, h.send("carol@example.org", "tanbo join 102 carol pw-carol", ""), "New Tanbo Board 102 carol", "carol@example.org", "alice@example.org")
	says(t, r.Body, "carol joined: carol (Black) against alice (White).")

	// A board nobody joined can be withdrawn; it is not rated.
	h.send("carol@example.org", "tanbo challenge carol ?", "")
	r = one(t, h.send("carol@example.org", "tanbo resign 103 carol pw-carol", ""), "carol@example.org")
	if r.Subject != "Tanbo Board 103 withdrawn" {
		t.Errorf("subject %q", r.Subject)
	}
	says(t, r.Body, "carol withdrew the open seat board.", "Game withdrawn, not rated.\nReason: carol has decided not to play.")
	hasNot(t, r.Body, "Rating")
	errorReply(t, h.send("alice@example.org", "tanbo challenge ? ?", ""), "alice@example.org",
		"A challenge with an open seat names its one player and a ?, e.g. tanbo challenge alice ?; both seats are open here.")
}

func TestRefuseAndLimit(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob", "carol")
	r := one(t, h.send("bob@example.org", "tanbo reject bob pw-bob", ""), "bob@example.org")
	has(t, r.Body, "bob now refuses every Tanbo challenge by others.")
	errorReply(t, h.send("bob@example.org", "tanbo reject bob pw-bob", ""), "bob@example.org",
		"bob refuses Tanbo challenges already; send \"tanbo accept bob PASSWORD\" to accept them again.")
	errorReply(t, h.send("alice@example.org", "tanbo challenge alice bob", ""), "alice@example.org",
		"bob refuses all Tanbo challenges at present; challenge another player, or open a seat with \"tanbo challenge USERID ?\".")
	// Other games are not refused, nor bob's own challenges.
	if out := h.send("alice@example.org", "tobit challenge alice bob", ""); len(out) != 2 {
		t.Errorf("tobit challenge: %v", subjects(out))
	}
	if out := h.send("bob@example.org", "tanbo challenge bob alice", ""); len(out) != 2 {
		t.Errorf("bob's own challenge: %v", subjects(out))
	}
	one(t, h.send("bob@example.org", "tanbo accept bob pw-bob", ""), "bob@example.org")
	errorReply(t, h.send("bob@example.org", "tanbo accept bob pw-bob", ""), "bob@example.org",
		"bob accepts Tanbo challenges already; send \"tanbo reject bob PASSWORD\" to refuse them.")

	// bob plays one Tanbo game (board 101); with a limit of 2 one more is accepted.
	r = one(t, h.send("bob@example.org", "tanbo limit bob pw-bob 2", ""), "bob@example.org")
	says(t, r.Body, "bob plays at most 2 active Tanbo games: challenges beyond that are refused. Active now: 1.")
	if out := h.send("alice@example.org", "tanbo challenge alice bob", ""); len(out) != 2 {
		t.Fatalf("challenge under the limit: %v", subjects(out))
	}
	errorReply(t, h.send("carol@example.org", "tanbo challenge carol bob", ""), "carol@example.org",
		"bob already plays 2 active Tanbo games, the limit bob set; wait until one ends, or challenge another player.")
	h.send("carol@example.org", "tanbo challenge carol ?", "")
	errorReply(t, h.send("bob@example.org", "tanbo join 103 bob pw-bob", ""), "bob@example.org",
		"bob already plays 2 active Tanbo games, the limit bob set; wait until one ends, or challenge another player.")
	// When a game ends there is room again.
	h.send("alice@example.org", "tanbo resign 102 alice pw-alice", "")
	if out := h.send("bob@example.org", "tanbo join 103 bob pw-bob", ""); len(out) != 2 {
		t.Errorf("join after a game ended: %v", subjects(out))
	}
	errorReply(t, h.send("bob@example.org", "tanbo limit bob pw-bob many", ""), "bob@example.org",
		`"many" is not a limit; write a number of games from 1 to 999, 0 or reject to refuse every challenge, or accept, all or inf for no limit.`)
	errorReply(t, h.send("bob@example.org", "tanbo limit bob", ""), "bob@example.org",
		"The command has the wrong number of words; write it as: tanbo limit userid password [n|0|reject|accept|all|inf]")
}

// TestLimitAsPbmserv: limit 0 and reject refuse every challenge, accept,
// all and inf lift the limit, and the bare form tells the setting; the
// standings show it.
func TestLimitAsPbmserv(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob")
	for _, w := range []string{"0", "reject", "REJECT"} {
		r := one(t, h.send("bob@example.org", "tanbo limit bob pw-bob "+w, ""), "bob@example.org")
		if r.Subject != "Tanbo: limit of bob" {
			t.Errorf("limit %s: subject %q", w, r.Subject)
		}
		has(t, r.Body, "bob refuses every Tanbo challenge by others (limit 0).", "Active now: 0.")
		// (The same mail refused again within a day is not answered:
		// each says which limit it tries.)
		errorReply(t, h.send("alice@example.org", "tanbo challenge alice bob", "at limit "+w), "alice@example.org",
			`bob refuses all Tanbo challenges at present; challenge another player, or open a seat with "tanbo challenge USERID ?".`)
	}
	// The bare form tells the setting and changes nothing.
	has(t, one(t, h.send("bob@example.org", "tanbo limit bob pw-bob", ""), "bob@example.org").Body,
		"bob refuses every Tanbo challenge by others (limit 0).")
	// bob's own challenges are not refused.
	if out := h.send("bob@example.org", "tanbo challenge bob alice", ""); len(out) != 2 {
		t.Fatalf("bob's own challenge under limit 0: %v", subjects(out))
	}
	for i, w := range []string{"accept", "all", "inf"} {
		one(t, h.send("bob@example.org", "tanbo limit bob pw-bob 0", ""), "bob@example.org")
		has(t, one(t, h.send("bob@example.org", "tanbo limit bob pw-bob "+w, ""), "bob@example.org").Body,
			"bob has no limit of active Tanbo games. Active now: "+strconv.Itoa(i+1)+".")
		if out := h.send("alice@example.org", "tanbo challenge alice bob", ""); len(out) != 2 {
			t.Fatalf("challenge after limit %s: %v", w, subjects(out))
		}
	}
	says(t, one(t, h.send("bob@example.org", "tanbo limit bob pw-bob 4", ""), "bob@example.org").Body,
		"bob plays at most 4 active Tanbo games: challenges beyond that are refused. Active now: 4.")
	errorReply(t, h.send("alice@example.org", "tanbo challenge alice bob", ""), "alice@example.org",
		"bob already plays 4 active Tanbo games, the limit bob set; wait until one ends, or challenge another player.")
	has(t, one(t, h.send("bob@example.org", "tanbo limit bob pw-bob", ""), "bob@example.org").Body,
		"bob plays at most 4 active Tanbo games")
	// Help names every form.
	help := one(t, h.send("x@example.org", "help commands", ""), "x@example.org").Body
	has(t, help, "GAME limit userid password [n|0|reject|accept|all|inf]", "0 or reject refuses every challenge", "all or inf: no limit", "Without a value: tells your setting")
}

func TestChatAndMessage(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.signup("carol", "dave")
	h.send("carol@example.org", "tanbo sub 101 carol pw-carol", "")
	// A chat is a short mail of its own, with its own subject, in the
	// board's thread, to the players and subscribers.
	out := h.send("carol@example.org", "tanbo chat 101 carol pw-carol", "Nice opening!")
	golden(t, "chat", out[:1])
	r := boardMails(t, out, "tanbo chat 101 carol", "alice@example.org", "bob@example.org", "carol@example.org")
	if !strings.HasPrefix(r.Body, "Chat at Tanbo Board 101\n\ncarol writes:\nNice opening!\n") {
		t.Errorf("chat body:\n%s", r.Body)
	}
	hasNot(t, r.Body, "Summary of", "a b c d e f g h i")
	if g := h.game("tanbo", 101); len(r.References) == 0 || r.References[0] != g.Thread {
		t.Errorf("chat references %v, want the board's thread %s first", r.References, g.Thread)
	}
	if g := h.game("tanbo", 101); len(g.Moves) != 0 || len(g.Comments) != 1 {
		t.Errorf("chat changed the game: %+v", g)
	}
	// Anyone signed up may chat; dave, who neither plays nor subscribes,
	// gets his chat back.
	boardMails(t, h.send("dave@example.org", "tanbo chat 101 dave pw-dave", "Hi"), "tanbo chat 101 dave",
		"alice@example.org", "bob@example.org", "carol@example.org", "dave@example.org")
	// A player's chat goes to the players and subscribers, once each.
	boardMails(t, h.send("bob@example.org", "tanbo chat 101 bob pw-bob", "Thanks!"), "tanbo chat 101 bob",
		"alice@example.org", "bob@example.org", "carol@example.org")
	says(t, one(t, h.send("x@example.org", "help commands", ""), "x@example.org").Body,
		`GAME chat board userid password`, `as a short mail "GAME chat board userid" in the board's thread. Anyone signed up may chat on any board`)
	errorReply(t, h.send("zed@example.org", "tanbo chat 101 zed pw-zed", "Hi"), "zed@example.org",
		`There is no user "zed"; check the spelling, or sign up first with "signup zed PASSWORD".`)
	errorReply(t, h.send("alice@example.org", "tanbo chat 101 alice pw-alice", ""), "alice@example.org",
		"A chat carries its message in the mail body, and this body is empty; write the message below the subject.")

	out = h.send("alice@example.org", "message alice pw-alice bob dave", "Rematch on Sunday?")
	golden(t, "message", out)
	if len(out) != 3 || out[0].To != "bob@example.org" || out[1].To != "dave@example.org" || out[2].To != "alice@example.org" {
		t.Fatalf("message: %v", subjects(out))
	}
	if out[0].Subject != "pbemd: message from alice **" {
		t.Errorf("subject %q", out[0].Subject)
	}
	has(t, out[0].Body, "alice writes:\n\nRematch on Sunday?\n", "message bob PASSWORD alice")
	has(t, out[2].Body, "Your message went to bob, dave.")
	errorReply(t, h.send("alice@example.org", "message alice pw-alice zed", "Hi"), "alice@example.org",
		`There is no user "zed" to send a message to; user ids are what players signed up with.`)
	errorReply(t, h.send("alice@example.org", "message alice pw-alice bob", ""), "alice@example.org",
		"A message is the mail body, and this body is empty; write the message below the subject.")
	errorReply(t, h.send("alice@example.org", "message alice pw-alice", "Hi"), "alice@example.org",
		"The command has the wrong number of words; write it as: message userid password to-userid ...")
}

func TestPreview(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	out := h.send("carol@example.org", "tanbo preview 101 b7 b3", "")
	golden(t, "preview", out)
	r := one(t, out, "carol@example.org")
	if r.Subject != "Tanbo Board 101 preview" {
		t.Errorf("subject %q", r.Subject)
	}
	says(t, r.Body, "A preview: board 101 with b7 b3 played. Nothing was saved.", "   1. h7         2. b7\n   3. b3\n", "It is bob's turn.")
	if g := h.game("tanbo", 101); len(g.Moves) != 1 {
		t.Errorf("a preview saved moves: %+v", g.Moves)
	}
	r = one(t, h.send("carol@example.org", "tanbo preview new -size=9 h7", ""), "carol@example.org")
	if r.Subject != "Tanbo preview" {
		t.Errorf("subject %q", r.Subject)
	}
	says(t, r.Body, "Summary of Tanbo preview\n", "A preview: a new game with h7 played.", "White plays move #2.")
	hasNot(t, r.Body, "Black: Black", "(White)")
	r = one(t, h.send("carol@example.org", "tanbo preview 101 b7 e5", ""), "carol@example.org")
	if !strings.HasPrefix(r.Body, "e5 is not a legal move in the preview after 1 of its moves: ") {
		t.Errorf("illegal preview move:\n%s", r.Body)
	}
	errorReply(t, h.send("carol@example.org", "tanbo preview 101", ""), "carol@example.org",
		"The command has the wrong number of words; write it as: tanbo preview board|new [-option ...] move ...")
}

func TestAllShow(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.send("bob@example.org", "tobit challenge bob alice", "")
	// Each board in a mail of its own, as pbmserv sends them.
	out := h.send("carol@example.org", "all show alice", "")
	if got := strings.Join(subjects(out), ", "); got != "carol@example.org: Tanbo Board 101 alice, carol@example.org: Tobit Board 101 bob" {
		t.Fatalf("all show alice: %s", got)
	}
	says(t, out[0].Body, "Summary of Tanbo Board 101\n")
	says(t, out[1].Body, "Summary of Tobit Board 101\n")
	out = h.send("carol@example.org", "all show alice next", "")
	if len(out) != 1 || out[0].Subject != "Tanbo Board 101 alice" {
		t.Errorf("all show alice next: %v", subjects(out))
	}
	errorReply(t, h.send("carol@example.org", "all show alice inactive", ""), "carol@example.org",
		"alice has no inactive boards in any game; try \"all show alice all\".")
	errorReply(t, h.send("carol@example.org", "all show zed", ""), "carol@example.org",
		`There is no user "zed"; user ids are what players signed up with.`)
	errorReply(t, h.send("carol@example.org", "all games alice", ""), "carol@example.org",
		"The command has the wrong number of words; write it as: all show userid [all|active|inactive|next] [page N]")
}

func TestNotify(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.signup("carol", "dave")
	r := one(t, h.send("carol@example.org", "tanbo notify carol pw-carol 101", ""), "carol@example.org")
	has(t, r.Body, "carol receives the final mail of Tanbo board 101 when it ends.")
	one(t, h.send("dave@example.org", "tanbo notify dave pw-dave", ""), "dave@example.org")
	// Moves do not go to them; the end does.
	if out := h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", ""); len(out) != 2 {
		t.Errorf("a move went to notifiers: %v", subjects(out))
	}
	h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "")
	h.send("alice@example.org", "tanbo move 101 alice pw-alice b3", "")
	boardMails(t, h.send("bob@example.org", "tanbo resign 101 bob pw-bob", ""), "Tanbo Board 101 won by alice",
		"alice@example.org", "bob@example.org", "carol@example.org", "dave@example.org")

	errorReply(t, h.send("alice@example.org", "tanbo notify alice pw-alice 101", ""), "alice@example.org",
		"alice plays on Tanbo board 101 and receives its final mail anyway.")
	// Bare, notify toggles, as on pbmserv: off, on, and off by "off".
	says(t, one(t, h.send("dave@example.org", "tanbo notify dave pw-dave", ""), "dave@example.org").Body,
		"dave no longer receives the final mail of every Tanbo game.")
	says(t, one(t, h.send("dave@example.org", "tanbo notify dave pw-dave", ""), "dave@example.org").Body,
		"dave receives the final mail of every Tanbo game from now on.")
	one(t, h.send("dave@example.org", "tanbo notify dave pw-dave off", ""), "dave@example.org")
	h.send("alice@example.org", "tanbo challenge alice bob", "")
	if out := h.send("alice@example.org", "tanbo resign 102 alice pw-alice", ""); len(out) != 2 {
		t.Errorf("after notify off: %v", subjects(out))
	}
	errorReply(t, h.send("carol@example.org", "tanbo notify carol pw-carol off 102", ""), "carol@example.org",
		"carol is not told of the end of Tanbo board 102.")
}

// TestRatings plays a sequence of games and checks the ratings against
// figures computed by hand with the formulas of ratings.go:
//
// Game 1, alice beats bob, both new (provisional, 1600):
//
//	alice: value (1600+1600)/2 + 200 = 1800; average 1800
//	bob:   value (1600+1600)/2 - 200 = 1400; average 1400
//
// Game 2, alice beats bob again:
//
//	alice: value (1800+1400)/2 + 200 = 1800; average (1800+1800)/2 = 1800
//	bob:   value (1400+1800)/2 - 200 = 1400; average 1400
//
// Game 3, carol (new) and alice agree a draw:
//
//	carol: value (1600+1800)/2 = 1700; average 1700
//	alice: value (1800+1600)/2 = 1700; average (1800+1800+1700)/3 = 1766.67
//
// Game 4, erin (established, 1500 after 25 games) beats dave (established,
// 1700 after 30 games), K = 32:
//
//	dave expected 1/(1+10^((1500-1700)/400)) = 1/(1+0.316228) = 0.759747
//	dave: 1700 + 32*(0 - 0.759747) = 1675.69
//	erin: 1500 + 32*(1 - 0.240253) = 1524.31
//
// Game 5, dave (established, 1675.69) beats alice (provisional, 3 games,
// 1766.67): K for dave = 32*3/20 = 4.8;
//
//	dave expected 1/(1+10^((1766.67-1675.69)/400)) = 1/(1+1.68823) = 0.371984
//	dave:  1675.69 + 4.8*(1 - 0.371984) = 1678.70
//	alice: value 1675.69 - 400 = 1275.69; average (5300+1275.69)/4 = 1643.92
func TestRatings(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob", "carol", "dave", "erin")
	// dave and erin come established, as if from earlier games.
	err := h.db.Update(func(tx *store.Tx) error {
		for id, r := range map[string]store.Rating{
			"dave": {Rating: 1700, Games: 30, Won: 15, Lost: 15},
			"erin": {Rating: 1500, Games: 25, Won: 10, Lost: 15},
		} {
			u, err := tx.User(id)
			if err != nil {
				return err
			}
			u.Ratings = map[string]*store.Rating{"tanbo": &r}
			if err := tx.PutUser(u); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// win has first beat second: after a move each, the loser resigns on
	// his turn (before his first move it would be a withdrawal, unrated).
	board := 100
	win := func(first, second string) []reply {
		board++
		num := strconv.Itoa(board)
		h.send(first+"@example.org", "tanbo challenge "+first+" "+second+" -size=9", "")
		h.send(first+"@example.org", "tanbo move "+num+" "+first+" pw-"+first+" h7", "")
		h.send(second+"@example.org", "tanbo move "+num+" "+second+" pw-"+second+" b7", "")
		h.send(first+"@example.org", "tanbo move "+num+" "+first+" pw-"+first+" b3", "")
		return h.send(second+"@example.org", "tanbo resign "+num+" "+second+" pw-"+second, "")
	}
	out := win("alice", "bob")
	has(t, out[0].Body, "Rating changes:\n  alice            1600 -> 1800 (+200) provisional\n  bob              1600 -> 1400 (-200) provisional\n")
	win("alice", "bob")
	board++
	h.send("carol@example.org", "tanbo challenge carol alice -size=9", "")
	h.send("carol@example.org", "tanbo move 103 carol pw-carol propose", "")
	out = h.send("alice@example.org", "tanbo move 103 alice pw-alice accept", "")
	golden(t, "ratings-draw", out[:1])
	has(t, out[0].Body, "  carol            1600 -> 1700 (+100) provisional\n  alice            1800 -> 1767 (-33) provisional\n")
	out = win("erin", "dave")
	has(t, out[0].Body, "  erin             1500 -> 1524 (+24)\n  dave             1700 -> 1676 (-24)\n")
	out = win("dave", "alice")
	has(t, out[0].Body, "  dave             1676 -> 1679 (+3)\n  alice            1767 -> 1644 (-123) provisional\n")

	want := map[string]struct {
		rating         float64
		games, w, l, d int
	}{
		"alice": {1643.922, 4, 2, 1, 1},
		"bob":   {1400, 2, 0, 2, 0},
		"carol": {1700, 1, 0, 0, 1},
		"dave":  {1678.703, 32, 16, 16, 0},
		"erin":  {1524.312, 26, 11, 15, 0},
	}
	for id, w := range want {
		r := h.user(id).Ratings["tanbo"]
		if r == nil || math.Abs(r.Rating-w.rating) > 0.01 || r.Games != w.games || r.Won != w.w || r.Lost != w.l || r.Drawn != w.d {
			t.Errorf("%s: rating %+v, want %+v", id, r, w)
		}
	}

	// Standings: by rating, with provisional marks and active/limit.
	h.send("bob@example.org", "tanbo limit bob pw-bob 3", "")
	h.send("bob@example.org", "tanbo challenge bob carol", "")
	out = h.send("x@example.org", "tanbo standings", "")
	golden(t, "standings", out)
	body := one(t, out, "x@example.org").Body
	has(t, body,
		"Established\nRank  User             Rating   Won  Lost Drawn  Active/Limit Open\n"+
			"   1  dave              1679     16    16     0     0/-     0\n"+
			"   2  erin              1524     11    15     0     0/-     0\n"+
			"\nProvisional (fewer than 20 rated games)\n"+
			"Rank  User             Rating   Won  Lost Drawn  Active/Limit Open\n"+
			"   1  carol             1700P     0     0     1     1/-     0\n"+
			"   2  alice             1644P     2     1     1     0/-     0\n"+
			"   3  bob               1400P     0     2     0     1/3     0\n")
	hasNot(t, body, "Inactive")
	if r := one(t, h.send("x@example.org", "tanbo ratings", ""), "x@example.org"); r.Body != body {
		t.Errorf("ratings differs from standings")
	}
	has(t, one(t, h.send("x@example.org", "tobit standings", ""), "x@example.org").Body, "No rated games yet.")
	says(t, one(t, h.send("x@example.org", "help commands", ""), "x@example.org").Body,
		"\n  GAME standings [page N]\n      50 rated players a page, the best first, in sections Established,\n",
		"\n  standings: ratings\n")

	// 91 days on, who has no board in play is inactive; an open seat shows
	// who seeks a game; frank, who seeks his first, is provisional at 1600.
	h.now = h.now.Add(91 * day)
	h.signup("frank")
	h.send("erin@example.org", "tanbo challenge erin ?", "")
	h.send("frank@example.org", "tanbo challenge ? frank", "")
	body = one(t, h.send("x@example.org", "tanbo standings", ""), "x@example.org").Body
	has(t, body,
		"Established\nRank  User             Rating   Won  Lost Drawn  Active/Limit Open\n"+
			"   1  erin              1524     11    15     0     1/-     1\n"+
			"\nProvisional (fewer than 20 rated games)\n"+
			"Rank  User             Rating   Won  Lost Drawn  Active/Limit Open\n"+
			"   1  carol             1700P     0     0     1     1/-     0\n"+
			"   2  frank             1600P     0     0     0     1/-     1\n"+
			"   3  bob               1400P     0     2     0     1/3     0\n"+
			"\nInactive (no game for 90 days)\n"+
			"Rank  User             Rating   Won  Lost Drawn  Active/Limit Open\n"+
			"   1  dave              1679     16    16     0     0/-     0\n"+
			"   2  alice             1644P     2     1     1     0/-     0\n")

	// History: the finished boards, newest first.
	out = h.send("x@example.org", "tanbo history", "")
	golden(t, "history", out)
	body = one(t, out, "x@example.org").Body
	has(t, body, "  105  dave - alice          3  2026-11-22  won by dave (alice resigned)\n"+
		"  104  erin - dave           3  2026-11-22  won by erin (dave resigned)\n"+
		"  103  carol - alice         0  2026-11-22  tie (draw by agreement)\n")
	hasNot(t, body, "  106 ")
	body = one(t, h.send("x@example.org", "tanbo history bob", ""), "x@example.org").Body
	has(t, body, "  102  alice - bob", "  101  alice - bob")
	hasNot(t, body, "  103 ")
}

// Every form of the table is in "help commands": a section the template
// does not place would drop its commands. So is every short form.
func TestHelpCoversEveryCommand(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	body := one(t, h.send("x@example.org", "help commands", ""), "x@example.org").Body
	for _, c := range commands {
		for _, f := range c.forms {
			if !strings.Contains(body, "\n  "+helpWords(f.words)+"\n") {
				t.Errorf("help commands lacks %q", f.words)
			}
		}
		for _, alias := range c.aliases {
			if !strings.Contains(body, "\n  "+c.name+": ") || !strings.Contains(body, alias) {
				t.Errorf("help commands lacks the short form %s", alias)
			}
		}
	}
}

// sweep runs the sweep at the harness clock and returns its mails.
func (h *harness) sweep() []reply {
	h.t.Helper()
	if err := h.svc.Sweep(h.now); err != nil {
		h.t.Fatal(err)
	}
	return h.outbox()
}

func TestNagAndForfeit(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	// Both have moved, so a forfeit is a rated loss, not a withdrawal.
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "")
	start := h.now
	h.now = start.Add(7*day - time.Minute)
	if out := h.sweep(); len(out) != 0 {
		t.Fatalf("before 7 days: %v", subjects(out))
	}
	h.now = start.Add(7 * day)
	out := h.sweep()
	golden(t, "nag", out)
	r := one(t, out, "alice@example.org")
	if r.Subject != "Nag: Tanbo Board 101 alice" {
		t.Errorf("subject %q", r.Subject)
	}
	if !strings.Contains(string(r.Raw), "\r\nAuto-Submitted: auto-generated\r\n") {
		t.Errorf("a reminder is not auto-generated:\n%s", r.Raw)
	}
	says(t, r.Body, "Reminder: it has been alice's turn on Tanbo board 101 for 7 days. Without a move by 2026-12-13 12:00 UTC, alice forfeits the game.")
	// Not again within the nag period, again after it.
	h.now = start.Add(13 * day)
	if out := h.sweep(); len(out) != 0 {
		t.Fatalf("a second reminder within 7 days: %v", subjects(out))
	}
	h.now = start.Add(14 * day)
	one(t, h.sweep(), "alice@example.org")
	h.now = start.Add(21 * day)
	out = h.sweep()
	golden(t, "forfeit", out[:1])
	r = boardMails(t, out, "Tanbo Board 101 won by bob", "alice@example.org", "bob@example.org")
	has(t, r.Body, "alice forfeits: no move for 21 days.", "Game won by bob.\nReason: alice did not move for 21 days.", "Rating changes:")
	if out := h.sweep(); len(out) != 0 {
		t.Errorf("a finished board was swept again: %v", subjects(out))
	}
}

func TestNagTimesOfTheBoardAndMoves(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob")
	h.send("alice@example.org", "tanbo challenge alice bob -size=9 --nagtime=2 --forfeittime=5", "")
	start := h.now
	h.now = start.Add(1 * day)
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	// bob's clock starts with alice's move.
	h.now = start.Add(3*day - time.Minute)
	if out := h.sweep(); len(out) != 0 {
		t.Fatalf("before bob's 2 days: %v", subjects(out))
	}
	h.now = start.Add(3 * day)
	if r := one(t, h.sweep(), "bob@example.org"); r.Subject != "Nag: Tanbo Board 101 bob" {
		t.Errorf("subject %q", r.Subject)
	}
	// bob never moved: his forfeit withdraws him, unrated.
	h.now = start.Add(6 * day)
	r := boardMails(t, h.sweep(), "Tanbo Board 101 withdrawn", "alice@example.org", "bob@example.org")
	says(t, r.Body, "bob did not move for 5 days.", "Game withdrawn, not rated.\nReason: bob has decided not to play.")
}

func TestVacation(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	start := h.now
	h.now = start.Add(day)
	out := h.send("alice@example.org", "vacation alice pw-alice 10", "")
	golden(t, "vacation", out)
	has(t, one(t, out, "alice@example.org").Body, "alice is on vacation until 2026-12-03 12:00 UTC.", "10 of 30 vacation days used in 2026.")
	// Every board mail of hers says so.
	says(t, one(t, h.send("bob@example.org", "tanbo show 101", ""), "bob@example.org").Body,
		"alice is on vacation until 2026-12-03 12:00 UTC; the clock does not run for alice meanwhile.")
	// No reminder while away, though 7 days have passed.
	h.now = start.Add(8 * day)
	if out := h.sweep(); len(out) != 0 {
		t.Fatalf("a reminder during the vacation: %v", subjects(out))
	}
	// Back on day 11: the clock ran one day before and none during, so the
	// reminder comes on day 17 and the forfeit on day 31.
	h.now = start.Add(17*day - time.Minute)
	if out := h.sweep(); len(out) != 0 {
		t.Fatalf("a reminder before 7 days of clock: %v", subjects(out))
	}
	h.now = start.Add(17 * day)
	one(t, h.sweep(), "alice@example.org")
	h.now = start.Add(24 * day)
	one(t, h.sweep(), "alice@example.org")
	h.now = start.Add(31*day - time.Minute)
	if out := h.sweep(); len(out) != 0 {
		t.Fatalf("a forfeit before 21 days of clock: %v", subjects(out))
	}
	// alice never moved: she is withdrawn, unrated.
	h.now = start.Add(31 * day)
	boardMails(t, h.sweep(), "Tanbo Board 101 withdrawn", "alice@example.org", "bob@example.org")
}

// A board whose player is away stays due in the deadline index, which
// knows no vacation; the sweep reads it again at the player's return, or
// within the hour when he comes back early, and loses no reminder.
func TestVacationEndedEarly(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	start := h.now
	h.now = start.Add(7*day - 30*time.Minute)
	one(t, h.send("alice@example.org", "vacation alice pw-alice 10", ""), "alice@example.org")
	for _, at := range []time.Duration{7 * day, 7*day + 20*time.Minute} {
		h.now = start.Add(at)
		if out := h.sweep(); len(out) != 0 {
			t.Fatalf("a reminder during the vacation: %v", subjects(out))
		}
	}
	// Back after 30 minutes away: 30 minutes of clock are left before the
	// reminder, due at 7 days and 30 minutes.
	h.now = start.Add(7*day + 29*time.Minute)
	one(t, h.send("alice@example.org", "vacation alice pw-alice 0", ""), "alice@example.org")
	var got []string
	var sent time.Duration
	for at := 7*day + 29*time.Minute; at <= 7*day+2*time.Hour; at += time.Minute {
		h.now = start.Add(at)
		for _, m := range h.sweep() {
			got, sent = append(got, m.Subject), at
		}
	}
	if len(got) != 1 || got[0] != "Nag: Tanbo Board 101 alice" {
		t.Fatalf("sweeps after an early return sent %q; want one reminder", got)
	}
	if sent < 7*day+30*time.Minute || sent > 7*day+time.Hour {
		t.Errorf("the reminder went at 7 days %v; want it from its time (30m) to the end of the hour the board slept (1h)", sent-7*day)
	}
}

// A board the sweep cannot read (here of a game this server does not
// know) is logged and passed over for an hour; it stops no other board's
// reminder.
func TestSweepPassesBadBoard(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	start := h.now
	err := h.db.Update(func(tx *store.Tx) error {
		return tx.PutGame(&store.Game{Kind: "aaa-gone", Board: 101, Seats: []string{"alice", "bob"},
			Created: start, Updated: start, TurnSince: start.Add(-time.Hour)})
	})
	if err != nil {
		t.Fatal(err)
	}
	h.now = start.Add(7 * day)
	boardMails(t, h.sweep(), "Nag: Tanbo Board 101 alice", "alice@example.org")
	if out := h.sweep(); len(out) != 0 {
		t.Errorf("a second sweep: %v", subjects(out))
	}
}

func TestVacationErrors(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	errorReply(t, h.send("alice@example.org", "vacation alice pw-alice 0", ""), "alice@example.org",
		"alice is not on vacation, so there is none to end; to go away, send \"vacation alice PASSWORD DAYS\".")
	errorReply(t, h.send("alice@example.org", "vacation alice pw-alice 31", ""), "alice@example.org",
		`"31" is not a number of vacation days; write 1 to 30, or 0 to end a vacation, e.g. "vacation alice PASSWORD 7".`)
	errorReply(t, h.send("alice@example.org", "vacation alice pw-alice", ""), "alice@example.org",
		"The command has the wrong number of words; write it as: vacation userid password days")
	one(t, h.send("alice@example.org", "vacation alice pw-alice 10", ""), "alice@example.org")
	h.now = h.now.Add(2 * day)
	r := one(t, h.send("alice@example.org", "vacation alice pw-alice 0", ""), "alice@example.org")
	has(t, r.Body, "your vacation has ended", "2 of 30 vacation days used in 2026.")
	hasNot(t, one(t, h.send("bob@example.org", "tanbo show 101", ""), "bob@example.org").Body, "vacation")
	errorReply(t, h.send("alice@example.org", "vacation alice pw-alice 29", ""), "alice@example.org",
		"alice has 28 vacation days left in 2026 (30 a year, 2 used), and this vacation would take 29; ask for fewer days.")
	// A vacation asked while away extends it, counted from its start.
	one(t, h.send("alice@example.org", "vacation alice pw-alice 20", ""), "alice@example.org")
	h.now = h.now.Add(5 * day)
	has(t, one(t, h.send("alice@example.org", "vacation alice pw-alice 20", ""), "alice@example.org").Body, "27 of 30 vacation days used in 2026.")
	errorReply(t, h.send("alice@example.org", "vacation alice pw-alice 24", ""), "alice@example.org",
		"alice has 28 vacation days left in 2026 (30 a year, 2 used), and this vacation would take 29; ask for fewer days.")
}

// TestUndoTaratibu checks that an undo takes back the single moves of the
// proposer's whole last turn, even when they came in separate mails.
func TestUndoTaratibu(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob")
	h.send("alice@example.org", "taratibu challenge alice bob", "")
	h.send("alice@example.org", "taratibu move 101 alice pw-alice 1123", "")
	boardMails(t, h.send("bob@example.org", "taratibu move 101 bob pw-bob 1615", ""), "Taratibu Board 101 bob", "alice@example.org", "bob@example.org")
	boardMails(t, h.send("bob@example.org", "taratibu move 101 bob pw-bob 1514", ""), "Taratibu Board 101 alice", "alice@example.org", "bob@example.org")
	r := boardMails(t, h.send("bob@example.org", "taratibu move 101 bob pw-bob undo", ""), "Taratibu Board 101 alice", "alice@example.org", "bob@example.org")
	says(t, r.Body, "Open proposal: bob proposes to take back moves 2 to 3 (1615, 1514)")
	r = boardMails(t, h.send("alice@example.org", "taratibu move 101 alice pw-alice accept", ""), "Taratibu Board 101 bob", "alice@example.org", "bob@example.org")
	says(t, r.Body, "alice accepted bob's undo: moves 2 to 3 (1615, 1514) taken back.", "It is bob's turn.")
	if g := h.game("taratibu", 101); len(g.Moves) != 1 || g.Moves[0].Text != "1123" {
		t.Errorf("after the undo: %+v", g.Moves)
	}
}

// A player who asked to take back his turn and then plays on ends his own
// proposal: it does not grow to take back his new move too.
func TestOwnUndoLapsesWithOwnMove(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	for _, m := range []string{"alice h7", "bob b7", "alice b3"} {
		id, move, _ := strings.Cut(m, " ")
		h.send(id+"@example.org", "tanbo move 101 "+id+" pw-"+id+" "+move, "")
	}
	h.send("bob@example.org", "tanbo move 101 bob pw-bob undo", "")
	out := h.send("bob@example.org", "tanbo move 101 bob pw-bob b6", "")
	r := boardMails(t, out, "Tanbo Board 101 alice", "alice@example.org", "bob@example.org")
	says(t, r.Body, "bob played on, so his own proposal of an undo lapses.")
	hasNot(t, r.Body, "Open proposal")
	if g := h.game("tanbo", 101); g.Vote != nil {
		t.Errorf("the undo is still open: %+v", g.Vote)
	}
}

// A board withdrawn before its first moves was no game: a notifier of
// every game's end is not told of it.
func TestWithdrawnBoardNotNotified(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.signup("carol")
	one(t, h.send("carol@example.org", "tanbo notify carol pw-carol", ""), "carol@example.org")
	out := h.send("bob@example.org", "tanbo decline 101 bob pw-bob", "")
	for _, r := range out {
		if r.To == "carol@example.org" {
			t.Errorf("a notifier was told of a withdrawn board: %q", r.Subject)
		}
	}
	if len(out) != 2 {
		t.Errorf("the withdrawal: %v; want the players' two", subjects(out))
	}
}

// A player reminded before his first move is told what will happen: the
// board is withdrawn, unrated, not forfeited.
func TestNagBeforeFirstMoveSaysWithdrawn(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.now = h.now.Add(7*24*time.Hour + time.Minute)
	var nag *reply
	for _, r := range h.sweep() {
		if strings.HasPrefix(r.Subject, "Nag:") {
			nag = &r
		}
	}
	if nag == nil {
		t.Fatal("no reminder after 7 days")
	}
	says(t, nag.Body, "the board is withdrawn, unrated, as alice has not played on it yet.")
	hasNot(t, nag.Body, "forfeits the game")
}
