package pbem

import (
	"fmt"
	"slices"
	"strings"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
)

// A plan is what a player queued on a board: the branches for his next
// turn, tried in order. Written in text, for every game:
//
//	if Xd5-f5 then Pe2-e5 if Pd7-d6 then Wd1-a4 else Pc2-c4
//
// "if ANSWER then MOVE" plays MOVE when the opponent's turn was ANSWER;
// "else MOVE" (or a branch without "if") plays MOVE after any other
// answer; "MOVE then MOVE2" plays MOVE2 after whatever answer to MOVE. A
// plan after a move ("if ..." or "then ...") is nested in it, and an
// "else" belongs to the innermost "if" still open; "end" closes it. The
// old queue of moves one after another is the plan "h3 then b9".
type plan []branch

// A branch is one answer the plan waits for and the move that replies.
type branch struct {
	If     string // the opponent's turn it answers, its moves as the record writes them; "" = any
	Play   string // the submission to play then, or "resign"
	Number int    // the move number Play must get; 0 = any
	Next   plan   // the plan after Play
}

// The bounds of a plan: the old queue's 20 moves one after another fit
// in its depth, and the nodes bound the work of checking and storing it.
const (
	maxPlanDepth = 20
	maxPlanNodes = 64
)

// planKeyword is w as a keyword of plans, or "".
func planKeyword(w string) string {
	switch lw := strings.ToLower(w); lw {
	case "if", "then", "else", "end":
		return lw
	}
	return ""
}

type planParser struct {
	words []string
	i     int
	nodes int
}

// parsePlan reads a plan from its words, checking its form and bounds
// (not the rules: see checkPlan).
func parsePlan(words []string) (plan, error) {
	p := &planParser{words: words}
	pl, err := p.plan(1)
	if err != nil {
		return nil, err
	}
	if p.i < len(p.words) {
		return nil, fmt.Errorf("%q (word %d) follows a complete plan; an \"else\" must follow an \"if ... then MOVE\" still open", p.words[p.i], p.i+1)
	}
	return pl, nil
}

func (p *planParser) peek() string {
	if p.i < len(p.words) {
		return planKeyword(p.words[p.i])
	}
	return "<end>"
}

// phrase reads the words up to the next keyword: one move or answer.
func (p *planParser) phrase() string {
	start := p.i
	for p.i < len(p.words) && planKeyword(p.words[p.i]) == "" {
		p.i++
	}
	return strings.Join(p.words[start:p.i], " ")
}

// plan reads: branch {"else" branch} ["end"], where
// branch = ["if" ANSWER "then"] MOVE [("then" plan) | plan starting with "if"].
func (p *planParser) plan(depth int) (plan, error) {
	if depth > maxPlanDepth {
		return nil, fmt.Errorf("a plan is at most %d moves deep; plan fewer moves ahead", maxPlanDepth)
	}
	var pl plan
	for {
		var br branch
		if p.peek() == "if" {
			p.i++
			br.If = p.phrase()
			if br.If == "" {
				return nil, fmt.Errorf("\"if\" must be followed by the opponent's move, e.g. \"if e7-e5 then g1-f3\"")
			}
			if p.peek() != "then" {
				return nil, fmt.Errorf("\"if %s\" must be followed by \"then\" and your move, e.g. \"if %s then MOVE\"", br.If, br.If)
			}
			p.i++
			for _, o := range pl {
				if strings.EqualFold(o.If, br.If) {
					return nil, fmt.Errorf("the answer %s is named twice in one choice; the second could never be played", br.If)
				}
			}
		}
		move := p.phrase()
		if move == "" && p.i < len(p.words) {
			return nil, fmt.Errorf("%q (word %d) stands where a move must be; write the move you will play there", p.words[p.i], p.i+1)
		}
		if move == "" {
			return nil, fmt.Errorf("the plan ends after %q; write the move you will play after it", p.words[p.i-1])
		}
		text, n, err := splitMoveNumber(move)
		if err != nil {
			return nil, err
		}
		br.Play, br.Number = text, n
		if notPlannable(text) {
			return nil, fmt.Errorf("%q cannot be planned, only moves and resign can; send it when it is your turn", text)
		}
		if strings.EqualFold(text, "resign") {
			br.Play = "resign"
		}
		if p.nodes++; p.nodes > maxPlanNodes {
			return nil, fmt.Errorf("a plan has at most %d moves; this one has more. Plan fewer answers", maxPlanNodes)
		}
		switch p.peek() {
		case "then":
			p.i++
			if br.Next, err = p.plan(depth + 1); err != nil {
				return nil, err
			}
		case "if":
			if br.Next, err = p.plan(depth + 1); err != nil {
				return nil, err
			}
		}
		if br.Play == "resign" && len(br.Next) > 0 {
			return nil, fmt.Errorf("nothing can be planned after a resignation")
		}
		pl = append(pl, br)
		switch p.peek() {
		case "else":
			if br.If == "" {
				// A branch for any answer takes every other: the
				// "else" belongs to an "if" further out.
				return pl, nil
			}
			p.i++
			continue
		case "end":
			p.i++
		}
		return pl, nil
	}
}

// notPlannable reports whether w is a command "move" takes that waits
// for no turn: it cannot be queued.
func notPlannable(w string) bool {
	switch strings.ToLower(w) {
	case "propose", "draw", "accept", "reject", "undo", "swap":
		return true
	}
	return false
}

// nodes counts the moves of a plan.
func (pl plan) nodes() int {
	n := 0
	for _, br := range pl {
		n += 1 + br.Next.nodes()
	}
	return n
}

func (pl plan) depth() int {
	d := 0
	for _, br := range pl {
		d = max(d, 1+br.Next.depth())
	}
	return d
}

// linear reports whether the plan is moves one after another, as the old
// queue was; it returns them.
func (pl plan) linear() ([]store.Queued, bool) {
	var out []store.Queued
	for len(pl) > 0 {
		if len(pl) != 1 || pl[0].If != "" {
			return nil, false
		}
		out = append(out, store.Queued{Text: pl[0].Play, Number: pl[0].Number})
		pl = pl[0].Next
	}
	return out, true
}

// lines writes the plan one branch a line, indented by depth, so that the
// lines read back (joined) as the same plan: "end" closes a nested plan
// whenever more follows it.
func (pl plan) lines(depth int, first string, closed bool, out *[]string) {
	indent := planIndent(depth)
	for i, br := range pl {
		lead := first
		if i > 0 {
			lead = "else "
		}
		if br.If != "" {
			lead += "if " + br.If + " then "
		}
		*out = append(*out, wrapPlanLine(indent, lead+moveText(br.Play, br.Number))...)
		if len(br.Next) > 0 {
			then := ""
			if br.Next[0].If == "" {
				then = "then "
			}
			br.Next.lines(depth+1, then, closed || i < len(pl)-1, out)
		}
	}
	if closed {
		// Under the branch whose plan it closes.
		*out = append(*out, planIndent(depth-1)+"end")
	}
}

// planIndent indents a plan's lines by their depth, up to the tenth, so
// that deep plans stay within the lines of a mail.
func planIndent(depth int) string {
	return strings.Repeat("  ", min(max(depth, 0), 10))
}

// wrapPlanLine breaks a branch's line at spaces to keep within model.LineWidth,
// its later lines indented further. A plan's words mean the same on one
// line or many, so the lines still read back as the plan.
func wrapPlanLine(indent, text string) []string {
	var out []string
	line := indent
	for _, w := range strings.Fields(text) {
		if len(line) > len(indent) && len(line)+1+len(w) > model.LineWidth {
			out = append(out, line)
			line = indent + "    "
		} else if len(line) > len(indent) && !strings.HasSuffix(line, " ") {
			line += " "
		}
		line += w
	}
	return append(out, line)
}

// String is the plan on one line, as it is stored.
func (pl plan) String() string {
	var ls []string
	pl.lines(0, "", false, &ls)
	for i := range ls {
		ls[i] = strings.TrimSpace(ls[i])
	}
	return strings.Join(ls, " ")
}

func moveText(text string, number int) string {
	return queuedText(store.Queued{Text: text, Number: number})
}

// hasResign reports whether the plan holds a resignation.
func (pl plan) hasResign() bool {
	for _, br := range pl {
		if br.Play == "resign" || br.Next.hasResign() {
			return true
		}
	}
	return false
}

// withoutResign is the plan with its resignations taken out.
func (pl plan) withoutResign() plan {
	var out plan
	for _, br := range pl {
		if br.Play != "resign" {
			br.Next = br.Next.withoutResign()
			out = append(out, br)
		}
	}
	return out
}

// then is the plan with more put after each of its last moves that is no
// resignation ("queue add").
func (pl plan) then(more plan) plan {
	if len(pl) == 0 {
		return more
	}
	out := make(plan, len(pl))
	for i, br := range pl {
		if len(br.Next) > 0 {
			br.Next = br.Next.then(more)
		} else if br.Play != "resign" {
			br.Next = more
		}
		out[i] = br
	}
	return out
}

// pick is the branch that answers the opponent's turn answer.
func (pl plan) pick(answer string) (branch, bool) {
	for _, br := range pl {
		if br.If == "" || strings.EqualFold(br.If, answer) {
			return br, true
		}
	}
	return branch{}, false
}

// planOf is the plan of seat on a board. Records hold it as Queued
// entries: a plan of moves one after another as one entry a move (as
// before plans), any other as one entry with the plan's text.
func planOf(rec *store.Game, seat int) (plan, error) {
	var words []string
	for _, q := range queuedOf(rec, seat) {
		if len(words) > 0 {
			words = append(words, "then")
		}
		words = append(words, strings.Fields(queuedText(q))...)
	}
	if len(words) == 0 {
		return nil, nil
	}
	pl, err := parsePlan(words)
	if err != nil {
		return nil, fmt.Errorf("board %s %d: the stored plan of seat %d: %v", rec.Kind, rec.Board, seat, err)
	}
	return pl, nil
}

// setPlan stores pl as the plan of seat, replacing the one it had.
func setPlan(rec *store.Game, seat int, pl plan, now time.Time) {
	keep := rec.Queue[:0:0]
	at := now
	for _, q := range rec.Queue {
		if q.Seat != seat {
			keep = append(keep, q)
		} else if at.Equal(now) {
			at = q.At
		}
	}
	if list, ok := pl.linear(); ok {
		for _, q := range list {
			q.Seat, q.User, q.At = seat, rec.Seats[seat], at
			keep = append(keep, q)
		}
	} else {
		keep = append(keep, store.Queued{Seat: seat, User: rec.Seats[seat], Text: pl.String(), At: at})
	}
	rec.Queue = keep
}

// lastTurn is the moves of seat's turn that ends the record (all of it in
// a game of several moves a turn), as plans name an answer.
func lastTurn(moves []store.Move, seat int) string {
	i := len(moves)
	for i > 0 && moves[i-1].Seat == seat {
		i--
	}
	texts := make([]string, 0, len(moves)-i)
	for _, m := range moves[i:] {
		texts = append(texts, m.Text)
	}
	return strings.Join(texts, " ")
}

func stepMoves(steps []rules.Step) string {
	texts := make([]string, len(steps))
	for i, s := range steps {
		texts[i] = s.Move
	}
	return strings.Join(texts, " ")
}

// checkPlan plays every branch of seat's plan on copies of the board's
// position and writes its answers and moves as the record will write
// them. A move after any answer cannot be checked before that answer is
// known: it is checked when it is played, as every move is.
func (b *board) checkPlan(pl plan, seat int) error {
	if b.pos.ToMove() == seat {
		return fmt.Errorf("it is your turn on %s board %d; send your move first, then plan your answers to the reply", b.game.Title(), b.rec.Board)
	}
	return checkPlanAt(b.pos, pl, seat, lastTurn(b.rec.Moves, 1-seat))
}

func checkPlanAt(pos rules.Position, pl plan, seat int, before string) error {
	for i := range pl {
		br := &pl[i]
		if br.If == "" {
			continue
		}
		p := pos.Clone()
		steps, err := p.Play(br.If)
		if err != nil {
			return fmt.Errorf("the answer in \"if %s\" cannot be played there: %s", br.If, moveReason(err, br.If))
		}
		br.If = strings.TrimSpace(before + " " + stepMoves(steps))
		if p.Result().Over {
			return fmt.Errorf("after the answer %s the game is over; nothing can be played after it", br.If)
		}
		if p.ToMove() != seat {
			return fmt.Errorf("the answer %s does not end your opponent's turn; write all of its moves", br.If)
		}
		if br.Play == "resign" {
			continue
		}
		steps, err = p.Play(br.Play)
		if err != nil {
			return fmt.Errorf("after %s, your %s is not legal: %s", br.If, br.Play, moveReason(err, br.Play))
		}
		br.Play = stepMoves(steps)
		if p.Result().Over {
			if len(br.Next) > 0 {
				return fmt.Errorf("after %s the game is over; nothing can follow it", br.Play)
			}
			continue
		}
		if p.ToMove() == seat {
			return fmt.Errorf("%s does not end your turn; write all of its moves", br.Play)
		}
		if err := checkPlanAt(p, br.Next, seat, ""); err != nil {
			return err
		}
	}
	return nil
}

// planShort is the plan as replies quote it: the old queue's moves in
// order, "h3, b9", or the plan's text.
func planShort(pl plan) string {
	if list, ok := pl.linear(); ok {
		texts := make([]string, len(list))
		for i, q := range list {
			texts[i] = queuedText(q)
		}
		return strings.Join(texts, ", ")
	}
	return pl.String()
}

func firstWord(s string) string {
	if f := strings.Fields(strings.SplitN(strings.TrimSpace(s), "\n", 2)[0]); len(f) > 0 {
		return f[0]
	}
	return ""
}

// quiet reports whether the board mail of this request is not for
// player id: his plan played for him and holds, so the board waits for
// him until his opponent's answer leaves it. The game's end, or his turn
// come back, is mailed as always.
func (b *board) quiet(id string) bool {
	return slices.Contains(b.planned, id) && !b.rec.Over && b.toMove() != id
}

// isPlan reports whether words can be a plan on a reply's first line:
// each a keyword of plans or a move (isMove).
func isPlan(words []string) bool {
	for _, w := range words {
		if planKeyword(w) == "" && !isMove([]string{w}) {
			return false
		}
	}
	return true
}
