package pbem

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// Robot players are users the service makes itself, one per game and level:
// "ultima-robot1" to "ultima-robot3", and so on. They have no address (their
// board mails go nowhere) and no password (no mail can act for them); the
// robot worker (package pbem/robot) chooses their moves off the mail path
// and commits them here through the same command code as a player's move.

// RobotLevels is the number of robot strengths per game.
const RobotLevels = 3

// robotKey marks a robot user in store.User.Extra; its value is the level.
const robotKey = "robot"

// robotForfeitDays is the longest forfeit time of a game with a robot:
// the default's. A robot's seats are few and shared.
var robotForfeitDays = model.DefaultDays.Forfeit

// robotActiveGames bounds the running boards of one robot, so that its
// thinking time is shared among a bounded number of games.
const robotActiveGames = 200

// RobotID is the user id of the robot of game at level: "ultima-robot2".
func RobotID(game string, level int) string { return fmt.Sprintf("%s-robot%d", game, level) }

// ParseRobotID reads a robot's user id: its game and level.
func ParseRobotID(id string) (game string, level int, ok bool) {
	game, n, found := strings.Cut(strings.ToLower(id), "-robot")
	if !found {
		return "", 0, false
	}
	level, err := strconv.Atoi(n)
	if err != nil || level < 1 || level > RobotLevels {
		return "", 0, false
	}
	if g, known := catalog.Lookup(game); !known || g.Name() != game {
		return "", 0, false
	}
	return game, level, true
}

// robotHooks is the service's link to its robot worker.
type robotHooks struct {
	mu     sync.Mutex
	onTurn func(RobotTurn)
}

// A RobotTurn names a board where a robot plays, and the player it plays
// there, whose turns the worker takes one after another.
type RobotTurn struct {
	Kind  string
	Board int
	// Human is the player opposite the robot; "" when the board could
	// not be read.
	Human string
}

// OnRobotTurn sets the function told, after each commit, of every board on
// which a robot has something to do: a move or an answer to a proposal.
func (s *Service) OnRobotTurn(fn func(RobotTurn)) {
	s.robots.mu.Lock()
	s.robots.onTurn = fn
	s.robots.mu.Unlock()
}

// EnsureRobots makes the robot players of the given games, if they do not
// exist yet. A robot refuses the challenges of every other game. A robot
// whose record does not decode is logged and left as it is: it does not
// play, and the others do.
func (s *Service) EnsureRobots(games []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.cfg.Now()
	return s.db.Update(func(tx *store.Tx) error {
		for _, game := range games {
			for level := 1; level <= RobotLevels; level++ {
				id := RobotID(game, level)
				u, err := tx.User(id)
				if err == nil {
					if !isRobot(u) {
						// Signed up before robots existed: a player, not played by the worker.
						s.log.Warn("a player holds a robot's user id; that robot does not play", "user", id)
					}
					continue
				}
				if tx.PassOver(err) {
					continue // logged; that robot does not play, the daemon starts
				}
				if !errNotFound(err) {
					return err
				}
				var refuses []string
				for _, other := range catalog.Names() {
					if other != game {
						refuses = append(refuses, other)
					}
				}
				u = &store.User{
					ID:      id,
					Name:    id,
					Created: now,
					Extra:   map[string]string{robotKey: strconv.Itoa(level)},
					Refuses: refuses,
					Limits:  map[string]int{game: robotActiveGames},
				}
				if err := tx.PutUser(u); err != nil {
					return err
				}
				s.log.Info("robot player created", "user", id)
			}
		}
		return nil
	})
}

// isRobot reports whether u is a robot the service made: its id names a
// robot and it carries the mark, so that no signup can pass for one.
func isRobot(u *store.User) bool {
	_, level, ok := ParseRobotID(u.ID)
	return ok && u.Extra[robotKey] == strconv.Itoa(level)
}

// A RobotTask is a board on which a robot has something to do, as read at
// one moment: the worker thinks about it outside any transaction and hands
// its answer to PlayRobot, which refuses it if the board has moved on.
type RobotTask struct {
	RobotTurn
	Robot string // the robot's user id
	Level int
	Moves int // moves on the board when read
	// Vote is "draw" or "undo" when the robot must answer the opponent's
	// proposal, else "".
	Vote    string
	ToMove  bool // the robot is to move
	Game    rules.Game
	Options rules.Options
	Pos     rules.Position // a copy, the robot's to use
}

// RobotTurns lists every running board where a robot plays, whether or
// not it has something to do there, from the robots' entries of the seat
// index and the heads of their boards. The worker reads them at start and
// now and then, so that a turn left by a crash, a restart or a failed move
// is found; it reads each board apart, so that one it cannot read stops no
// other. A robot whose record does not decode is logged and passed over.
func (s *Service) RobotTurns(games []string) ([]RobotTurn, error) {
	var turns []RobotTurn
	err := s.db.View(func(tx *store.Tx) error {
		for _, game := range games {
			for level := 1; level <= RobotLevels; level++ {
				u, err := tx.User(RobotID(game, level))
				if errNotFound(err) || tx.PassOver(err) {
					continue
				}
				if err != nil {
					return err
				}
				if !isRobot(u) {
					continue
				}
				// At most the robot's limit of running games; the walk
				// reads index keys only.
				refs, _ := tx.UserBoards(u.ID, game, seatFilter("active"), false, store.Page{Size: math.MaxInt})
				for _, ref := range refs {
					t := RobotTurn{Kind: ref.Kind, Board: ref.Board}
					if h, err := tx.GameHead(ref.Kind, ref.Board); err == nil {
						t.Human = opposite(h.Seats, u.ID)
					}
					turns = append(turns, t)
				}
			}
		}
		return nil
	})
	return turns, err
}

// opposite is the seat of seats that is not id's.
func opposite(seats []string, id string) string {
	for _, s := range seats {
		if !strings.EqualFold(s, id) {
			return s
		}
	}
	return ""
}

// RobotTask reads one board: what its robot has to do, if anything.
func (s *Service) RobotTask(kind string, num int) (RobotTask, bool, error) {
	var t RobotTask
	var ok bool
	err := s.db.View(func(tx *store.Tx) error {
		r := &request{s: s, tx: tx, now: s.cfg.Now()}
		var err error
		t, ok, err = r.robotTaskSafely(kind, num)
		return err
	})
	return t, ok, err
}

// robotTaskSafely is robotTask with a panic (a board whose record decodes
// to nonsense) turned into an error: the worker that asks must not die of
// one board.
func (r *request) robotTaskSafely(kind string, num int) (t RobotTask, ok bool, err error) {
	err = safely(func() error {
		t, ok, err = r.robotTask(kind, num)
		return err
	})
	if err != nil {
		return RobotTask{}, false, err
	}
	return t, ok, nil
}

func (r *request) robotTask(kind string, num int) (RobotTask, bool, error) {
	rec, err := r.tx.Game(kind, num)
	if errNotFound(err) {
		return RobotTask{}, false, nil
	}
	if err != nil || rec.Over || len(rec.Seats) != 2 || rec.Seats[0] == "" || rec.Seats[1] == "" {
		return RobotTask{}, false, err
	}
	if !hasRobotID(rec.Seats) {
		return RobotTask{}, false, nil // no replay for the boards of two players
	}
	b, err := r.loadBoard(kind, num)
	if err != nil {
		return RobotTask{}, false, err
	}
	return r.taskOf(b)
}

// taskOf is the robot's task on a loaded board, if any.
func (r *request) taskOf(b *board) (RobotTask, bool, error) {
	if b.rec.Over || b.open() {
		return RobotTask{}, false, nil
	}
	for seat, id := range b.rec.Seats {
		_, level, ok := ParseRobotID(id)
		if !ok {
			continue
		}
		u, err := r.tx.User(id)
		if errNotFound(err) {
			continue
		}
		if err != nil {
			return RobotTask{}, false, err
		}
		if !isRobot(u) {
			continue
		}
		t := RobotTask{RobotTurn: RobotTurn{Kind: b.rec.Kind, Board: b.rec.Board, Human: opposite(b.rec.Seats, u.ID)},
			Robot: u.ID, Level: level, Moves: len(b.rec.Moves), Game: b.game, Options: b.opts, Pos: b.pos.Clone()}
		if v := b.rec.Vote; v != nil && v.Seat != seat {
			t.Vote = v.Kind
		}
		t.ToMove = b.pos.ToMove() == seat
		if t.Vote != "" || t.ToMove {
			return t, true, nil
		}
	}
	return RobotTask{}, false, nil
}

func hasRobotID(seats []string) bool {
	for _, id := range seats {
		if _, _, ok := ParseRobotID(id); ok {
			return true
		}
	}
	return false
}

// robotAfterCommit tells the worker, once the transaction has committed,
// that a robot has something to do on board b.
func (r *request) robotAfterCommit(b *board) {
	r.s.robots.mu.Lock()
	fn := r.s.robots.onTurn
	r.s.robots.mu.Unlock()
	if fn == nil || b.rec.Over {
		return
	}
	t, ok, err := r.taskOf(b)
	if err != nil || !ok {
		return
	}
	r.after = append(r.after, func() { fn(t.RobotTurn) })
}

// ErrRobotStale: the board changed after the robot read it; its answer is
// not played and the task is read again.
var ErrRobotStale = errors.New("the board has changed since the robot read it")

// PlayRobot runs one command for the robot of t, as if the robot had mailed
// "<game> move <board> <robot> - <text>": text is a move (a Taratibu turn's
// single moves, separated by spaces), "resign", "accept" or "reject". It
// takes the same path as a player's move, so every board mail goes out; it
// refuses with ErrRobotStale when the board is no longer as t read it.
func (s *Service) PlayRobot(t RobotTask, text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.cfg.Now()
	var after []func()
	var played int
	err := s.db.Update(func(tx *store.Tx) error {
		r := &request{s: s, tx: tx, now: now, robot: t.Robot}
		after, played = nil, 0
		b, err := r.loadBoard(t.Kind, t.Board)
		if err != nil {
			return err
		}
		cur, ok, err := r.taskOf(b)
		if err != nil {
			return err
		}
		if !ok || cur.Robot != t.Robot || cur.Moves != t.Moves || cur.Vote != t.Vote || cur.ToMove != t.ToMove {
			return ErrRobotStale
		}
		words := []string{t.Kind, "move", strconv.Itoa(t.Board), t.Robot, "-"}
		words = append(words, strings.Fields(text)...)
		if t.ToMove && !isVoteWord(text) {
			words[len(words)-1] += "#" + strconv.Itoa(t.Moves+1)
		}
		c := &cmd{r: r, words: words}
		if err := c.dispatch(); err != nil {
			var f *failure
			if errors.As(err, &f) {
				return fmt.Errorf("%s on %s board %d: %q refused: %s", t.Robot, t.Kind, t.Board, text, f.Msg)
			}
			return err
		}
		if err := r.compose(); err != nil {
			return err
		}
		for _, out := range r.out {
			if err := tx.Enqueue(out); err != nil {
				return err
			}
		}
		after, played = r.after, r.played
		return nil
	})
	if err != nil {
		return err
	}
	for _, f := range after {
		f()
	}
	if played > 0 && s.cfg.OnMoves != nil {
		s.cfg.OnMoves(played)
	}
	return nil
}

func isVoteWord(text string) bool {
	switch strings.ToLower(text) {
	case "resign", "accept", "reject":
		return true
	}
	return false
}

// robotJoin runs "<game> join board ROBOT password": the player waiting on
// an open seat board asks a robot of this game to take the seat, with his
// own password. Only when the operator allows it (Config.RobotJoin); a
// robot never takes an open seat by itself. It reports false when the words
// name no robot, for join to go on as usual.
func (c *cmd) robotJoin(args []string) (bool, error) {
	if len(args) != 3 || c.r.robot != "" {
		return false, nil
	}
	game, _, ok := ParseRobotID(args[1])
	if !ok {
		return false, nil
	}
	if !c.r.s.cfg.RobotJoin {
		return true, c.fail("Robots do not take open seats on this server; challenge one instead: %s challenge YOURID %s",
			c.game.Name(), strings.ToLower(args[1]))
	}
	if game != c.game.Name() {
		return true, c.fail("%s plays only %s; ask %s instead", strings.ToLower(args[1]), game, RobotID(c.game.Name(), 1))
	}
	num, err := c.boardNumber(args[0])
	if err != nil {
		return true, err
	}
	b, err := c.r.loadBoard(c.game.Name(), num)
	if err != nil {
		return true, err
	}
	asker := ""
	for _, s := range b.rec.Seats {
		if s != "" {
			asker = s
		}
	}
	if asker == "" || b.rec.Over || !b.open() {
		return true, c.failOn(b, "%s board %d has no player waiting on an open seat; a robot joins only when that player asks",
			b.game.Title(), num)
	}
	if _, err := c.r.auth(asker, args[2]); err != nil {
		var f *failure
		if errors.As(err, &f) {
			f.Msg = "Only the player waiting on the board may ask a robot to join, with his own password: " + f.Msg
			f.game, f.board = c.game, b
		}
		return true, err
	}
	if err := c.robotShare([]string{asker, args[1]}); err != nil {
		var f *failure
		if errors.As(err, &f) {
			f.board = b
		}
		return true, err
	}
	c.r.robot = strings.ToLower(args[1])
	defer func() { c.r.robot = "" }()
	return true, c.join(args)
}

// robotShare refuses a game between a robot and a player who already has
// limits.robot_games active games with that robot: a robot plays at most
// robotActiveGames games, shared by every player, so that no one may take
// them all. Nor does a robot sit at a board with an open seat, where its
// games would count against nobody. seats are the board's once the game
// begins; a board without a robot passes.
func (c *cmd) robotShare(seats []string) error {
	robot, human := "", ""
	for _, id := range seats {
		if u, err := c.r.tx.User(id); err == nil && isRobot(u) {
			robot = u.ID
		} else if err != nil && !errNotFound(err) {
			return err
		} else {
			human = id
		}
	}
	if robot == "" {
		return nil
	}
	if human == "" {
		return c.fail("A robot plays only the player who challenges it, not an open seat; name yourself instead of ?, e.g. %s challenge YOURID %s",
			c.game.Name(), robot)
	}
	limit := c.r.s.limits.RobotGames
	// Walk the robot's boards, which its limit bounds, not the player's.
	if n := c.r.tx.ActiveWith(robot, human, c.game.Name()); n >= limit {
		return c.fail("%s already plays %s against %s, and %d is the most one player may have with a robot: robots are shared by every player; wait until one of them ends, or challenge another robot (%s to %s)",
			human, activeGamesText(n, c.game.Title()), robot, limit, RobotID(c.game.Name(), 1), RobotID(c.game.Name(), RobotLevels))
	}
	return nil
}

// robotPair refuses a game between two robots: nobody would be playing.
func (c *cmd) robotPair(ids []string) error {
	if len(ids) != 2 {
		return nil
	}
	_, _, a := ParseRobotID(ids[0])
	_, _, b := ParseRobotID(ids[1])
	if a && b {
		return c.fail("A game between two robots has no human player; challenge a robot with your own user id, e.g. %s challenge YOURID %s",
			c.game.Name(), strings.ToLower(ids[1]))
	}
	return nil
}
