package tobit

import (
	"strconv"
	"strings"

	"github.com/pbemd/pbemd/rules"
)

const moveForm = "write a step like 9-16 or a capture like 14x16x30"

// parseMove reads the points of a move written 9-16 or 14x16x30, and
// whether it is a capture.
func parseMove(text string) (points []int, capture bool, err error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return nil, false, rules.Errorf(text, "a move is a step like 9-16 or a capture like 14x16x30")
	}
	var sep byte
	for _, field := range strings.FieldsFunc(s, isSeparator) {
		for _, r := range field {
			if r < '0' || r > '9' {
				return nil, false, rules.Errorf(text, "%s is not part of a move; %s",
					strconv.QuoteRuneToASCII(r), moveForm)
			}
		}
		n, err := strconv.Atoi(field)
		if err != nil || len(field) > 2 || n < 1 || n > numPoints {
			return nil, false, rules.Errorf(text, "%s is not a point; points are 1 to 38", field)
		}
		points = append(points, n)
	}
	// Every separator must stand between two points.
	for i := 0; i < len(s); i++ {
		if !isSeparator(rune(s[i])) {
			continue
		}
		c := s[i] | 0x20 // 'X' reads as 'x'
		if i == 0 || i == len(s)-1 || isSeparator(rune(s[i+1])) {
			return nil, false, rules.Errorf(text, "a move is points joined by - or x; %s", moveForm)
		}
		if sep != 0 && c != sep {
			return nil, false, rules.Errorf(text, "a move joins its points with - for a step or x for a capture, not both")
		}
		sep = c
	}
	switch {
	case len(points) < 2:
		return nil, false, rules.Errorf(text, "a move names at least two points; %s", moveForm)
	case sep == '-' && len(points) > 2:
		return nil, false, rules.Errorf(text, "a step goes from one point to another, like 9-16; "+
			"a capture writes x between its landing points, like 14x16x30")
	}
	return points, sep == 'x', nil
}

func isSeparator(r rune) bool { return r == '-' || r == 'x' || r == 'X' }

// list is moves in canonical notation, separated by commas.
func list(ms []move) string {
	s := make([]string, len(ms))
	for i := range ms {
		s[i] = notation(&ms[i])
	}
	return strings.Join(s, ", ")
}

// find returns the legal move text stands for, or an error saying why there
// is none.
func (p *position) find(text string) (move, error) {
	pts, capture, err := parseMove(text)
	if err != nil {
		return move{}, err
	}
	from, to := pts[0], pts[len(pts)-1]
	piece := p.b.sq[from]
	switch {
	case piece == empty:
		return move{}, rules.Errorf(text, "point %d is empty", from)
	case owner(piece) != p.b.side:
		return move{}, rules.Errorf(text, "the piece on %d is %s's; %s is to move",
			from, sideNames[p.b.side^1], sideNames[p.b.side])
	}
	legal := p.moves()
	capturing := len(legal) > 0 && legal[0].ncap > 0
	for i := range legal {
		if samePath(&legal[i], pts) && capture == capturing {
			return legal[i], nil
		}
	}
	if !capture {
		if capturing {
			return move{}, rules.Errorf(text, "capture is compulsory: %s", list(legal))
		}
		return move{}, p.whyNotStep(text, from, to, piece)
	}
	if !capturing {
		return move{}, rules.Errorf(text, "there is nothing to capture; legal moves: %s", list(legal))
	}
	var mine []move
	for i := range legal {
		if legal[i].from() == from {
			mine = append(mine, legal[i])
		}
	}
	if len(mine) == 0 {
		return move{}, rules.Errorf(text, "the %s on %d has nothing to capture; captures are compulsory: %s",
			pieceName(piece), from, list(legal))
	}
	if len(pts) == 2 {
		// Shorthand: the start and final point of a longer sequence.
		var matches []move
		for i := range mine {
			if mine[i].to() == to {
				matches = append(matches, mine[i])
			}
		}
		switch {
		case len(matches) == 1:
			return matches[0], nil
		case len(matches) > 1:
			return move{}, rules.Errorf(text, "%dx%d is ambiguous: it could be %s; write the whole path",
				from, to, strings.Join(strings.Split(list(matches), ", "), " or "))
		}
		if d, _ := lineTo(from, to); d == noDir {
			return move{}, rules.Errorf(text, "no capture of the %s on %d ends on %d; its captures: %s",
				pieceName(piece), from, to, list(mine))
		}
	}
	return move{}, p.whyNotCapture(text, pts, piece, mine)
}

func samePath(m *move, pts []int) bool {
	if int(m.n)+1 != len(pts) {
		return false
	}
	for i, pt := range pts {
		if int(m.path[i]) != pt {
			return false
		}
	}
	return true
}

// extends reports whether m's path is longer than pts and begins with it.
func extends(m *move, pts []int) bool {
	if int(m.n)+1 <= len(pts) {
		return false
	}
	for i, pt := range pts {
		if int(m.path[i]) != pt {
			return false
		}
	}
	return true
}

// lineTo returns the direction and distance from a to b along a line, or
// noDir when no line runs from a to b.
func lineTo(a, b int) (dir, dist int) {
	for d := 0; d < 4; d++ {
		n := 1
		for t := int(next[a][d]); t != 0; t = int(next[t][d]) {
			if t == b {
				return d, n
			}
			n++
		}
	}
	return noDir, 0
}

// whyNotStep explains why from-to is not a legal step or slide.
func (p *position) whyNotStep(text string, from, to int, piece uint8) error {
	if p.b.sq[to] != empty {
		return rules.Errorf(text, "point %d is occupied", to)
	}
	d, dist := lineTo(from, to)
	if d == noDir {
		return rules.Errorf(text, "no line runs from %d to %d", from, to)
	}
	if piece&tobitBit == 0 {
		if d == opposite(forward[p.b.side]) {
			return rules.Errorf(text, "a hul never steps backward; the %s on %d may step to %s",
				pieceName(piece), from, p.targets(from))
		}
		if dist > 1 {
			return rules.Errorf(text, "a hul steps one point at a time; the %s on %d may step to %s",
				pieceName(piece), from, p.targets(from))
		}
	}
	for t := int(next[from][d]); t != to; t = int(next[t][d]) {
		if p.b.sq[t] != empty {
			return rules.Errorf(text, "the %s on %d blocks the way", pieceName(p.b.sq[t]), t)
		}
	}
	return rules.Errorf(text, "no legal move from %d to %d", from, to)
}

// targets lists the points the piece on from may move to, or says it has none.
func (p *position) targets(from int) string {
	var ts []string
	for _, m := range p.b.stepsFrom(from, nil) {
		ts = append(ts, strconv.Itoa(m.to()))
	}
	if len(ts) == 0 {
		return "no point: it is blocked"
	}
	return strings.Join(ts, " or ")
}

// whyNotCapture explains why the capture path pts is not a legal capture
// sequence of piece; mine are the piece's legal sequences.
func (p *position) whyNotCapture(text string, pts []int, piece uint8, mine []move) error {
	b := p.b
	b.sq[pts[0]] = empty
	enemy := piece&(whiteHul|blackHul) ^ (whiteHul | blackHul)
	at, last := pts[0], noDir
	for i, to := range pts[1:] {
		if i > 0 && piece&tobitBit == 0 && promotes[b.side][at] {
			return rules.Errorf(text, "the hul was promoted on %d, which ends the capture there", at)
		}
		d, dist := lineTo(at, to)
		switch {
		case d == noDir:
			return rules.Errorf(text, "no line runs from %d to %d", at, to)
		case last != noDir && d == opposite(last):
			return rules.Errorf(text, "a piece may not turn back 180 degrees between two jumps, as it does on %d", at)
		case b.sq[to] != empty:
			return rules.Errorf(text, "point %d is occupied", to)
		}
		var taken []int
		for t := int(next[at][d]); t != to; t = int(next[t][d]) {
			switch {
			case b.sq[t] == empty:
			case b.sq[t]&enemy == 0:
				return rules.Errorf(text, "the jump %dx%d passes over the %s on %d", at, to, pieceName(b.sq[t]), t)
			default:
				taken = append(taken, t)
			}
		}
		switch {
		case len(taken) == 0:
			return rules.Errorf(text, "the jump %dx%d captures nothing", at, to)
		case len(taken) > 1:
			return rules.Errorf(text, "the jump %dx%d passes over %d pieces; a jump captures one", at, to, len(taken))
		case piece&tobitBit == 0 && dist != 2:
			return rules.Errorf(text, "a hul captures only a piece next to it, landing just beyond it")
		}
		b.sq[taken[0]] = empty
		at, last = to, d
	}
	var longer []move
	for i := range mine {
		if extends(&mine[i], pts) {
			longer = append(longer, mine[i])
		}
	}
	if len(longer) > 0 {
		return rules.Errorf(text, "the capture must go on while it can: %s", list(longer))
	}
	return rules.Errorf(text, "no legal capture %s; the captures of the %s on %d are %s",
		strings.TrimSpace(text), pieceName(piece), pts[0], list(mine))
}
