package robot

import (
	"context"
	"errors"
	"hash/fnv"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/pbemd/pbemd/pbem"
)

// Games lists the games robots play, in the service's names.
func Games() []string { return []string{"ultima", "tanbo", "taratibu", "tobit"} }

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
// restart is played then.
type Worker struct {
	svc  *pbem.Service
	opts WorkerOptions
	log  *slog.Logger

	mu      sync.Mutex
	pending map[pbemBoard]bool
	wake    chan struct{}
}

type pbemBoard struct {
	kind  string
	board int
}

// NewWorker returns a worker for svc. Start must be called before Run.
func NewWorker(svc *pbem.Service, opts WorkerOptions) *Worker {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.Rescan <= 0 {
		opts.Rescan = 10 * time.Minute
	}
	return &Worker{svc: svc, opts: opts, log: opts.Log, pending: map[pbemBoard]bool{}, wake: make(chan struct{}, 1)}
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

func (w *Worker) notify(kind string, board int) {
	w.mu.Lock()
	w.pending[pbemBoard{kind, board}] = true
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Run plays robot turns until ctx ends. A search under way when it ends is
// dropped, not played: the turn is found again at the next start.
func (w *Worker) Run(ctx context.Context) {
	tick := time.NewTicker(w.opts.Rescan)
	defer tick.Stop()
	w.scan(ctx)
	for {
		w.mu.Lock()
		boards := w.pending
		w.pending = map[pbemBoard]bool{}
		w.mu.Unlock()
		for b := range boards {
			if ctx.Err() != nil {
				return
			}
			t, ok, err := w.svc.RobotTask(b.kind, b.board)
			if err != nil {
				w.log.Error("robot: reading board", "game", b.kind, "board", b.board, "err", err)
				continue
			}
			if ok {
				w.Do(ctx, t)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-w.wake:
		case <-tick.C:
			w.scan(ctx)
		}
	}
}

// scan does every task on every robot board.
func (w *Worker) scan(ctx context.Context) {
	tasks, err := w.svc.RobotTasks(Games())
	if err != nil {
		w.log.Error("robot: reading the robots' boards", "err", err)
		return
	}
	for _, t := range tasks {
		if ctx.Err() != nil {
			return
		}
		w.Do(ctx, t)
	}
}

// Do thinks about one task and commits the answer. The service is told of
// the board again after each commit when the robot has more to do there
// (a proposal answered, then a move).
func (w *Worker) Do(ctx context.Context, t pbem.RobotTask) {
	start := time.Now()
	r := &Robot{Game: t.Game, Opts: t.Options, Level: t.Level, Budget: w.opts.Budget, Seed: Seed(t.Kind, t.Board, t.Moves), Stop: ctx.Done()}
	text, err := Answer(r, t)
	if errors.Is(err, ErrStopped) {
		return
	}
	if err != nil {
		w.log.Error("robot: choosing", "robot", t.Robot, "game", t.Kind, "board", t.Board, "err", err)
		return
	}
	err = w.svc.PlayRobot(t, text)
	if errors.Is(err, pbem.ErrRobotStale) {
		w.notify(t.Kind, t.Board) // read it again as it is now
		return
	}
	if err != nil {
		w.log.Error("robot: playing", "robot", t.Robot, "game", t.Kind, "board", t.Board, "err", err)
		return
	}
	w.log.Info("robot played", "robot", t.Robot, "game", t.Kind, "board", t.Board, "move", text, "took", time.Since(start).Round(time.Millisecond))
	if w.opts.OnPlayed != nil {
		w.opts.OnPlayed()
	}
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
