package robot

import (
	"strings"

	"github.com/pbemd/pbemd/rules"
)

// Tanbo weights. A player loses when his last root is bounded, so what
// counts is how many roots he has and how far each is from being bounded.
const (
	tanboStone   = 2
	tanboRoot    = 30 // each root is one more thing the opponent must bound
	tanboLiberty = 6  // per liberty of a root, up to tanboEnough
	tanboEnough  = 6
	tanboAtari   = 3 // per stone of a root down to one liberty the opponent can fill
)

func tanboCount(pos rules.Position) [2]int {
	var n [2]int
	board, _, _ := strings.Cut(pos.String(), " ")
	rows := grid(board, strings.Count(board, "/")+1, "bw")
	for _, r := range rows {
		n[0] += strings.Count(r, "b")
		n[1] += strings.Count(r, "w")
	}
	return n
}

// tanboScore is liberties and root safety: for each root of each colour,
// its stones, a bonus for being a root at all, its liberties (empty points
// next to exactly one stone of its colour, all of them this root's) up to a
// safe number; a root without liberty is as good as gone, and one with a
// single liberty its opponent may fill (next to exactly one of his own
// stones) is in danger when the opponent is to move.
func tanboScore(pos rules.Position, e *env) int {
	board, _, _ := strings.Cut(pos.String(), " ")
	n := strings.Count(board, "/") + 1
	sc := e.tanboScratch(n * n)
	// cell[i] is 0 empty, 1 black (seat 0), 2 white (seat 1); i = row*n+col.
	cell := sc.cell
	if !tanboCells(board, n, cell) {
		return 0 // the rules wrote the text: cannot happen
	}
	neighbours := func(i int, fn func(j int)) {
		r, c := i/n, i%n
		if r > 0 {
			fn(i - n)
		}
		if r < n-1 {
			fn(i + n)
		}
		if c > 0 {
			fn(i - 1)
		}
		if c < n-1 {
			fn(i + 1)
		}
	}
	// own[k][i]: stones of colour k+1 next to empty point i.
	own := sc.own
	for i, v := range cell {
		if v != 0 {
			neighbours(i, func(j int) { own[v-1][j]++ })
		}
	}
	toMove := pos.ToMove()
	var score [2]int
	seen := sc.seen
	libSeen := sc.libSeen // the number of the root that last counted the point
	stack := sc.stack[:0]
	roots := 0
	for i, v := range cell {
		if v == 0 || seen[i] {
			continue
		}
		roots++
		k := int(v - 1)
		stones, libs := 0, 0
		var lastLib int
		stack = append(stack[:0], i)
		seen[i] = true
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			stones++
			neighbours(p, func(j int) {
				switch {
				case cell[j] == v && !seen[j]:
					seen[j] = true
					stack = append(stack, j)
				case cell[j] == 0 && own[k][j] == 1 && libSeen[j] != roots:
					libSeen[j] = roots
					libs++
					lastLib = j
				}
			})
		}
		switch {
		case libs == 0:
			continue // bounded: removed at the next placement
		case libs == 1 && toMove != k && own[1-k][lastLib] == 1:
			score[k] += tanboStone*stones + tanboRoot - tanboAtari*stones
		default:
			score[k] += tanboStone*stones + tanboRoot + tanboLiberty*min(libs, tanboEnough)
		}
	}
	return score[toMove] - score[1-toMove]
}

// tanboScratch is the memory of tanboScore, kept in the search's env so
// that a leaf allocates nothing but the position text.
type tanboScratch struct {
	cell, own0, own1 []int8
	own              [2][]int8
	seen             []bool
	libSeen, stack   []int
}

// tanboScratch returns the scratch for points points, cleared.
func (e *env) tanboScratch(points int) *tanboScratch {
	sc := e.tanbo
	if sc == nil || len(sc.cell) != points {
		sc = &tanboScratch{
			cell: make([]int8, points), own0: make([]int8, points), own1: make([]int8, points),
			seen: make([]bool, points), libSeen: make([]int, points), stack: make([]int, 0, points),
		}
		sc.own = [2][]int8{sc.own0, sc.own1}
		e.tanbo = sc
	}
	clear(sc.cell)
	clear(sc.own0)
	clear(sc.own1)
	clear(sc.seen)
	clear(sc.libSeen)
	return sc
}

// tanboCells reads the rows of a Tanbo position text (top row first, digits
// for runs of empty points) into cell, top row first.
func tanboCells(board string, n int, cell []int8) bool {
	i := 0
	for k := 0; k < len(board); k++ {
		switch c := board[k]; {
		case c == '/':
			if i%n != 0 {
				return false
			}
		case c >= '0' && c <= '9':
			run := int(c - '0')
			for k+1 < len(board) && board[k+1] >= '0' && board[k+1] <= '9' {
				k++
				run = run*10 + int(board[k]-'0')
			}
			i += run
		case c == 'b' || c == 'w' || c == '.':
			if i >= len(cell) {
				return false
			}
			if c == 'b' {
				cell[i] = 1
			} else if c == 'w' {
				cell[i] = 2
			}
			i++
		default:
			return false
		}
	}
	return i == len(cell)
}
