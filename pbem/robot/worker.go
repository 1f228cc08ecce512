package robot

import (
	"context"
	"errors"
	"hash/fnv"
	"log/slog"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/rules/catalog"
)

// Games lists the games robots play, in the service's names: every game
// of the catalog.
func Games() []string { return catalog.Names() }

// WorkerOptions say how the worker plays.
type WorkerOptions struct {
	Budget Budget       // per move (per single move of a Taratibu turn); zero: DefaultTime
	Log    *slog.Logger // nil: slog.Default()
	// OnPlayed is called after each committed robot command, e.g. to wake
	// the outbox sender for the board mails.
	OnPlayed func()
	// Rescan is how often every running board is read again, for robot
	// moves that failed; zero means ten minutes.
	Rescan time.Duration
}

// A Worker plays the robots' turns on a service's boards, one at a time,
// in its own goroutine: the mail path never waits for a robot to think.
// It learns of robot turns from the service after each commit, and reads
// every robot board at start, so a turn left pending by a crash or a
// restart is played then. The boards wait in a queue per player, the
// players taking turns (queue), so that no one waits behind another's
// many games.
type Worker struct {
	svc  *pbem.Service
	opts WorkerOptions
	log  *slog.Logger
	// answer chooses the robot's answer; Answer but in tests.
	answer func(*Robot, pbem.RobotTask) (string, error)

	mu    sync.Mutex
	queue *queue
	wake  chan struct{}
}

// NewWorker returns a worker for svc. Start must be called before Run.
func NewWorker(svc *pbem.Service, opts WorkerOptions) *Worker {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.Rescan <= 0 {
		opts.Rescan = 10 * time.Minute
	}
	return &Worker{svc: svc, opts: opts, log: opts.Log, answer: Answer, queue: newQueue(), wake: make(chan struct{}, 1)}
}

// Start makes the robot players (when they do not exist yet) and asks the
// service to tell the worker of robot turns.
func (w *Worker) Start() error {
	if err := w.svc.EnsureRobots(Games()); err != nil {
		return err
	}
	w.svc.OnRobotTurn(w.notify)
	return nil
}

func (w *Worker) notify(t pbem.RobotTurn) {
	w.mu.Lock()
	w.queue.add(t)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// next takes the next board from the queue.
func (w *Worker) next() (pbem.RobotTurn, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.queue.take()
}

// Waiting is the number of robot boards queued to be played.
func (w *Worker) Waiting() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.queue.len()
}

// Run plays robot turns until ctx ends. A search under way when it ends is
// dropped, not played: the turn is found again at the next start.
func (w *Worker) Run(ctx context.Context) {
	tick := time.NewTicker(w.opts.Rescan)
	defer tick.Stop()
	w.scan()
	for {
		for ctx.Err() == nil {
			t, ok := w.next()
			if !ok {
				break
			}
			w.play(ctx, t)
		}
		select {
		case <-ctx.Done():
			return
		case <-w.wake:
		case <-tick.C:
			w.scan()
		}
	}
}

// scan queues every running robot board.
func (w *Worker) scan() {
	defer w.survive("reading the robots' boards")
	turns, err := w.svc.RobotTurns(Games())
	if err != nil {
		w.log.Error("robot: reading the robots' boards", "err", err)
	}
	for _, t := range turns {
		w.notify(t)
	}
}

// survive, deferred, turns a panic into a log line: a board that cannot be
// read or played (a damaged record, a bug in a search) costs its own turn,
// never the process. It is tried again when the board changes or at the
// next scan, not at once.
func (w *Worker) survive(what string, args ...any) {
	if p := recover(); p != nil {
		w.log.Error("robot: panic "+what+"; skipped", append(args, "panic", p, "stack", string(debug.Stack()))...)
	}
}

// play reads the board of t and, when its robot has something to do
// there, thinks and commits the answer; it reports whether it did. The
// service tells of the board again after each commit when the robot has
// more to do there (a proposal answered, then a move).
func (w *Worker) play(ctx context.Context, turn pbem.RobotTurn) (done bool) {
	defer w.survive("playing", "game", turn.Kind, "board", turn.Board)
	t, ok, err := w.svc.RobotTask(turn.Kind, turn.Board)
	if err != nil {
		w.log.Error("robot: reading board", "game", turn.Kind, "board", turn.Board, "err", err)
		return false
	}
	if !ok {
		return false
	}
	start := time.Now()
	r := &Robot{Game: t.Game, Opts: t.Options, Level: t.Level, Budget: w.opts.Budget, Seed: Seed(t.Kind, t.Board, t.Moves), Stop: ctx.Done()}
	text, err := w.answer(r, t)
	if errors.Is(err, ErrStopped) {
		return false
	}
	if err != nil {
		w.log.Error("robot: choosing", "robot", t.Robot, "game", t.Kind, "board", t.Board, "err", err)
		return false
	}
	err = w.svc.PlayRobot(t, text)
	if errors.Is(err, pbem.ErrRobotStale) {
		w.notify(t.RobotTurn) // read it again as it is now
		return false
	}
	if err != nil {
		w.log.Error("robot: playing", "robot", t.Robot, "game", t.Kind, "board", t.Board, "err", err)
		return false
	}
	w.log.Info("robot played", "robot", t.Robot, "game", t.Kind, "board", t.Board, "move", text, "took", time.Since(start).Round(time.Millisecond))
	if w.opts.OnPlayed != nil {
		w.opts.OnPlayed()
	}
	return true
}

// Answer is what the robot does on the board of t: "accept" or "reject" a
// proposal, "resign", or its move (a Taratibu turn's single moves separated
// by spaces).
func Answer(r *Robot, t pbem.RobotTask) (string, error) {
	seat := t.Pos.ToMove()
	if !t.ToMove {
		seat = 1 - seat
	}
	switch t.Vote {
	case "undo":
		if r.AcceptsUndo() {
			return "accept", nil
		}
		if !t.ToMove {
			return "reject", nil
		}
	case "draw":
		ok, err := r.AcceptsDraw(t.Pos, seat)
		if err != nil {
			return "", err
		}
		if ok {
			return "accept", nil
		}
		if !t.ToMove {
			return "reject", nil
		}
	}
	turn, err := r.Turn(t.Pos)
	if err != nil {
		return "", err
	}
	if r.Resigns(turn) {
		return "resign", nil
	}
	return turn.Submission(), nil
}

// Seed is the seed of a robot's move on a board: the same board at the same
// move gets the same seed, so a move chosen again after a restart with a
// node budget is the same move.
func Seed(kind string, board, moves int) uint64 {
	h := fnv.New64a()
	h.Write([]byte(kind + "/" + strconv.Itoa(board) + "/" + strconv.Itoa(moves)))
	return h.Sum64()
}
