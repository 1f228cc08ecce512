package ultima

import "github.com/pbemd/pbemd/rules"

// glyphs are the symbols of the pieces by kind, each telling how the piece
// captures, so that they tell apart at a glance without letters.
var glyphs = [8]string{"", rules.GlyphCrown, rules.GlyphDot, rules.GlyphArrows, rules.GlyphChevrons,
	rules.GlyphCrosshair, rules.GlyphBlock, rules.GlyphStar}

// captures says how each kind captures, for the drawing's legend.
var captures = [8]string{"", "steps one square, takes by landing", "takes by custody", "takes by moving away",
	"takes by jumping", "takes on its king's lines", "freezes its neighbours", "takes each piece in its own way"}

// Draw is the chess board with the pieces by their symbols; the last move's
// squares are those it left and reached ("Pe2-e5"), or the square of a
// piece that left the board ("Lc5-off").
func (p *Position) Draw(last string) rules.Drawing {
	d := rules.Drawing{Cols: 8, Rows: 8}
	for i := 0; i < 8; i++ {
		d.Files = append(d.Files, string(rune('a'+i)))
		d.Ranks = append(d.Ranks, string(rune('8'-i)))
	}
	for sq := 0; sq < 64; sq++ {
		if pc := p.b.sq[sq]; pc != empty {
			d.Pieces = append(d.Pieces, drawnPiece(pc, sq))
		}
	}
	for i := 0; i+1 < len(last); i++ {
		if f, r := last[i], last[i+1]; f >= 'a' && f <= 'h' && r >= '1' && r <= '8' {
			d.Last = append(d.Last, rules.Cell{Col: int(f - 'a'), Row: int('8' - r)})
		}
	}
	for k := king; k <= chameleon; k++ {
		d.Legend = append(d.Legend, rules.Legend{Piece: drawnPiece(k, -1), Text: captures[k]})
	}
	return d
}

// drawnPiece is piece pc on square sq (-1 for none, in a legend).
func drawnPiece(pc piece, sq int) rules.Piece {
	k := pc.kind()
	dp := rules.Piece{Seat: pc.color(), Dark: pc.color() == 1, Letter: letter(pc), Name: kindNames[k],
		Glyph: glyphs[k], Small: k == pawn}
	if sq >= 0 {
		dp.At = rules.Cell{Col: sq % 8, Row: 7 - sq/8}
		dp.Square = squareName(sq)
	}
	return dp
}
