package robot

import "github.com/pbemd/pbemd/pbem"

// A queue holds the boards waiting for a robot, one line per player (the
// player opposite the robot), and gives them out with the players taking
// turns: one board of each player who has any, then again. A player with
// forty boards waiting so delays another's robot move by at most one
// thought-out move. A board waits at most once, so the queue holds no
// more than the running robot boards, which the robots' limits bound.
type queue struct {
	turn    []string // players with boards waiting, in the order they come
	boards  map[string][]pbem.RobotTurn
	waiting map[boardRef]bool

	// served is the player whose board was given out last. He joins the
	// back of turn only at the next take, behind every player who came
	// while his board was being played.
	served    string
	hasServed bool
}

type boardRef struct {
	kind  string
	board int
}

func newQueue() *queue {
	return &queue{boards: map[string][]pbem.RobotTurn{}, waiting: map[boardRef]bool{}}
}

// add puts a board in its player's line, unless it waits already.
func (q *queue) add(t pbem.RobotTurn) {
	ref := boardRef{t.Kind, t.Board}
	if q.waiting[ref] {
		return
	}
	q.waiting[ref] = true
	if len(q.boards[t.Human]) == 0 && !(q.hasServed && q.served == t.Human) {
		q.turn = append(q.turn, t.Human)
	}
	q.boards[t.Human] = append(q.boards[t.Human], t)
}

// take gives out the next board, or reports false when none waits.
func (q *queue) take() (pbem.RobotTurn, bool) {
	if q.hasServed {
		if len(q.boards[q.served]) > 0 {
			q.turn = append(q.turn, q.served)
		}
		q.hasServed = false
	}
	if len(q.turn) == 0 {
		return pbem.RobotTurn{}, false
	}
	p := q.turn[0]
	q.turn = q.turn[1:]
	line := q.boards[p]
	t := line[0]
	if len(line) == 1 {
		delete(q.boards, p)
	} else {
		q.boards[p] = line[1:]
	}
	delete(q.waiting, boardRef{t.Kind, t.Board})
	q.served, q.hasServed = p, true
	return t, true
}

// len is the number of boards waiting.
func (q *queue) len() int { return len(q.waiting) }
