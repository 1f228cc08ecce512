package ultima

// A second, slow implementation of the rules, written straight from their
// text ("ultima help", docs/games.md) on a grid of letters: every move is
// found by trying every target square, and a king is in check when some
// move of the opponent's full move list would capture it. The fast package is checked against it
// on random positions.

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules"
)

type refBoard struct {
	g    [8][8]byte // [file][rank], '.' empty
	side int
	opt  ruleset
}

type refMove struct {
	ff, fr, tf, tr int // tf < 0 for a suicide
	caps           [][2]int
}

func refParse(t *testing.T, text string, opt ruleset) *refBoard {
	t.Helper()
	b := &refBoard{opt: opt}
	f := strings.Fields(text)
	for i, row := range strings.Split(f[0], "/") {
		full, err := rules.ExpandRow(row, 8, pieceLetters)
		if err != nil {
			t.Fatal(err)
		}
		for file := 0; file < 8; file++ {
			b.g[file][7-i] = full[file]
		}
	}
	if f[1] == "b" {
		b.side = 1
	}
	return b
}

func (b *refBoard) String() string {
	var rows []string
	for r := 7; r >= 0; r-- {
		var row []byte
		for f := 0; f < 8; f++ {
			row = append(row, b.g[f][r])
		}
		rows = append(rows, rules.CompressRow(string(row)))
	}
	return strings.Join(rows, "/") + " " + string("wb"[b.side])
}

func on(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

func (b *refBoard) at(f, r int) byte {
	if !on(f, r) {
		return 0
	}
	return b.g[f][r]
}

func colorOf(c byte) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return 0
	case c >= 'a' && c <= 'z':
		return 1
	}
	return -1
}

func kindOf(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

var dirs8 = [][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, -1}, {-1, 1}, {1, -1}}

func (b *refBoard) isFrozen(f, r int) bool {
	c := b.g[f][r]
	s := colorOf(c)
	for _, d := range dirs8 {
		nf, nr := f+d[0], r+d[1]
		n := b.at(nf, nr)
		if colorOf(n) != 1-s {
			continue
		}
		if kindOf(n) == 'X' && kindOf(c) == 'I' {
			return true
		}
		if kindOf(n) != 'I' {
			continue
		}
		if !b.opt.pure {
			return true
		}
		helped := false
		for _, e := range dirs8 {
			hf, hr := nf+e[0], nr+e[1]
			h := b.at(hf, hr)
			if colorOf(h) == s && (kindOf(h) == 'I' || kindOf(h) == 'X') && !(hf == f && hr == r) {
				helped = true
			}
		}
		if !helped {
			return true
		}
	}
	return false
}

func (b *refBoard) kingOf(side int) (int, int) {
	for f := 0; f < 8; f++ {
		for r := 0; r < 8; r++ {
			if c := b.g[f][r]; kindOf(c) == 'K' && colorOf(c) == side {
				return f, r
			}
		}
	}
	return -1, -1
}

// moves lists every move of side, kings captures included, without the
// check rule.
func (b *refBoard) moves(side int) []refMove {
	var out []refMove
	enemy := func(f, r int) bool { return colorOf(b.at(f, r)) == 1-side }
	for f := 0; f < 8; f++ {
		for r := 0; r < 8; r++ {
			c := b.g[f][r]
			if colorOf(c) != side {
				continue
			}
			k := kindOf(c)
			if b.isFrozen(f, r) {
				if k != 'K' {
					out = append(out, refMove{ff: f, fr: r, tf: -1})
				}
				continue
			}
			for di, d := range dirs8 {
				for dist := 1; dist < 8; dist++ {
					tf, tr := f+d[0]*dist, r+d[1]*dist
					if !on(tf, tr) {
						break
					}
					var mid [][2]int // occupied squares strictly between
					for i := 1; i < dist; i++ {
						if b.at(f+d[0]*i, r+d[1]*i) != '.' {
							mid = append(mid, [2]int{f + d[0]*i, r + d[1]*i})
						}
					}
					m := refMove{ff: f, fr: r, tf: tf, tr: tr}
					target := b.at(tf, tr)
					switch k {
					case 'K':
						if dist == 1 && (target == '.' || enemy(tf, tr)) {
							if target != '.' {
								m.caps = [][2]int{{tf, tr}}
							}
							out = append(out, m)
						}
						continue
					case 'X':
						if dist == 1 && kindOf(target) == 'K' && enemy(tf, tr) {
							m.caps = [][2]int{{tf, tr}}
							out = append(out, m)
							continue
						}
					}
					if target != '.' {
						continue
					}
					if k == 'P' && di >= 4 {
						continue
					}
					leaps := k == 'L' || k == 'X'
					ok := len(mid) == 0
					if leaps && len(mid) > 0 {
						ok = true
						for _, q := range mid {
							qc := b.at(q[0], q[1])
							if !enemy(q[0], q[1]) || (k == 'X' && kindOf(qc) != 'L') {
								ok = false
							}
							// the square after a jumped piece must be empty
							if b.at(q[0]+d[0], q[1]+d[1]) != '.' {
								ok = false
							}
						}
						if b.opt.singleLeap && (len(mid) > 1 || mid[0] != [2]int{tf - d[0], tr - d[1]}) {
							ok = false
						}
					}
					if !ok {
						continue
					}
					m.caps = b.captures(side, k, f, r, tf, tr, di, mid)
					out = append(out, m)
				}
			}
		}
	}
	return out
}

func (b *refBoard) captures(side int, k byte, f, r, tf, tr, di int, mid [][2]int) [][2]int {
	d := dirs8[di]
	var caps [][2]int
	isEnemy := func(f, r int, kinds string) bool {
		c := b.at(f, r)
		return colorOf(c) == 1-side && strings.IndexByte(kinds, kindOf(c)) >= 0
	}
	// after the move the mover stands on tf,tr and f,r is empty
	ownAfter := func(af, ar int) bool {
		if af == f && ar == r {
			return false
		}
		return colorOf(b.at(af, ar)) == side || (af == tf && ar == tr)
	}
	kf, kr := b.kingOf(side)
	custody := func(kinds string) {
		for _, e := range dirs8[:4] {
			if isEnemy(tf+e[0], tr+e[1], kinds) && ownAfter(tf+2*e[0], tr+2*e[1]) {
				caps = append(caps, [2]int{tf + e[0], tr + e[1]})
			}
		}
	}
	coordinate := func(kinds string) {
		if isEnemy(tf, kr, kinds) {
			caps = append(caps, [2]int{tf, kr})
		}
		if isEnemy(kf, tr, kinds) {
			caps = append(caps, [2]int{kf, tr})
		}
	}
	switch k {
	case 'P':
		custody("KPWLCIX")
	case 'W':
		if isEnemy(f-d[0], r-d[1], "KPWLCIX") {
			caps = append(caps, [2]int{f - d[0], r - d[1]})
		}
	case 'L':
		caps = append(caps, mid...)
	case 'C':
		coordinate("KPWLCIX")
	case 'X':
		caps = append(caps, mid...)
		if b.opt.pure && len(mid) > 0 {
			break
		}
		if isEnemy(f-d[0], r-d[1], "W") {
			caps = append(caps, [2]int{f - d[0], r - d[1]})
		}
		coordinate("C")
		if di < 4 {
			custody("P")
		}
	}
	return caps
}

func (b *refBoard) apply(m refMove) *refBoard {
	n := *b
	n.side = 1 - b.side
	if m.tf < 0 {
		n.g[m.ff][m.fr] = '.'
		return &n
	}
	for _, c := range m.caps {
		n.g[c[0]][c[1]] = '.'
	}
	n.g[m.tf][m.tr] = b.g[m.ff][m.fr]
	n.g[m.ff][m.fr] = '.'
	return &n
}

// attacked reports whether side's king could be captured by a move of the
// other side.
func (b *refBoard) attacked(side int) bool {
	kf, kr := b.kingOf(side)
	for _, m := range b.moves(1 - side) {
		for _, c := range m.caps {
			if c == [2]int{kf, kr} {
				return true
			}
		}
	}
	return false
}

func (b *refBoard) legal() []refMove {
	var out []refMove
	for _, m := range b.moves(b.side) {
		if !b.apply(m).attacked(b.side) {
			out = append(out, m)
		}
	}
	return out
}

func (m refMove) String() string {
	sq := func(f, r int) string { return fmt.Sprintf("%c%d", 'a'+f, r+1) }
	to := "off"
	if m.tf >= 0 {
		to = sq(m.tf, m.tr)
	}
	var caps []string
	for _, c := range m.caps {
		caps = append(caps, sq(c[0], c[1]))
	}
	sort.Slice(caps, func(i, j int) bool {
		return caps[i][1] < caps[j][1] || caps[i][1] == caps[j][1] && caps[i][0] < caps[j][0]
	})
	return sq(m.ff, m.fr) + "-" + to + " " + strings.Join(caps, " ") + " "
}

// randomPosition places one king a side and a random handful of other
// pieces, heavy in the pieces whose rules interact.
func randomPosition(rng *rand.Rand) string {
	var g [64]byte
	for i := range g {
		g[i] = '.'
	}
	// Pieces crowd into a box of random size, so that captures combine.
	w, h := 4+rng.Intn(5), 4+rng.Intn(5)
	x0, y0 := rng.Intn(9-w), rng.Intn(9-h)
	place := func(c byte) {
		for {
			sq := (y0+rng.Intn(h))*8 + x0 + rng.Intn(w)
			if g[sq] == '.' {
				g[sq] = c
				return
			}
		}
	}
	place('K')
	place('k')
	for n := 2 + rng.Intn(w*h/2); n > 0; n-- {
		c := "PPPWWLLCCIXX"[rng.Intn(12)]
		if rng.Intn(2) == 1 {
			c += 'a' - 'A'
		}
		place(c)
	}
	var rows []string
	for r := 7; r >= 0; r-- {
		rows = append(rows, rules.CompressRow(string(g[r*8:r*8+8])))
	}
	return strings.Join(rows, "/") + " " + string("wb"[rng.Intn(2)])
}

var optionSets = []rules.Options{
	{},
	{"singleleap": ""},
	{"pure": ""},
	{"pure": "", "singleleap": ""},
}

// TestAgainstReference compares the legal moves, their captures and the
// positions they lead to, and the check status, with the slow
// implementation, over random positions and random games from them.
func TestAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewSource(1962))
	positions := 0
	for positions < 600 {
		text := randomPosition(rng)
		opts := optionSets[positions%len(optionSets)]
		pos, err := Game.ParsePosition(text, opts)
		if err != nil {
			continue // the side that moved is in check
		}
		positions++
		p := pos.(*Position)
		for ply := 0; ply < 6 && !p.Result().Over; ply++ {
			compareWithReference(t, p, opts)
			legal := p.Legal()
			if _, err := p.Play(legal[rng.Intn(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func compareWithReference(t *testing.T, p *Position, opts rules.Options) {
	t.Helper()
	ref := refParse(t, p.String(), p.r)
	if ref.String() != p.String() {
		t.Fatalf("reference reads %q as %q", p.String(), ref.String())
	}
	want := map[string]string{}
	for _, m := range ref.legal() {
		want[m.String()] = ref.apply(m).String()
	}
	got := map[string]string{}
	for _, m := range p.Legal() {
		q := p.Clone()
		steps, err := q.Play(m)
		if err != nil {
			t.Fatalf("%s %v: legal move %s refused: %v", p, opts, m, err)
		}
		key := strings.ToLower(m[1:]) + " " + strings.Join(steps[0].Captured, " ") + " "
		got[key] = q.String()
	}
	for k, v := range want {
		if g, ok := got[k]; !ok {
			t.Errorf("%s %v: reference move %q missing", p, opts, k)
		} else if g != v {
			t.Errorf("%s %v: move %q gives %s, reference %s", p, opts, k, g, v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s %v: move %q is not in the reference", p, opts, k)
		}
	}
	if got, want := p.b.inCheck(p.r), ref.attacked(ref.side); got != want {
		t.Errorf("%s %v: in check %v, reference %v", p, opts, got, want)
	}
	if t.Failed() {
		t.FailNow()
	}
}

// TestPerftAgainstReference counts the start position to depth 3 with the
// slow implementation.
func TestPerftAgainstReference(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	var count func(b *refBoard, depth int) uint64
	count = func(b *refBoard, depth int) uint64 {
		if depth == 0 {
			return 1
		}
		var n uint64
		for _, m := range b.legal() {
			n += count(b.apply(m), depth-1)
		}
		return n
	}
	pos, _ := Game.Start(nil)
	ref := refParse(t, StartText, ruleset{})
	for depth := 1; depth <= 3; depth++ {
		if got, want := pos.Perft(depth), count(ref, depth); got != want {
			t.Errorf("perft(%d) = %d, reference %d", depth, got, want)
		}
	}
}
