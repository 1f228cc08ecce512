package tobit

import (
	"strconv"
	"strings"

	"github.com/pbemd/pbemd/rules"
)

// cells is where each point 1 to 38 lies in the drawing: the grid of
// keyRows, Black's side on top.
var cells = func() (c [numPoints + 1]rules.Cell) {
	for row, points := range keyRows {
		for col, p := range points {
			if p != 0 {
				c[p] = rules.Cell{Col: col, Row: row}
			}
		}
	}
	return c
}()

// Draw is the 38 points on their lines, numbered, huls as plain discs and
// tobits crowned; the last move marks every point of its path ("9-16",
// "14x16x30").
func (p *position) Draw(last string) rules.Drawing {
	d := rules.Drawing{Cols: 7, Rows: 6, Points: true,
		Note: "A plain disc is a hul, a crowned one a tobit; the numbers are the points as moves name them."}
	for pt := 1; pt <= numPoints; pt++ {
		d.Dots = append(d.Dots, cells[pt])
		d.Numbers = append(d.Numbers, rules.Label{At: cells[pt], Text: strconv.Itoa(pt)})
		for _, dir := range []int{north, east} {
			if q := next[pt][dir]; q != 0 {
				d.Lines = append(d.Lines, [2]rules.Cell{cells[pt], cells[q]})
			}
		}
		if pc := p.b.sq[pt]; pc != empty {
			side := owner(pc)
			dp := rules.Piece{At: cells[pt], Seat: side, Dark: side == black, Letter: letter(pc),
				Name: "hul", Square: strconv.Itoa(pt)}
			if pc&tobitBit != 0 {
				dp.Name, dp.Glyph = "tobit", rules.GlyphCrown
			}
			d.Pieces = append(d.Pieces, dp)
		}
	}
	for _, s := range strings.FieldsFunc(last, isSeparator) {
		if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= numPoints {
			d.Last = append(d.Last, cells[n])
		}
	}
	return d
}
