package pbem

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/pbem/tournament"
	"github.com/pbemd/pbemd/store"
)

// tournamentState reads a tournament's record and state from the store.
func (h *harness) tournamentState(name string) (*store.Tournament, *tournament.State) {
	h.t.Helper()
	var rec *store.Tournament
	err := h.db.View(func(tx *store.Tx) error {
		var err error
		rec, err = tx.Tournament(name)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	st := &tournament.State{}
	if err := json.Unmarshal(rec.State, st); err != nil {
		h.t.Fatal(err)
	}
	return rec, st
}

// pendingBoards are the tournament's games in play, each with its board.
func (h *harness) pendingBoards(name string) []tournament.Game {
	h.t.Helper()
	_, st := h.tournamentState(name)
	var out []tournament.Game
	for _, g := range st.Pending() {
		if g.Board == 0 {
			h.t.Fatalf("tournament %s: a game in play has no board: %+v", name, g)
		}
		out = append(out, g)
	}
	return out
}

// as sends a command of a player from his own (vouched for) address.
func (h *harness) as(id, subject string) []reply {
	h.t.Helper()
	return h.send(id+"@example.org", subject, "")
}

// finish plays tanbo board num until it ends: both players move once (a
// robot as the robots do), then the loser resigns on his turn ("" for a draw: the player to move
// proposes it and the other accepts). It returns every mail made.
func (h *harness) finish(num int, loser string) []reply {
	h.t.Helper()
	var out []reply
	for range 10 {
		rec := h.game("tanbo", num)
		if rec.Over {
			return out
		}
		who, move := firstLegal(h.t, h, num)
		pw := pbemtest.Password(who)
		_, _, robot := ParseRobotID(who)
		switch {
		case robot:
			h.robotTurns(h.t)
		case len(rec.Moves) >= 2 && loser == "":
			other := rec.Seats[0]
			if other == who {
				other = rec.Seats[1]
			}
			out = append(out, h.as(who, fmt.Sprintf("tanbo move %d %s %s propose", num, who, pw))...)
			out = append(out, h.as(other, fmt.Sprintf("tanbo move %d %s %s accept", num, other, pbemtest.Password(other)))...)
		case len(rec.Moves) >= 2 && who == loser:
			out = append(out, h.as(who, fmt.Sprintf("tanbo resign %d %s %s", num, who, pw))...)
		default:
			out = append(out, h.as(who, fmt.Sprintf("tanbo move %d %s %s %s", num, who, pw, move))...)
		}
	}
	h.t.Fatalf("tanbo board %d did not end", num)
	return nil
}

// create makes a tournament by mail and checks that it was made.
func (h *harness) createTournament(organiser, words string) {
	h.t.Helper()
	out := h.as(organiser, "tournament create "+words+" "+organiser+" "+pbemtest.Password(organiser))
	if len(out) != 1 || !strings.HasSuffix(out[0].Subject, " created") {
		h.t.Fatalf("tournament create %s: %v\n%s", words, subjects(out), bodies(out))
	}
}

// joinAll enters the players into the tournament by their own mails.
func (h *harness) joinAll(name string, ids ...string) {
	h.t.Helper()
	for _, id := range ids {
		out := h.as(id, fmt.Sprintf("tournament join %s %s %s", name, id, pbemtest.Password(id)))
		if len(out) != 1 || !strings.Contains(out[0].Subject, " joined") {
			h.t.Fatalf("%s joining %s: %v\n%s", id, name, subjects(out), bodies(out))
		}
	}
}

func bodies(out []reply) string {
	var b strings.Builder
	for _, r := range out {
		b.WriteString(r.Body + "\n----\n")
	}
	return b.String()
}

// mailsTo are the mails of out to the address whose subject starts so.
func mailsTo(out []reply, to, subject string) []reply {
	var got []reply
	for _, r := range out {
		if r.To == to && strings.HasPrefix(r.Subject, subject) {
			got = append(got, r)
		}
	}
	return got
}

// A round robin of four, run by mail from the start to the final
// standings: each round paired by itself when the last game of the one
// before ends, each board mail naming the tournament and round, the
// standings mailed to every entrant after each round, the games rated.
func TestTournamentRoundRobin(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob", "carol", "dave")
	h.createTournament("alice", "Spring tanbo rr")
	h.joinAll("Spring", "alice", "bob", "carol", "dave")
	out := h.as("alice", "tournament start Spring alice pw-alice")
	// Round 1: two boards, each mailed to both of its players.
	boards := h.pendingBoards("Spring")
	if len(boards) != 2 {
		t.Fatalf("round 1 has %d games in play, want 2", len(boards))
	}
	for _, g := range boards {
		for _, id := range []string{g.White, g.Black} {
			m := mailsTo(out, id+"@example.org", fmt.Sprintf("New Tanbo Board %d", g.Board))
			if len(m) != 1 {
				t.Fatalf("%s got %d mails of board %d: %v", id, len(m), g.Board, subjects(out))
			}
			says(t, m[0].Body, "Tournament Spring, round 1")
		}
	}
	rounds := 0
	for len(boards) > 0 {
		rounds++
		var mails []reply
		for i, g := range boards {
			loser := g.Black // White wins, but the round's first game is drawn
			if i == 0 && rounds == 2 {
				loser = ""
			}
			mails = append(mails, h.finish(g.Board, loser)...)
			// Every mail of the board names the tournament.
			for _, r := range mails {
				if strings.Contains(r.Subject, fmt.Sprintf("Board %d", g.Board)) {
					says(t, r.Body, fmt.Sprintf("Tournament Spring, round %d", rounds))
				}
			}
		}
		subject := fmt.Sprintf("Tournament Spring standings after round %d", rounds)
		if rounds == 3 {
			subject = "Tournament Spring final standings"
		}
		for _, id := range []string{"alice", "bob", "carol", "dave"} {
			if m := mailsTo(mails, id+"@example.org", subject); len(m) != 1 {
				t.Fatalf("round %d: %s got %d standings mails: %v", rounds, id, len(m), subjects(mails))
			}
		}
		switch rounds {
		case 1:
			golden(t, "tournament-round", mailsTo(mails, "bob@example.org", subject))
		case 3:
			golden(t, "tournament-final", mailsTo(mails, "alice@example.org", subject))
		}
		boards = h.pendingBoards("Spring")
	}
	rec, st := h.tournamentState("Spring")
	if rounds != 3 || rec.Phase != store.TournamentOver || !st.Done() {
		t.Fatalf("after %d rounds the tournament is %s", rounds, rec.Phase)
	}
	if len(st.Games) != 6 {
		t.Errorf("a round robin of 4 played %d games, want 6", len(st.Games))
	}
	// Rated as any game: every player has 3 rated tanbo games.
	for _, id := range []string{"alice", "bob", "carol", "dave"} {
		if _, games := h.rating(id); games != 3 {
			t.Errorf("%s has %d rated games, want 3", id, games)
		}
	}
	show := one(t, h.send("stranger@example.net", "tournament show Spring", ""), "stranger@example.net")
	says(t, show.Body, "The tournament is over.", "Winner: "+st.Winner())
}

// A withdrawal: forged mails in bob's name neither withdraw nor enter
// anyone; bob's own withdrawal forfeits his board in play and every game
// of his later rounds, which get no board, and the round robin ends.
func TestTournamentWithdrawal(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob", "carol", "dave", "erin")
	h.createTournament("alice", "Spring tanbo rr")
	h.joinAll("Spring", "alice", "bob", "carol", "dave")
	// A forged From with a wrong password, or none, enters nobody.
	forged := func(from, subject string) []reply { return h.deliver(h.forged(from, subject, "")) }
	for _, subject := range []string{"tournament join Spring erin wrong", "tournament join Spring erin", "tournament leave Spring bob wrong"} {
		out := forged("erin@example.org", subject)
		if len(out) != 1 || !strings.HasSuffix(out[0].Subject, "error") {
			t.Fatalf("forged %q: %v", subject, subjects(out))
		}
		if strings.Contains(out[0].Body, "wrong") && !strings.Contains(out[0].Body, "> Subject") {
			t.Errorf("the error quotes the password:\n%s", out[0].Body)
		}
	}
	if rec, _ := h.tournamentState("Spring"); rec.Entrants != 4 {
		t.Fatalf("after forged mails the tournament has %d players, want 4", rec.Entrants)
	}
	// dave's own mail takes him out before the start, and in again.
	if out := h.as("dave", "tournament leave Spring dave pw-dave"); len(out) != 1 || !strings.Contains(out[0].Subject, "dave left") {
		t.Fatalf("dave leaving: %v", subjects(out))
	}
	if rec, _ := h.tournamentState("Spring"); rec.Entrants != 3 {
		t.Fatalf("after dave left the tournament has %d players, want 3", rec.Entrants)
	}
	h.joinAll("Spring", "dave")
	h.as("alice", "tournament start Spring alice pw-alice")
	for _, subject := range []string{"tournament withdraw Spring bob wrong", "tournament withdraw Spring bob"} {
		forged("bob@example.org", subject)
	}
	if _, st := h.tournamentState("Spring"); st.Entrants[1].Withdrawn || len(st.Pending()) != 2 {
		t.Fatalf("forged mails withdrew bob: %+v", st)
	}
	var bobs tournament.Game
	for _, g := range h.pendingBoards("Spring") {
		if g.White == "bob" || g.Black == "bob" {
			bobs = g
		}
	}
	out := h.as("bob", "tournament withdraw Spring bob pw-bob")
	if m := mailsTo(out, "bob@example.org", "Tournament Spring: bob withdrew"); len(m) != 1 {
		t.Fatalf("bob's withdrawal is not confirmed: %v", subjects(out))
	}
	rec := h.game("tanbo", bobs.Board)
	if !rec.Over || rec.Seats[rec.Winner] == "bob" {
		t.Fatalf("bob's board %d after his withdrawal: over %v, winner seat %d", bobs.Board, rec.Over, rec.Winner)
	}
	other := bobs.White
	if other == "bob" {
		other = bobs.Black
	}
	if m := mailsTo(out, other+"@example.org", fmt.Sprintf("Tanbo Board %d", bobs.Board)); len(m) != 1 {
		t.Fatalf("%s is not told of the forfeit: %v", other, subjects(out))
	} else {
		says(t, m[0].Body, "bob withdrew from the tournament Spring and forfeits this game.")
	}
	st := h.playOutWithout("Spring", "bob")
	for _, g := range st.Games {
		if (g.White == "bob" || g.Black == "bob") && g.Result != tournament.WhiteForfeits && g.Result != tournament.BlackForfeits {
			t.Errorf("bob's game %+v is not a forfeit", g)
		}
	}
	show := one(t, h.as("carol", "tournament show Spring"), "carol@example.org")
	says(t, show.Body, "bob (w)")
	// Over, it takes no one.
	errorReply(t, h.as("erin", "tournament join Spring erin pw-erin"), "erin@example.org",
		"Tournament Spring is over; \"tournament list\" names those open.")
}

// Forfeits by the clock, and the vacation policy: in a tournament that
// allows no vacation a player away still forfeits at the forfeit time;
// in one that allows them his clock stops. A forfeit before a player's
// first move is a forfeit in the tournament too.
func TestTournamentForfeitsAndVacations(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob", "carol", "dave")
	h.createTournament("alice", "Strict tanbo rr novacation --nagtime=2 --forfeittime=4")
	h.createTournament("carol", "Calm tanbo rr --nagtime=2 --forfeittime=4")
	h.joinAll("Strict", "alice", "bob")
	h.joinAll("Calm", "carol", "dave")
	h.as("alice", "tournament start Strict alice pw-alice")
	h.as("carol", "tournament start Calm carol pw-carol")
	strict, calm := h.pendingBoards("Strict")[0], h.pendingBoards("Calm")[0]
	// Each first player moves; the second goes on vacation.
	for _, g := range []tournament.Game{strict, calm} {
		_, move := firstLegal(t, h, g.Board)
		h.as(g.White, fmt.Sprintf("tanbo move %d %s %s %s", g.Board, g.White, pbemtest.Password(g.White), move))
		h.as(g.Black, fmt.Sprintf("vacation %s %s 10", g.Black, pbemtest.Password(g.Black)))
	}
	h.now = h.now.Add(4*day + time.Minute)
	out := h.sweep()
	if rec := h.game("tanbo", strict.Board); !rec.Over || rec.Withdrawn != strict.Black {
		t.Fatalf("Strict: %s on vacation did not forfeit: over %v, withdrawn %q\n%v", strict.Black, rec.Over, rec.Withdrawn, subjects(out))
	}
	if rec := h.game("tanbo", calm.Board); rec.Over {
		t.Fatalf("Calm: %s forfeited on vacation", calm.Black)
	}
	rec, st := h.tournamentState("Strict")
	if rec.Phase != store.TournamentOver || st.Games[0].Result != tournament.BlackForfeits {
		t.Fatalf("Strict after the forfeit: %s, %+v", rec.Phase, st.Games)
	}
	if m := mailsTo(out, strict.White+"@example.org", "Tournament Strict final standings"); len(m) != 1 {
		t.Errorf("no final standings after the forfeit: %v", subjects(out))
	}
	// Back from vacation the calm one's clock runs again, and a forfeit
	// after moves is a forfeit too.
	h.as(calm.Black, fmt.Sprintf("vacation %s %s 0", calm.Black, pbemtest.Password(calm.Black)))
	_, move := firstLegal(t, h, calm.Board)
	h.as(calm.Black, fmt.Sprintf("tanbo move %d %s %s %s", calm.Board, calm.Black, pbemtest.Password(calm.Black), move))
	h.now = h.now.Add(4*day + time.Minute)
	h.sweep()
	if rec := h.game("tanbo", calm.Board); !rec.Over || rec.Seats[rec.Winner] != calm.Black {
		t.Fatalf("Calm: %s did not forfeit on time", calm.White)
	}
	if _, st := h.tournamentState("Calm"); st.Games[0].Result != tournament.WhiteForfeits {
		t.Errorf("Calm's game is %s, want a forfeit of White", st.Games[0].Result)
	}
	// Rated as any game: the forfeit after moves counts, the withdrawal
	// before a first move does not.
	if _, n := h.rating(calm.White); n != 1 {
		t.Errorf("%s has %d rated games, want 1", calm.White, n)
	}
}

// A robot enters by its organiser's word, plays its boards as any robot
// does, and a tournament made unrated leaves the ratings as they were.
func TestTournamentRobotUnrated(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if err := h.svc.EnsureRobots([]string{"tanbo"}); err != nil {
		t.Fatal(err)
	}
	h.signup("alice", "bob")
	h.createTournament("alice", "Bots tanbo rr unrated")
	robot := RobotID("tanbo", 1)
	errorReply(t, h.as("bob", "tournament join Bots "+robot+" pw-bob"), "bob@example.org",
		"Only the organiser of Bots, alice, enters a robot, with his own password.")
	if out := h.as("alice", "tournament join Bots "+robot+" pw-alice"); len(out) != 1 || !strings.Contains(out[0].Subject, robot+" joined") {
		t.Fatalf("alice entering the robot: %v", subjects(out))
	}
	h.joinAll("Bots", "alice", "bob")
	h.as("alice", "tournament start Bots alice pw-alice")
	for range 3 {
		boards := h.pendingBoards("Bots")
		if len(boards) == 0 {
			break
		}
		for _, g := range boards {
			human := g.White
			if human == robot {
				human = g.Black
			}
			h.finish(g.Board, human)
		}
	}
	rec, st := h.tournamentState("Bots")
	if rec.Phase != store.TournamentOver {
		t.Fatalf("the tournament with a robot did not end: %+v", st.Games)
	}
	unrated(t, h, "alice", "bob", robot)
}

// A ladder: a challenge within the reach makes a board; the challenger
// who wins takes the place; one beyond the reach is refused.
func TestTournamentLadder(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob", "carol")
	h.createTournament("alice", "Club tanbo ladder reach=1")
	h.joinAll("Club", "alice", "bob", "carol")
	out := h.as("alice", "tournament start Club alice pw-alice")
	if len(h.pendingBoards("Club")) != 0 {
		t.Fatalf("a ladder paired games at its start: %v", subjects(out))
	}
	_, st := h.tournamentState("Club")
	if strings.Join(st.Ladder, " ") != "alice bob carol" {
		t.Fatalf("the ladder is %v", st.Ladder)
	}
	errorReply(t, h.as("carol", "tournament challenge Club carol pw-carol alice"), "carol@example.org",
		"carol (place 3) may challenge up to 1 places above, not alice (place 1).")
	out = h.as("carol", "tournament challenge Club carol pw-carol bob")
	boards := h.pendingBoards("Club")
	if len(boards) != 1 || boards[0].White != "carol" || boards[0].Black != "bob" {
		t.Fatalf("the challenge made %+v: %v", boards, subjects(out))
	}
	out = h.finish(boards[0].Board, "bob")
	// The two players of the challenge are told the ladder it left.
	for _, id := range []string{"carol", "bob"} {
		if m := mailsTo(out, id+"@example.org", "Tournament Club ladder after a challenge"); len(m) != 1 {
			t.Errorf("%s is not told the ladder after the challenge: %v", id, subjects(out))
		} else {
			says(t, m[0].Body, "1  alice", "2  carol", "3  bob")
		}
	}
	if m := mailsTo(out, "alice@example.org", "Tournament Club ladder after a challenge"); len(m) != 0 {
		t.Errorf("alice, not in the challenge, is mailed the ladder: %v", subjects(out))
	}
	_, st = h.tournamentState("Club")
	if strings.Join(st.Ladder, " ") != "alice carol bob" {
		t.Errorf("after carol beat bob the ladder is %v", st.Ladder)
	}
	show := one(t, h.as("bob", "tournament show Club"), "bob@example.org")
	says(t, show.Body, "1  alice", "2  carol", "3  bob")
}

// A tournament with a start date starts by the sweep at that date, its
// first round mailed; one with too few players then ends; one whose
// record is damaged is passed over.
func TestTournamentStartDate(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob", "carol")
	h.createTournament("alice", "Dated tanbo rr start=2026-11-25")
	h.createTournament("carol", "Empty tanbo rr start=2026-11-25t08:00")
	h.joinAll("Dated", "alice", "bob")
	// One due first whose record is damaged stops neither the others
	// nor the sweep.
	h.createTournament("bob", "Broken tanbo rr start=2026-11-24t12:00")
	if err := h.db.Update(func(tx *store.Tx) error { return tx.CorruptTournament("Broken") }); err != nil {
		t.Fatal(err)
	}
	h.now = time.Date(2026, 11, 24, 23, 59, 0, 0, time.UTC)
	if out := h.sweep(); len(out) != 0 {
		t.Fatalf("before the date: %v", subjects(out))
	}
	h.now = time.Date(2026, 11, 25, 8, 0, 0, 0, time.UTC)
	out := h.sweep()
	if len(h.pendingBoards("Dated")) != 1 {
		t.Fatalf("the dated tournament did not start: %v", subjects(out))
	}
	if m := mailsTo(out, "carol@example.org", "Tournament Empty did not start"); len(m) != 1 {
		t.Errorf("carol is not told that Empty did not start: %v", subjects(out))
	}
	if rec, _ := h.tournamentState("Empty"); rec.Phase != store.TournamentOver {
		t.Errorf("Empty is %s, want over", rec.Phase)
	}
	if out := h.sweep(); len(out) != 0 {
		t.Errorf("a second sweep made %v", subjects(out))
	}
}

// The organiser cancels a tournament before its start, and no one else
// may: the players who joined are told, it takes no more players, and it
// shows as ended before its start. One started is not cancelled.
func TestTournamentCancel(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob", "carol")
	h.createTournament("alice", "Spring tanbo rr")
	h.joinAll("Spring", "alice", "bob")
	errorReply(t, h.as("bob", "tournament cancel Spring bob pw-bob"), "bob@example.org",
		"Only the organiser of Spring, alice, may send \"tournament cancel\".")
	out := h.as("alice", "tournament cancel Spring alice pw-alice")
	if len(out) != 2 || len(mailsTo(out, "alice@example.org", "Tournament Spring cancelled")) != 1 ||
		len(mailsTo(out, "bob@example.org", "Tournament Spring cancelled")) != 1 {
		t.Fatalf("the cancel mailed %v; want alice and bob told", subjects(out))
	}
	says(t, out[0].Body, "alice, its organiser, has cancelled the tournament Spring")
	if rec, _ := h.tournamentState("Spring"); rec.Phase != store.TournamentOver {
		t.Errorf("Spring is %s after the cancel, want over", rec.Phase)
	}
	errorReply(t, h.as("carol", "tournament join Spring carol pw-carol"), "carol@example.org",
		"Tournament Spring is over; \"tournament list\" names those open.")
	show := one(t, h.as("carol", "tournament show Spring"), "carol@example.org")
	says(t, show.Body, "The tournament ended before its start.")

	h.createTournament("alice", "Summer tanbo rr")
	h.joinAll("Summer", "alice", "bob")
	h.as("alice", "tournament start Summer alice pw-alice")
	errorReply(t, h.as("alice", "tournament cancel Summer alice pw-alice"), "alice@example.org",
		"Tournament Summer has started or is over; only one not started yet is cancelled.")
	if len(h.pendingBoards("Summer")) != 1 {
		t.Errorf("Summer's games after a refused cancel: %v; want its one board in play", h.pendingBoards("Summer"))
	}
	errorReply(t, h.as("alice", "tournament end Summer alice pw-alice"), "alice@example.org",
		"\"end\" is not a tournament command; they are cancel, challenge, create, join, leave, list, show, start and withdraw.")
}

// The bounds: a name, the tournaments one player organises, the entry
// limit.
func TestTournamentBounds(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob", "carol")
	errorReply(t, h.as("alice", "tournament create 9lives tanbo rr alice pw-alice"), "alice@example.org",
		"\"9lives\" is no tournament name: write 1 to 24 letters, digits, - or _, starting with a letter.")
	errorReply(t, h.as("alice", "tournament create Spring chess rr alice pw-alice"), "alice@example.org",
		"\"chess\" is not a game of this server; the games are ultima, tanbo, taratibu, tobit.")
	for i := range 5 {
		h.createTournament("alice", fmt.Sprintf("T%d tanbo rr", i))
	}
	errorReply(t, h.as("alice", "tournament create T5 tanbo rr alice pw-alice"), "alice@example.org",
		"alice organises 5 tournaments not over, the most one player may; wait until one ends.")
	h.createTournament("bob", "Small tanbo rr limit=2")
	h.joinAll("Small", "alice", "bob")
	errorReply(t, h.as("carol", "tournament join Small carol pw-carol"), "carol@example.org",
		"Tournament Small is full: it takes 2 players.")
	list := one(t, h.as("carol", "tournament list"), "carol@example.org")
	says(t, list.Body, "Small", "T4")
}

// playRounds plays every round of a tournament to its end, the game of
// each board decided by result (the loser's id, "" for a draw), and
// returns the mails of the last round.
func (h *harness) playRounds(name string, result func(g tournament.Game) string) []reply {
	h.t.Helper()
	var mails []reply
	for range 50 {
		boards := h.pendingBoards(name)
		if len(boards) == 0 {
			return mails
		}
		mails = nil
		for _, g := range boards {
			mails = append(mails, h.finish(g.Board, result(g))...)
		}
	}
	h.t.Fatalf("tournament %s did not end in 50 rounds", name)
	return nil
}

// A Swiss of five over three rounds: a bye each round to a different
// player, no pair twice, the standings with Buchholz.
func TestTournamentSwiss(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ids := []string{"alice", "bob", "carol", "dave", "erin"}
	h.signup(ids...)
	h.createTournament("alice", "Swiss5 tanbo swiss rounds=3")
	h.joinAll("Swiss5", ids...)
	h.as("alice", "tournament start Swiss5 alice pw-alice")
	last := h.playRounds("Swiss5", func(g tournament.Game) string { return g.Black })
	rec, st := h.tournamentState("Swiss5")
	if rec.Phase != store.TournamentOver || st.Round != 3 {
		t.Fatalf("the Swiss is %s after round %d", rec.Phase, st.Round)
	}
	byes, met := map[string]int{}, map[string]bool{}
	for _, g := range st.Games {
		if g.Black == "" {
			byes[g.White]++
			continue
		}
		pair := min(g.White, g.Black) + " " + max(g.White, g.Black)
		if met[pair] {
			t.Errorf("%s met twice", pair)
		}
		met[pair] = true
	}
	if len(byes) != 3 {
		t.Errorf("byes %v: want one each to three players", byes)
	}
	m := mailsTo(last, "dave@example.org", "Tournament Swiss5 final standings")
	if len(m) != 1 {
		t.Fatalf("no final standings to dave: %v", subjects(last))
	}
	says(t, m[0].Body, "tie-breaks: Buchholz, Median Buchholz", ": a bye")
}

// A knockout of five: byes to the top seeds, a drawn game replayed on a
// new board of the same round, one winner.
func TestTournamentKnockout(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ids := []string{"alice", "bob", "carol", "dave", "erin"}
	h.signup(ids...)
	h.createTournament("alice", "Cup tanbo ko draws=replay")
	h.joinAll("Cup", ids...)
	out := h.as("alice", "tournament start Cup alice pw-alice")
	first := h.pendingBoards("Cup")
	if len(first) != 1 {
		t.Fatalf("a knockout of 5 plays %d games in round 1, want 1 (3 byes): %v", len(first), subjects(out))
	}
	// The first game is drawn: the pair plays again, colours swapped.
	h.finish(first[0].Board, "")
	again := h.pendingBoards("Cup")
	if len(again) != 1 || again[0].Round != 1 || again[0].White != first[0].Black || again[0].Board == first[0].Board {
		t.Fatalf("after a draw: %+v, want a replay of %+v on a new board", again, first[0])
	}
	h.playRounds("Cup", func(g tournament.Game) string { return g.Black })
	rec, st := h.tournamentState("Cup")
	if rec.Phase != store.TournamentOver || st.Winner() == "" {
		t.Fatalf("the knockout is %s, winner %q", rec.Phase, st.Winner())
	}
	show := one(t, h.as("bob", "tournament show Cup"), "bob@example.org")
	says(t, show.Body, "Winner: "+st.Winner())
}

// A league of two divisions over two seasons: the first season's end
// starts the second by itself, the winner of division 2 promoted and the
// last of division 1 relegated.
func TestTournamentLeague(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ids := []string{"alice", "bob", "carol", "dave"}
	h.signup(ids...)
	h.createTournament("alice", "League tanbo league division=2 promote=1 seasons=2")
	h.joinAll("League", ids...)
	h.as("alice", "tournament start League alice pw-alice")
	_, st := h.tournamentState("League")
	division := func(st *tournament.State, id string) int {
		for _, e := range st.Entrants {
			if e.ID == id {
				return e.Group
			}
		}
		return 0
	}
	// Equal ratings: the order is by id, alice and bob on top.
	if division(st, "alice") != 1 || division(st, "carol") != 2 {
		t.Fatalf("divisions at the start: %+v", st.Entrants)
	}
	// Season 1: the later of the two in the alphabet wins each game.
	later := func(g tournament.Game) string { return min(g.White, g.Black) }
	var mails []reply
	for _, g := range h.pendingBoards("League") {
		mails = append(mails, h.finish(g.Board, later(g))...)
	}
	_, st = h.tournamentState("League")
	if st.Season != 2 {
		t.Fatalf("after the first season's games the league is in season %d", st.Season)
	}
	if division(st, "alice") != 2 || division(st, "dave") != 1 {
		t.Errorf("after season 1: alice in division %d, dave in %d; want 2 and 1", division(st, "alice"), division(st, "dave"))
	}
	boards := h.pendingBoards("League")
	if len(boards) != 2 {
		t.Fatalf("season 2 has %d boards, want 2", len(boards))
	}
	m := mailsTo(mails, "bob@example.org", fmt.Sprintf("New Tanbo Board %d", boards[0].Board))
	if boards[0].White == "bob" || boards[0].Black == "bob" {
		if len(m) != 1 {
			t.Fatalf("bob got no board mail of season 2: %v", subjects(mails))
		}
		says(t, m[0].Body, "Tournament League, season 2, round 1")
	}
	h.playRounds("League", later)
	if rec, _ := h.tournamentState("League"); rec.Phase != store.TournamentOver {
		t.Errorf("after two seasons the league is %s", rec.Phase)
	}
}

// A player who signs off forfeits his board in play as anyone does, and
// is withdrawn when his next game is paired: no board waits for him.
func TestTournamentSignoff(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob", "carol", "dave")
	h.createTournament("alice", "Spring tanbo rr")
	h.joinAll("Spring", "alice", "bob", "carol", "dave")
	h.as("alice", "tournament start Spring alice pw-alice")
	h.as("dave", "signoff dave pw-dave")
	st := h.playOutWithout("Spring", "dave")
	for _, e := range st.Entrants {
		if e.ID == "dave" && !e.Withdrawn {
			t.Errorf("dave, gone, is not withdrawn")
		}
	}
}

// playOutWithout plays a tournament to its end, White winning, failing
// when a board is made for the player who is out (withdrawn, gone), and
// returns its state at the end.
func (h *harness) playOutWithout(name, out string) *tournament.State {
	h.t.Helper()
	h.playRounds(name, func(g tournament.Game) string {
		if g.White == out || g.Black == out {
			h.t.Fatalf("a board was made for %s, who is out: %+v", out, g)
		}
		return g.Black
	})
	rec, st := h.tournamentState(name)
	if rec.Phase != store.TournamentOver {
		h.t.Fatalf("tournament %s did not end: %s", name, rec.Phase)
	}
	return st
}

// A tournament record that does not decode stops no game: the boards of
// its round still end, their results unrecorded and logged, "tournament
// show" refuses it alone and the list passes over it.
func TestTournamentCorruptRecord(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "bob")
	h.createTournament("alice", "Spring tanbo rr")
	h.joinAll("Spring", "alice", "bob")
	h.as("alice", "tournament start Spring alice pw-alice")
	g := h.pendingBoards("Spring")[0]
	if err := h.db.Update(func(tx *store.Tx) error { return tx.CorruptTournament("Spring") }); err != nil {
		t.Fatal(err)
	}
	h.finish(g.Board, g.Black)
	if rec := h.game("tanbo", g.Board); !rec.Over {
		t.Fatalf("board %d did not end under a damaged tournament", g.Board)
	}
	errorReply(t, h.as("bob", "tournament show Spring"), "bob@example.org",
		"Tournament Spring cannot be read at present (its record is damaged; the operator sees it in the log); \"tournament list\" names the others.")
	if list := one(t, h.as("bob", "tournament list"), "bob@example.org"); strings.Contains(list.Body, "Spring") {
		t.Errorf("the list shows the damaged record:\n%s", list.Body)
	}
}
