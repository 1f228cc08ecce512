package taratibu

import (
	"strconv"

	"github.com/pbemd/pbemd/rules"
)

// Draw is the 7 by 7 board with every square's number (file*10 + rank),
// the pieces by their letters and the Man ringed; the last single move
// ("7264") marks the squares it left and reached.
func (p *position) Draw(last string) rules.Drawing {
	d := rules.Drawing{Cols: 7, Rows: 7, Note: "The Man is ringed; numbers are the squares as moves name them."}
	for i := 1; i <= 7; i++ {
		d.Files = append(d.Files, strconv.Itoa(i*10))
		d.Ranks = append(d.Ranks, strconv.Itoa(8-i))
	}
	for sq := 0; sq < 49; sq++ {
		at := rules.Cell{Col: sq / 7, Row: 6 - sq%7}
		d.Numbers = append(d.Numbers, rules.Label{At: at, Text: strconv.Itoa(squareName(sq))})
		if side, kind, ok := p.s.pieceAt(sq); ok {
			pc := drawnPiece(side, kind)
			pc.At, pc.Square = at, strconv.Itoa(squareName(sq))
			d.Pieces = append(d.Pieces, pc)
		}
	}
	if len(last) == 4 {
		for _, s := range []string{last[:2], last[2:]} {
			if n, err := strconv.Atoi(s); err == nil && squareIndex(n) >= 0 {
				sq := squareIndex(n)
				d.Last = append(d.Last, rules.Cell{Col: sq / 7, Row: 6 - sq%7})
			}
		}
	}
	for k := range letters {
		d.Legend = append(d.Legend, rules.Legend{Piece: drawnPiece(white, k)})
	}
	return d
}

// drawnPiece is a piece of kind k of side, on no square yet.
func drawnPiece(side, k int) rules.Piece {
	pc := rules.Piece{Seat: side, Dark: side == black, Letter: letters[k], Name: kindNames[k], Text: letters[k : k+1]}
	if side == black {
		pc.Letter += 'a' - 'A'
	}
	if k == man {
		pc.Glyph = rules.GlyphRing
	}
	return pc
}
