package pbem

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

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

// finish plays tanbo board num until it ends: both players move once,
// then the loser resigns on his turn ("" for a draw: the player to move
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
		switch {
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
		if rounds == 3 {
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
