package web

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/pbemd/pbemd/rules"
)

// Boards are drawn from what a position says of itself as plain data
// (rules.Drawing): one drawer for every game, which knows no game. A
// position that does not draw itself is shown as its text diagram. Every
// piece or stone is one element of class "piece" with a data-piece
// attribute holding its letter in the position format, which is what
// tests and scripts count; every cell the last move touched is one
// element of class "last".

// Colours shared by the drawings.
const (
	inkDark        = "#1f1f1f"
	inkLight       = "#fbfaf5"
	lightSq        = "#efe3c8"
	darkSq         = "#b98f62"
	labelColor     = "#5a4a3a"
	woodColor      = "#dcb46a"
	lineColor      = "#3b2f20"
	markColor      = "#f2c94c" // the squares of the last move
	pointMarkColor = "#d9412b" // the points of the last move
)

// maxCells bounds the grid a drawing may ask for: a larger one is shown
// as text, so that no game can make a page of unbounded size.
const maxCells = 32

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

// drawing is the drawing of pos after the move last, and whether it has
// one a page can show.
func drawing(pos rules.Position, last string) (rules.Drawing, bool) {
	dr, ok := pos.(rules.Drawer)
	if !ok {
		return rules.Drawing{}, false
	}
	d := dr.Draw(last)
	return d, d.Cols >= 1 && d.Rows >= 1 && d.Cols <= maxCells && d.Rows <= maxCells
}

// boardSVG draws d, a position of game, as a whole SVG document, an image
// named by title and described by desc (boardAt.describe).
func boardSVG(game rules.Game, d rules.Drawing, title, desc string) string {
	c := canvas{b: make([]byte, 0, 24<<10)}
	g := newGeometry(d)
	w, h := g.size(d)
	if d.Points {
		g.points(&c, d, w, h)
	} else {
		g.squares(&c, d)
	}
	g.around(&c, d)
	if !d.Points {
		g.numbers(&c, d)
	}
	for _, p := range d.Pieces {
		x, y := g.at(p.At)
		g.piece(&c, game, p, x, y)
	}
	if d.Points {
		g.pointMarks(&c, d)
		g.numbers(&c, d) // over the pieces, so that every point can be read
	}
	var out strings.Builder
	out.Grow(len(c.b) + 1024)
	fmt.Fprintf(&out, `<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-labelledby="board-title" aria-describedby="board-desc" font-family="DejaVu Sans, Verdana, Arial, sans-serif">`, w, h, w, h)
	fmt.Fprintf(&out, `<title id="board-title">%s</title><desc id="board-desc">%s</desc>`, html.EscapeString(title), html.EscapeString(desc))
	out.Write(c.b)
	out.WriteString("</svg>")
	return out.String()
}

// geometry places a drawing's cells: squares of size step, or points step
// apart, inside a margin that holds the labels.
type geometry struct {
	step, margin int
	radius       float64 // of a piece
	onPoints     bool
}

// The board is drawn some 400 pixels wide, a cell no smaller than minStep
// nor larger than maxStep.
const (
	boardPixels      = 400
	minStep, maxStep = 26, 64
)

func newGeometry(d rules.Drawing) geometry {
	cells := max(d.Cols, d.Rows)
	if d.Points {
		cells-- // the gaps between points
	}
	g := geometry{step: min(maxStep, max(minStep, boardPixels/max(cells, 1))), margin: 30, onPoints: d.Points}
	g.radius = 0.4 * float64(g.step)
	if d.Points {
		g.margin = 42
		g.radius = 0.44 * float64(g.step)
		if len(d.Numbers) > 0 {
			g.radius = 0.28 * float64(g.step) // room for the numbers beside the points
		}
	}
	return g
}

// size is the width and height of the whole drawing.
func (g geometry) size(d rules.Drawing) (w, h int) {
	if d.Points {
		return (d.Cols-1)*g.step + 2*g.margin, (d.Rows-1)*g.step + 2*g.margin
	}
	return d.Cols*g.step + 2*g.margin, d.Rows*g.step + 2*g.margin
}

// at is the centre of cell c.
func (g geometry) at(c rules.Cell) (x, y int) {
	if g.onPoints {
		return g.margin + c.Col*g.step, g.margin + c.Row*g.step
	}
	return g.margin + c.Col*g.step + g.step/2, g.margin + c.Row*g.step + g.step/2
}

// squares draws a checkered board in a frame, the last move's squares
// marked.
func (g geometry) squares(c *canvas, d rules.Drawing) {
	sq, m := g.step, g.margin
	c.f(`<rect x="%d" y="%d" width="%d" height="%d" fill="%s" rx="4"/>`, m-4, m-4, d.Cols*sq+8, d.Rows*sq+8, labelColor)
	c.f(`<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`, m, m, d.Cols*sq, d.Rows*sq, lightSq)
	for r := 0; r < d.Rows; r++ {
		for f := (r + 1) % 2; f < d.Cols; f += 2 {
			c.s(`<rect x="`).n(m + f*sq).s(`" y="`).n(m + r*sq).s(`" width="`).n(sq).s(`" height="`).n(sq).s(`" fill="` + darkSq + `"/>`)
		}
	}
	for _, l := range d.Last {
		c.s(`<rect class="last" x="`).n(m + l.Col*sq).s(`" y="`).n(m + l.Row*sq).s(`" width="`).n(sq).s(`" height="`).n(sq).s(`" fill="` + markColor + `" opacity="0.7"/>`)
	}
}

// points draws a board of points: its lines and its dots.
func (g geometry) points(c *canvas, d rules.Drawing, w, h int) {
	c.f(`<rect width="%d" height="%d" fill="%s" rx="6"/>`, w, h, woodColor)
	c.s(`<g stroke="` + lineColor + `" stroke-width="1.5" stroke-linecap="round">`)
	for _, l := range d.Lines {
		x1, y1 := g.at(l[0])
		x2, y2 := g.at(l[1])
		c.s(`<path d="M`).n(x1).s(" ").n(y1).s(" L").n(x2).s(" ").n(y2).s(`"/>`)
	}
	c.endGroup()
	c.s(`<g fill="` + lineColor + `">`)
	for _, p := range d.Dots {
		x, y := g.at(p)
		c.s(`<circle cx="`).n(x).s(`" cy="`).n(y).s(`" r="4"/>`)
	}
	c.endGroup()
}

// pointMarks marks the points the last move touched with a dot over
// whatever stands there: a ring under a stone that fills its point would
// not show.
func (g geometry) pointMarks(c *canvas, d rules.Drawing) {
	for _, l := range d.Last {
		x, y := g.at(l)
		c.s(`<circle class="last" cx="`).n(x).s(`" cy="`).n(y).s(`" r="4.5" fill="` + pointMarkColor + `"/>`)
	}
}

// around writes the files above and below the board, the ranks left and
// right of it.
func (g geometry) around(c *canvas, d rules.Drawing) {
	if len(d.Files) == 0 && len(d.Ranks) == 0 {
		return
	}
	// The board's edges: its outer lines, or the sides of its squares.
	left, top := g.margin, g.margin
	right, bottom, gap := g.margin+d.Cols*g.step, g.margin+d.Rows*g.step, 16
	if g.onPoints {
		right, bottom, gap = g.margin+(d.Cols-1)*g.step, g.margin+(d.Rows-1)*g.step, 28
	}
	c.labels(13, labelColor, "normal")
	for i, name := range d.Files {
		x, _ := g.at(rules.Cell{Col: i})
		c.label(x, top-gap, name)
		c.label(x, bottom+gap, name)
	}
	for i, name := range d.Ranks {
		_, y := g.at(rules.Cell{Row: i})
		c.label(left-gap, y, name)
		c.label(right+gap, y, name)
	}
	c.endGroup()
}

// numbers writes the names of single cells: in a square's corner, or
// beside a point.
func (g geometry) numbers(c *canvas, d rules.Drawing) {
	if len(d.Numbers) == 0 {
		return
	}
	if g.onPoints {
		c.s(`<g font-size="12" fill="#5b2c0c" font-weight="bold" stroke="` + lightSq + `" stroke-width="3" paint-order="stroke">`)
	} else {
		c.s(`<g font-size="11" fill="` + labelColor + `" opacity="0.85">`)
	}
	// Beside a point the name stands up and to the right, its nearest
	// corner clear of a piece's disc and outline (the radius and some 2
	// pixels), the baseline a few pixels lower than the box's bottom
	// for the font's descent.
	clear := int(math.Ceil((g.radius+3)/math.Sqrt2)) + 1
	for _, l := range d.Numbers {
		x, y := g.at(l.At)
		if g.onPoints {
			x, y = x+clear, y-clear-3
		} else {
			x, y = x-g.step/2+3, y-g.step/2+11
		}
		c.s(`<text x="`).n(x).s(`" y="`).n(y).s(`">`).esc(l.Text).s(`</text>`)
	}
	c.endGroup()
}

// piece draws p centred on x, y, titled with its side, name and square.
func (g geometry) piece(c *canvas, game rules.Game, p rules.Piece, x, y int) {
	side := "?"
	if p.Seat == 0 || p.Seat == 1 {
		side = game.Sides()[p.Seat]
	}
	c.s(`<g class="piece" data-piece="`).esc(string(rune(p.Letter))).s(`" transform="translate(`).n(x).s(" ").n(y)
	c.s(`) scale(`).s(strconv.FormatFloat(g.radius/pieceRadius, 'f', 3, 64)).s(`)"><title>`).esc(side)
	for _, w := range []string{p.Name, p.Square} {
		if w != "" {
			c.s(" ").esc(w)
		}
	}
	c.s(`</title>`)
	pieceShape(c, p)
	c.s(`</g>`)
}

// pieceRadius is the radius of a piece as pieceShape draws it, before it
// is scaled to the board.
const pieceRadius = 19

// pieceShape draws p centred on the origin: a disc in its side's colour,
// its glyph and its letter in the contrasting ink.
func pieceShape(c *canvas, p rules.Piece) {
	fill, ink := inkLight, inkDark
	if p.Dark {
		fill, ink = inkDark, inkLight
	}
	r := pieceRadius
	if p.Small {
		r = 13
	}
	c.s(`<circle r="`).n(r).s(`" fill="` + fill + `" stroke="` + inkDark + `" stroke-width="2"/>`)
	line := `fill="none" stroke="` + ink + `" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"`
	switch p.Glyph {
	case rules.GlyphCrown:
		c.s(`<path d="M-11 7 L-11 -6 L-5.5 0 L0 -10 L5.5 0 L11 -6 L11 7 Z" fill="` + ink + `"/>`)
	case rules.GlyphDot:
		c.s(`<circle r="4" fill="` + ink + `"/>`)
	case rules.GlyphArrows:
		c.s(`<path d="M0 -11 L0 11 M-6 -5 L0 -11 L6 -5 M-6 5 L0 11 L6 5" ` + line + `/>`)
	case rules.GlyphChevrons:
		c.s(`<path d="M-9 -1 L0 -10 L9 -1 M-9 9 L0 0 L9 9" ` + line + `/>`)
	case rules.GlyphCrosshair:
		c.s(`<path d="M-12 0 L12 0 M0 -12 L0 12" ` + line + `/><circle r="5.5" ` + line + `/>`)
	case rules.GlyphBlock:
		c.s(`<rect x="-8" y="-8" width="16" height="16" rx="2" fill="` + ink + `"/>`)
	case rules.GlyphStar:
		c.s(`<path d="M0 -12 L3 -4 L11 -4 L5 1.5 L7.5 10 L0 5 L-7.5 10 L-5 1.5 L-11 -4 L-3 -4 Z" fill="` + ink + `"/>`)
	case rules.GlyphRing:
		c.s(`<circle r="15.5" fill="none" stroke="` + ink + `" stroke-width="1.5"/>`)
	}
	if p.Text != "" {
		c.s(`<text y="1" font-size="19" font-weight="bold" fill="` + ink + `" text-anchor="middle" dominant-baseline="central">`).esc(p.Text).s(`</text>`)
	}
}

// legend explains a drawing's pieces under the board: each kind as drawn,
// its letter, name and what it does, then the drawing's note.
func legend(d rules.Drawing) template.HTML {
	var c canvas
	if len(d.Legend) > 0 {
		c.s(`<ul class="legend">`)
		for _, l := range d.Legend {
			c.s(`<li><svg viewBox="-21 -21 42 42" width="26" height="26" aria-hidden="true">`)
			pieceShape(&c, l.Piece)
			c.s(`</svg> <b>`).esc(string(rune(l.Piece.Letter))).s(`</b> `).esc(l.Piece.Name)
			if l.Text != "" {
				c.s(`: `).esc(l.Text)
			}
			c.s(`</li>`)
		}
		c.s(`</ul>`)
	}
	if d.Note != "" {
		c.s(`<p class="legend">`).esc(d.Note).s(`</p>`)
	}
	return template.HTML(c.b)
}
