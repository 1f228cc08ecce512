package rules

// A Drawer is a Position that can say what its board looks like, as plain
// data, so that a view (the web's SVG) draws any game without knowing it.
// A position that is no Drawer is shown as its text diagram, Board.
type Drawer interface {
	// Draw describes the board. last is the move that led to the
	// position in canonical notation ("" for none): its squares or
	// points are in Drawing.Last.
	Draw(last string) Drawing
}

// A Drawing is a board as plain data: a grid of Cols by Rows squares (or,
// when Points is set, points where lines cross), what stands where, and
// the labels that name squares as moves do. Row 0 is the top row as the
// board is drawn, column 0 the left.
type Drawing struct {
	Cols, Rows int
	// Points: the pieces stand on points joined by Lines (a Go board,
	// Tobit's lines); else on checkered squares.
	Points bool
	// Lines join points of a board of points.
	Lines [][2]Cell
	// Dots marks the points a piece may stand on, when not every point of
	// the grid is one.
	Dots []Cell
	// Files and Ranks label the columns left to right and the rows top to
	// bottom, on every side of the board; nil for none.
	Files, Ranks []string
	// Numbers label single squares or points with their names in the
	// game's notation, where Files and Ranks do not name them.
	Numbers []Label
	Pieces  []Piece
	// Last are the squares or points the last move left, reached or
	// jumped over.
	Last []Cell
	// Legend lists each kind of piece once, as drawn, with what it does;
	// Note is one more sentence under it. Both may be empty.
	Legend []Legend
	Note   string
}

// A Cell is a square or point of a drawing's grid.
type Cell struct{ Col, Row int }

// A Label is a text at a cell.
type Label struct {
	At   Cell
	Text string
}

// A Piece is what stands on one cell.
type Piece struct {
	At Cell
	// Seat owns the piece; Dark draws it in the dark colour (seat 1 of a
	// chess-like game, seat 0 of Tanbo).
	Seat int
	Dark bool
	// Letter is the piece in the game's position format; Name its kind
	// ("long leaper", "" for a plain stone); Square its cell as moves name
	// it ("a8", "72").
	Letter byte
	Name   string
	Square string
	// Glyph is the symbol on the piece: one of the Glyph constants, or ""
	// for none. Text is a letter shown on it. Small draws a smaller disc.
	Glyph string
	Text  string
	Small bool
}

// The glyphs a view draws on a piece.
const (
	GlyphCrown     = "crown"
	GlyphDot       = "dot"
	GlyphArrows    = "arrows"
	GlyphChevrons  = "chevrons"
	GlyphCrosshair = "crosshair"
	GlyphBlock     = "block"
	GlyphStar      = "star"
	GlyphRing      = "ring"
)

// A Legend is one line of a drawing's key: a piece as drawn and what it
// is or does.
type Legend struct {
	Piece Piece
	Text  string
}

// Material counts the pieces of each seat in d: what a robot that knows
// nothing else of a game weighs.
func (d Drawing) Material() [2]int {
	var n [2]int
	for _, p := range d.Pieces {
		if p.Seat == 0 || p.Seat == 1 {
			n[p.Seat]++
		}
	}
	return n
}
