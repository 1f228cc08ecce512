package web

import (
	"fmt"
	"html"
	"html/template"
	"strconv"
	"strings"

	"github.com/pbemd/pbemd/rules"
)

// Boards are drawn from the position format of each game (the one-line text
// "pbemd rules -position" reads), so the drawing needs nothing of a game
// beyond what its Position prints. Every piece or stone is one element of
// class "piece" with a data-piece attribute holding its letter in the
// position format, which is what tests and scripts count.

// A drawer draws one game's positions as SVG.
type drawer interface {
	// draw writes the body of the SVG (inside its <svg> element) for the
	// position text, marking where the last move (in canonical notation,
	// "" for none) went, and returns the drawing's width and height.
	draw(c *canvas, position, last string) (w, h int, err error)
}

// drawers are the drawers by game name.
var drawers = map[string]drawer{
	"ultima":   ultimaDrawer{},
	"tanbo":    tanboDrawer{},
	"taratibu": taratibuDrawer{},
	"tobit":    tobitDrawer{},
}

// Colours shared by the drawings.
const (
	inkDark    = "#1f1f1f"
	inkLight   = "#fbfaf5"
	lightSq    = "#efe3c8"
	darkSq     = "#b98f62"
	labelColor = "#5a4a3a"
	woodColor  = "#dcb46a"
)

// A canvas collects SVG elements. The elements drawn many times a board are
// written with s and n rather than f, which costs an allocation per
// argument.
type canvas struct{ b []byte }

func (c *canvas) f(format string, args ...any) { c.b = fmt.Appendf(c.b, format, args...) }

func (c *canvas) s(text string) *canvas { c.b = append(c.b, text...); return c }

func (c *canvas) n(i int) *canvas { c.b = strconv.AppendInt(c.b, int64(i), 10); return c }

func (c *canvas) esc(text string) *canvas { return c.s(html.EscapeString(text)) }

// labels starts a group of text labels of one size, colour and weight,
// each centred on its point; end it with endGroup.
func (c *canvas) labels(size int, fill, weight string) {
	c.f(`<g font-size="%d" fill="%s" font-weight="%s" text-anchor="middle" dominant-baseline="central">`, size, fill, weight)
}

// label writes one label of the group labels started.
func (c *canvas) label(x, y int, text string) {
	c.s(`<text x="`).n(x).s(`" y="`).n(y).s(`">`).esc(text).s(`</text>`)
}

func (c *canvas) endGroup() { c.s("</g>") }

// boardSVG draws the position of game as a whole SVG document, with the text
// diagram (as mails show it) as its title, the accessible name. last is the
// move that led to it, marked on the board; "" for none.
func boardSVG(game rules.Game, pos rules.Position, last string) (string, error) {
	d, ok := drawers[game.Name()]
	if !ok {
		return "", fmt.Errorf("web: no drawing for the game %s", game.Name())
	}
	c := canvas{b: make([]byte, 0, 24<<10)}
	w, h, err := d.draw(&c, pos.String(), last)
	if err != nil {
		return "", fmt.Errorf("web: drawing %s position %q: %w", game.Name(), pos.String(), err)
	}
	var out strings.Builder
	out.Grow(len(c.b) + 1024)
	fmt.Fprintf(&out, `<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 %d %d" width="%d" height="%d" role="img" font-family="DejaVu Sans, Verdana, Arial, sans-serif">`, w, h, w, h)
	fmt.Fprintf(&out, "<title>%s</title>", html.EscapeString(strings.TrimRight(pos.Board(), "\n")))
	out.Write(c.b)
	out.WriteString("</svg>")
	return out.String(), nil
}

// markColor marks where the last move went.
const markColor = "#f2c94c"

// markSquare marks a square of a board the last move left or reached.
func markSquare(c *canvas, x, y, sq int) {
	c.s(`<rect class="last" x="`).n(x).s(`" y="`).n(y).s(`" width="`).n(sq).s(`" height="`).n(sq).s(`" fill="` + markColor + `" opacity="0.7"/>`)
}

// sideColors are the fill and the contrasting ink of a piece of a side:
// seat 0 light, seat 1 dark in the chess-like games.
func sideColors(white bool) (fill, ink string) {
	if white {
		return inkLight, inkDark
	}
	return inkDark, inkLight
}

// squareGrid reads a FEN-like position's board: ranks from the top, '/'
// between them, each expanded to width points.
func squareGrid(board string, rows, width int, pieces string) ([]string, error) {
	ranks := strings.Split(board, "/")
	if len(ranks) != rows {
		return nil, fmt.Errorf("%d rows, want %d", len(ranks), rows)
	}
	for i, r := range ranks {
		var err error
		if ranks[i], err = rules.ExpandRow(r, width, pieces); err != nil {
			return nil, err
		}
	}
	return ranks, nil
}

// checkered draws an n by n board of squares of size sq at x0, y0, with file
// and rank labels around it. files names the columns left to right, ranks
// the rows top to bottom.
func checkered(c *canvas, n, sq, x0, y0 int, files, ranks []string) {
	c.f(`<rect x="%d" y="%d" width="%d" height="%d" fill="%s" rx="4"/>`, x0-4, y0-4, n*sq+8, n*sq+8, labelColor)
	c.f(`<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`, x0, y0, n*sq, n*sq, lightSq)
	for r := 0; r < n; r++ {
		for f := (r + 1) % 2; f < n; f += 2 {
			c.s(`<rect x="`).n(x0 + f*sq).s(`" y="`).n(y0 + r*sq).s(`" width="`).n(sq).s(`" height="`).n(sq).s(`" fill="` + darkSq + `"/>`)
		}
	}
	c.labels(13, labelColor, "normal")
	for f, name := range files {
		x := x0 + f*sq + sq/2
		c.label(x, y0-14, name)
		c.label(x, y0+n*sq+14, name)
	}
	for r, name := range ranks {
		y := y0 + r*sq + sq/2
		c.label(x0-16, y, name)
		c.label(x0+n*sq+16, y, name)
	}
	c.endGroup()
}

// ultimaDrawer draws Ultima: a chess board whose pieces each carry a symbol
// of how they capture, so they tell apart at a glance without letters.
type ultimaDrawer struct{}

var ultimaNames = map[byte]string{
	'K': "king", 'P': "pawn (pincer)", 'W': "withdrawer", 'L': "long leaper",
	'C': "coordinator", 'I': "immobilizer", 'X': "chameleon",
}

func (ultimaDrawer) draw(c *canvas, position, last string) (int, int, error) {
	board, _, _ := strings.Cut(position, " ")
	rows, err := squareGrid(board, 8, 8, "KPWLCIXkpwlcix")
	if err != nil {
		return 0, 0, err
	}
	const sq, margin = 48, 30
	files := strings.Split("a b c d e f g h", " ")
	ranks := strings.Split("8 7 6 5 4 3 2 1", " ")
	checkered(c, 8, sq, margin, margin, files, ranks)
	// The squares the last move left and reached: "Pe2-e5", "Lc5-off".
	for i := 0; i+1 < len(last); i++ {
		if f, r := last[i], last[i+1]; f >= 'a' && f <= 'h' && r >= '1' && r <= '8' {
			markSquare(c, margin+int(f-'a')*sq, margin+int('8'-r)*sq, sq)
		}
	}
	for r, row := range rows {
		for f := 0; f < 8; f++ {
			p := row[f]
			if p == '.' {
				continue
			}
			white := p >= 'A' && p <= 'Z'
			side := "Black"
			if white {
				side = "White"
			}
			x, y := margin+f*sq+sq/2, margin+r*sq+sq/2
			c.s(`<g class="piece" data-piece="`).s(row[f : f+1]).s(`" transform="translate(`).n(x).s(" ").n(y).s(`)"><title>`)
			c.s(side + " " + ultimaNames[upper(p)] + " " + files[f] + ranks[r] + "</title>")
			ultimaPiece(c, upper(p), white)
			c.s(`</g>`)
		}
	}
	return 8*sq + 2*margin, 8*sq + 2*margin, nil
}

func upper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - 'a' + 'A'
	}
	return b
}

// ultimaPiece draws one piece centred on the origin: a disc in the side's
// colour and a symbol in the contrasting ink.
func ultimaPiece(c *canvas, kind byte, white bool) {
	fill, ink := sideColors(white)
	r := 19
	if kind == 'P' {
		r = 13
	}
	c.s(`<circle r="`).n(r).s(`" fill="` + fill + `" stroke="` + inkDark + `" stroke-width="2"/>`)
	line := `fill="none" stroke="` + ink + `" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"`
	switch kind {
	case 'K': // a crown
		c.s(`<path d="M-11 7 L-11 -6 L-5.5 0 L0 -10 L5.5 0 L11 -6 L11 7 Z" fill="` + ink + `"/>`)
	case 'P': // a pincer's dot
		c.s(`<circle r="4" fill="` + ink + `"/>`)
	case 'W': // withdrawing: an arrow away from the centre, both ways
		c.s(`<path d="M0 -11 L0 11 M-6 -5 L0 -11 L6 -5 M-6 5 L0 11 L6 5" ` + line + `/>`)
	case 'L': // leaping: a double chevron
		c.s(`<path d="M-9 -1 L0 -10 L9 -1 M-9 9 L0 0 L9 9" ` + line + `/>`)
	case 'C': // coordinating: cross-hairs
		c.s(`<path d="M-12 0 L12 0 M0 -12 L0 12" ` + line + `/><circle r="5.5" ` + line + `/>`)
	case 'I': // immobilizing: a solid block
		c.s(`<rect x="-8" y="-8" width="16" height="16" rx="2" fill="` + ink + `"/>`)
	case 'X': // the chameleon: a many-pointed star, it takes every shape
		c.s(`<path d="M0 -12 L3 -4 L11 -4 L5 1.5 L7.5 10 L0 5 L-7.5 10 L-5 1.5 L-11 -4 L-3 -4 Z" fill="` + ink + `"/>`)
	}
}

// tanboDrawer draws Tanbo: a Go grid of any size with black and white stones.
type tanboDrawer struct{}

func (tanboDrawer) draw(c *canvas, position, last string) (int, int, error) {
	board, _, _ := strings.Cut(position, " ")
	n := strings.Count(board, "/") + 1
	if n < 5 || n > 19 {
		return 0, 0, fmt.Errorf("%d rows, want 5 to 19", n)
	}
	rows, err := squareGrid(board, n, n, "bw")
	if err != nil {
		return 0, 0, err
	}
	step := 26
	if n <= 13 {
		step = 34
	}
	margin := 42
	size := (n-1)*step + 2*margin
	c.f(`<rect width="%d" height="%d" fill="%s" rx="6"/>`, size, size, woodColor)
	for i := 0; i < n; i++ {
		a := margin + i*step
		c.f(`<path d="M%d %d H%d M%d %d V%d" stroke="#3b2f20" stroke-width="1.2"/>`,
			margin, a, margin+(n-1)*step, a, margin, margin+(n-1)*step)
	}
	c.labels(13, "#3b2f20", "normal")
	for i := 0; i < n; i++ {
		file := string(rune('a' + i))
		rank := strconv.Itoa(n - i)
		a := margin + i*step
		c.label(a, margin-28, file)
		c.label(a, margin+(n-1)*step+28, file)
		c.label(margin-28, a, rank)
		c.label(margin+(n-1)*step+28, a, rank)
	}
	c.endGroup()
	r := strconv.FormatFloat(float64(step)*0.46-0.5, 'f', 1, 64)
	for y, row := range rows {
		for x := 0; x < n; x++ {
			p := row[x]
			if p == '.' {
				continue
			}
			fill, side := inkDark, "Black"
			if p == 'w' {
				fill, side = inkLight, "White"
			}
			c.s(`<circle class="piece" data-piece="`).s(row[x : x+1]).s(`" cx="`).n(margin + x*step).s(`" cy="`).n(margin + y*step)
			c.s(`" r="` + r + `" fill="` + fill + `" stroke="` + inkDark + `" stroke-width="1.3"><title>` + side + " ")
			c.s(string(rune('a' + x))).n(n - y).s(`</title></circle>`)
		}
	}
	// The stone just placed: "d5".
	if len(last) >= 2 && last[0] >= 'a' && int(last[0]-'a') < n {
		if rank, err := strconv.Atoi(last[1:]); err == nil && rank >= 1 && rank <= n {
			c.s(`<circle class="last" cx="`).n(margin + int(last[0]-'a')*step).s(`" cy="`).n(margin + (n-rank)*step).s(`" r="4.5" fill="#d9412b"/>`)
		}
	}
	return size, size, nil
}

// taratibuDrawer draws Taratibu: the 7x7 board with every square's number
// (file*10 + rank) and the pieces by their letters.
type taratibuDrawer struct{}

var taratibuNames = map[byte]string{
	'S': "Sphinx", 'E': "Elk", 'B': "Bird", 'A': "Angel", 'F': "Fish",
	'M': "Man", 'D': "Duck", 'C': "Captain", 'T': "Turtle", 'H': "Hero",
}

func (taratibuDrawer) draw(c *canvas, position, last string) (int, int, error) {
	fields := strings.Fields(position)
	if len(fields) == 0 {
		return 0, 0, fmt.Errorf("empty position")
	}
	rows, err := squareGrid(fields[0], 7, 7, "SEBAFMDCTHsebafmdcth")
	if err != nil {
		return 0, 0, err
	}
	const sq, margin = 58, 30
	var files, ranks []string
	for i := 1; i <= 7; i++ {
		files = append(files, strconv.Itoa(i*10))
		ranks = append(ranks, strconv.Itoa(8-i))
	}
	checkered(c, 7, sq, margin, margin, files, ranks)
	// The squares of the last single move: "7264" is 72 to 64.
	if len(last) == 4 {
		for _, d := range []string{last[:2], last[2:]} {
			f, r := int(d[0]-'0'), int(d[1]-'0')
			if f >= 1 && f <= 7 && r >= 1 && r <= 7 {
				markSquare(c, margin+(f-1)*sq, margin+(7-r)*sq, sq)
			}
		}
	}
	c.s(`<g font-size="11" fill="` + labelColor + `" opacity="0.85">`)
	for r := range rows {
		for f := 0; f < 7; f++ {
			c.s(`<text x="`).n(margin + f*sq + 3).s(`" y="`).n(margin + r*sq + 11).s(`">`).n((f+1)*10 + 7 - r).s(`</text>`)
		}
	}
	c.endGroup()
	for r, row := range rows {
		for f := 0; f < 7; f++ {
			x, y := margin+f*sq, margin+r*sq
			num := (f+1)*10 + 7 - r
			p := row[f]
			if p == '.' {
				continue
			}
			white := p >= 'A' && p <= 'Z'
			fill, ink := sideColors(white)
			side := "Black"
			if white {
				side = "White"
			}
			cx, cy := x+sq/2, y+sq/2+3
			c.s(`<g class="piece" data-piece="`).s(row[f : f+1]).s(`"><title>` + side + " " + taratibuNames[upper(p)] + " on ").n(num)
			c.s(`</title><circle cx="`).n(cx).s(`" cy="`).n(cy).s(`" r="20" fill="` + fill + `" stroke="` + inkDark + `" stroke-width="2"/>`)
			if upper(p) == 'M' { // the Man, whose loss counts towards defeat, ringed
				c.f(`<circle cx="%d" cy="%d" r="15.5" fill="none" stroke="%s" stroke-width="1.5"/>`, cx, cy, ink)
			}
			c.labels(19, ink, "bold")
			c.label(cx, cy+1, string(upper(p)))
			c.endGroup()
			c.s(`</g>`)
		}
	}
	return 7*sq + 2*margin, 7*sq + 2*margin, nil
}

// tobitDrawer draws Tobit: five long lines crossing four transverse ones,
// the 38 points numbered, huls as plain discs and tobits crowned.
type tobitDrawer struct{}

// tobitPoint is where point n (1 to 38) lies on a grid of 7 columns and 6
// rows, row 0 at White's side.
func tobitPoint(n int) (col, row int) {
	switch {
	case n <= 5:
		return n, 0
	case n >= 34:
		return n - 33, 5
	}
	return (n - 6) % 7, (n-6)/7 + 1
}

func (tobitDrawer) draw(c *canvas, position, last string) (int, int, error) {
	points, _, _ := strings.Cut(position, " ")
	if len(points) != 38 {
		return 0, 0, fmt.Errorf("%d points, want 38", len(points))
	}
	const step, margin = 64, 36
	w, h := 6*step+2*margin, 5*step+2*margin
	at := func(n int) (int, int) {
		col, row := tobitPoint(n)
		return margin + col*step, margin + (5-row)*step
	}
	c.f(`<rect width="%d" height="%d" fill="%s" rx="6"/>`, w, h, lightSq)
	line := `stroke="` + labelColor + `" stroke-width="3" stroke-linecap="round"`
	for row := 1; row <= 4; row++ {
		y := margin + (5-row)*step
		c.f(`<path d="M%d %d H%d" %s/>`, margin, y, margin+6*step, line)
	}
	for col := 1; col <= 5; col++ {
		x := margin + col*step
		c.f(`<path d="M%d %d V%d" %s/>`, x, margin, margin+5*step, line)
	}
	c.s(`<g fill="` + labelColor + `">`)
	for n := 1; n <= 38; n++ {
		x, y := at(n)
		c.s(`<circle cx="`).n(x).s(`" cy="`).n(y).s(`" r="4"/>`)
	}
	c.endGroup()
	// Every point the last move touched: "9-16", "14x16x30".
	for _, p := range strings.FieldsFunc(last, func(r rune) bool { return r == '-' || r == 'x' }) {
		if n, err := strconv.Atoi(p); err == nil && n >= 1 && n <= 38 {
			x, y := at(n)
			c.s(`<circle class="last" cx="`).n(x).s(`" cy="`).n(y).s(`" r="22" fill="` + markColor + `" opacity="0.8"/>`)
		}
	}
	for n := 1; n <= 38; n++ {
		p := points[n-1]
		if p == '.' {
			continue
		}
		if strings.IndexByte("wWbB", p) < 0 {
			return 0, 0, fmt.Errorf("point %d holds %q; want w, W, b, B or '.'", n, p)
		}
		white := p == 'w' || p == 'W'
		fill, ink := sideColors(white)
		side, kind := "Black", "hul"
		if white {
			side = "White"
		}
		if p == 'W' || p == 'B' {
			kind = "tobit"
		}
		x, y := at(n)
		c.s(`<g class="piece" data-piece="`).s(points[n-1 : n]).s(`"><title>` + side + " " + kind + " on ").n(n)
		c.s(`</title><circle cx="`).n(x).s(`" cy="`).n(y).s(`" r="17" fill="` + fill + `" stroke="` + inkDark + `" stroke-width="2"/>`)
		if kind == "tobit" {
			c.f(`<path transform="translate(%d %d)" d="M-9 5 L-9 -4 L-4.5 0.5 L0 -7 L4.5 0.5 L9 -4 L9 5 Z" fill="%s"/>`, x, y, ink)
		}
		c.s(`</g>`)
	}
	// The numbers last, over the pieces, so every point can be read.
	c.s(`<g font-size="12" fill="#5b2c0c" font-weight="bold" stroke="` + lightSq + `" stroke-width="3" paint-order="stroke">`)
	for n := 1; n <= 38; n++ {
		x, y := at(n)
		c.s(`<text x="`).n(x + 11).s(`" y="`).n(y - 11).s(`">`).n(n).s(`</text>`)
	}
	c.endGroup()
	return w, h, nil
}

// legends explain a game's drawing under the board, made once.
var legends = map[string]template.HTML{
	"ultima":   ultimaLegend(),
	"taratibu": letterLegend("SEBAFMDCTH", taratibuNames, "the Man is ringed; numbers are the squares as moves name them"),
	"tobit":    template.HTML(`<p class="legend">A plain disc is a hul, a crowned one a tobit; the numbers are the points as moves name them.</p>`),
}

// ultimaLegend shows each Ultima piece as drawn, with its name and how it
// captures.
func ultimaLegend() template.HTML {
	how := map[byte]string{
		'K': "steps one square, takes by landing", 'P': "takes by custody", 'W': "takes by moving away",
		'L': "takes by jumping", 'C': "takes on its king's lines", 'I': "freezes its neighbours",
		'X': "takes each piece in its own way",
	}
	var c canvas
	c.s(`<ul class="legend">`)
	for _, k := range []byte("KPWLCIX") {
		c.s(`<li><svg viewBox="-21 -21 42 42" width="26" height="26" aria-hidden="true">`)
		ultimaPiece(&c, k, true)
		c.s(`</svg> <b>` + string(k) + `</b> ` + ultimaNames[k] + `: ` + how[k] + `</li>`)
	}
	c.s(`</ul>`)
	return template.HTML(c.b)
}

// letterLegend names the letters of a game's pieces.
func letterLegend(letters string, names map[byte]string, note string) template.HTML {
	var c canvas
	c.s(`<p class="legend">`)
	for i := 0; i < len(letters); i++ {
		if i > 0 {
			c.s(" · ")
		}
		c.s(`<b>` + letters[i:i+1] + `</b> ` + names[letters[i]])
	}
	c.s(`; ` + html.EscapeString(note) + `.</p>`)
	return template.HTML(c.b)
}
