package tanbo

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pbemd/pbemd/rules"
)

// position is a Tanbo game in progress.
type position struct {
	b board
}

func (pos *position) ToMove() int { return pos.b.toMove }

func (pos *position) Clone() rules.Position {
	q := *pos
	return &q
}

func (pos *position) Result() rules.Result {
	switch {
	case pos.b.stones[0] == 0:
		return rules.Win(1, "no stones left")
	case pos.b.stones[1] == 0:
		return rules.Win(0, "no stones left")
	}
	return rules.Ongoing
}

// String prints the position format with every empty point a '.', as the
// public vectors write it.
func (pos *position) String() string {
	b := &pos.b
	var s strings.Builder
	s.Grow(b.size*(b.size+1) + 1) // rows and their slashes, a space, the side
	for r := b.size - 1; r >= 0; r-- {
		for f := 0; f < b.size; f++ {
			s.WriteByte(".bw"[b.cell[point(f, r)]])
		}
		if r > 0 {
			s.WriteByte('/')
		}
	}
	s.WriteString(" " + "bw"[b.toMove:b.toMove+1])
	return s.String()
}

// Legal lists the placements of the side to move in point order: a1, b1,
// ..., a2, ...
func (pos *position) Legal() []string {
	b := &pos.b
	if b.over() {
		return nil
	}
	var moves []string
	for r := 0; r < b.size; r++ {
		for f := 0; f < b.size; f++ {
			if p := point(f, r); b.legal(p) {
				moves = append(moves, pointName(p))
			}
		}
	}
	return moves
}

func (pos *position) Perft(depth int) uint64 {
	if depth < 0 {
		return 0
	}
	return pos.b.perft(depth)
}

// Play places one stone of the side to move. The step's captures are every
// point emptied by the move, the placed point included when the move bounded
// its own root.
func (pos *position) Play(text string) ([]rules.Step, error) {
	b := &pos.b
	if b.over() {
		r := pos.Result()
		return nil, rules.Errorf(text, "the game is over: %s won (%s); no more moves", Game.Sides()[r.Winner], r.Reason)
	}
	p, err := b.parsePoint(text)
	if err != nil {
		return nil, err
	}
	name := pointName(p)
	colour := colourName[b.toMove]
	if c := b.cell[p]; c != empty {
		return nil, rules.Errorf(text, "%s is taken by a %s stone; a stone goes on an empty point", name, colourName[c-1])
	}
	if n := b.cnt[b.toMove][p]; n != 1 {
		var friends []string
		for _, d := range dirs {
			if q := p + d; int(b.cell[q]) == b.toMove+1 {
				friends = append(friends, pointName(q))
			}
		}
		which := ""
		if n > 1 {
			which = " (" + strings.Join(friends, ", ") + ")"
		}
		return nil, rules.Errorf(text, "%s touches %d %s %s%s; a new %s stone must touch exactly 1 %s stone, up, down, left or right",
			name, n, colour, plural(int(n), "stone"), which, colour, colour)
	}
	before := b.cell
	b.place(p)
	var captured []string
	for q := range b.cell {
		if b.cell[q] == empty && (before[q] != empty || q == p) {
			captured = append(captured, pointName(q))
		}
	}
	return []rules.Step{{Move: name, Captured: captured}}, nil
}

// pointName is the notation of point p: "d5".
func pointName(p int) string {
	f, r := fileRank(p)
	return string(rune('a'+f)) + strconv.Itoa(r+1)
}

// parsePoint reads a point of the board, in upper or lower case.
func (b *board) parsePoint(text string) (int, error) {
	s := strings.ToLower(strings.TrimSpace(text))
	last := string(rune('a'+b.size-1)) + strconv.Itoa(b.size)
	if s == "" {
		return 0, rules.Errorf(text, "no point given; a move is one point, a1 to %s, like d5", last)
	}
	if s == "pass" {
		return 0, rules.Errorf(text, "Tanbo has no pass; a player with stones always has a point to play, a1 to %s", last)
	}
	digits := s[1:]
	ok := s[0] >= 'a' && s[0] <= 'z' && digits != ""
	for i := 0; i < len(digits); i++ {
		ok = ok && digits[i] >= '0' && digits[i] <= '9'
	}
	if !ok {
		return 0, rules.Errorf(text, "not a point; a move is one point, a letter and a number from a1 to %s, like d5", last)
	}
	f := int(s[0] - 'a')
	r, err := strconv.Atoi(digits) // too many digits: off the board
	if err != nil || f >= b.size || r < 1 || r > b.size {
		return 0, rules.Errorf(text, "%s is off the board; points are a1 to %s", s, last)
	}
	return point(f, r-1), nil
}

// Board draws the position like a Go board: file letters above and below,
// rank numbers left and right with the highest on top, X Black, O White.
func (pos *position) Board() string {
	b := &pos.b
	var s strings.Builder
	letters := "   "
	for f := 0; f < b.size; f++ {
		letters += " " + string(rune('a'+f))
	}
	s.WriteString(letters + "\n")
	for r := b.size - 1; r >= 0; r-- {
		fmt.Fprintf(&s, "%2d ", r+1)
		for f := 0; f < b.size; f++ {
			s.WriteByte(' ')
			s.WriteByte(".XO"[b.cell[point(f, r)]])
		}
		fmt.Fprintf(&s, "  %*d\n", len(strconv.Itoa(b.size)), r+1) // right-aligned
	}
	s.WriteString(letters + "\n")
	fmt.Fprintf(&s, "X Black (%d %s)   O White (%d %s)\n",
		b.stones[0], plural(int(b.stones[0]), "stone"), b.stones[1], plural(int(b.stones[1]), "stone"))
	return s.String()
}
