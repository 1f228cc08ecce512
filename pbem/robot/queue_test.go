package robot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/pbem"
)

// order takes every board out of q, as "player:board" words.
func order(q *queue) string {
	var out []string
	for {
		t, ok := q.take()
		if !ok {
			return strings.Join(out, " ")
		}
		out = append(out, fmt.Sprintf("%s:%d", t.Human, t.Board))
	}
}

func turn(human string, board int) pbem.RobotTurn {
	return pbem.RobotTurn{Kind: "ultima", Board: board, Human: human}
}

// The players take turns: ann has 40 boards waiting when bob's one comes,
// while one of ann's is being played; bob's is next. A board waits once
// however often it is told, and the queue then holds no more than the
// boards.
func TestQueueTakesPlayersInTurn(t *testing.T) {
	t.Parallel()
	q := newQueue()
	for b := 101; b <= 140; b++ {
		q.add(turn("ann", b))
		q.add(turn("ann", b)) // told twice: waits once
	}
	if n := q.len(); n != 40 {
		t.Fatalf("%d boards waiting; want 40", n)
	}
	first, _ := q.take() // being played
	q.add(turn("bob", 141))
	q.add(turn("", 142)) // a board that could not be read: a line of its own
	if got := order(q); !strings.HasPrefix(got, "bob:141 :142 ann:102 ann:103") {
		t.Errorf("after ann:%d, the order is %s; want bob's board next, then the unread one, then ann's", first.Board, got)
	}
	if q.len() != 0 || len(q.boards) != 0 || len(q.turn) != 0 {
		t.Errorf("an empty queue keeps %d boards, %d lines, %d players", q.len(), len(q.boards), len(q.turn))
	}
}

// Three players in turn, one board each round; a player whose board is
// being played and who is told of another joins the back of the line.
func TestQueueRoundRobin(t *testing.T) {
	t.Parallel()
	q := newQueue()
	for _, a := range []struct {
		who   string
		board int
	}{{"ann", 1}, {"ann", 2}, {"ann", 3}, {"bob", 4}, {"bob", 5}, {"cy", 6}} {
		q.add(turn(a.who, a.board))
	}
	if got, _ := q.take(); got.Board != 1 {
		t.Fatalf("first board %d; want 1", got.Board)
	}
	q.add(turn("ann", 1)) // changed again while played: waits anew
	if got, want := order(q), "bob:4 cy:6 ann:2 bob:5 ann:3 ann:1"; got != want {
		t.Errorf("order %s; want %s", got, want)
	}
}
