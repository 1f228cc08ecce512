package tanbo

import "github.com/pbemd/pbemd/rules"

// Draw is the Go board: stones on the points where the lines cross, the
// stone just placed ("d5") marked.
func (pos *position) Draw(last string) rules.Drawing {
	b := &pos.b
	n := b.size
	d := rules.Drawing{Cols: n, Rows: n, Points: true}
	for i := 0; i < n; i++ {
		d.Files = append(d.Files, string(rune('a'+i)))
		d.Ranks = append(d.Ranks, pointName(point(0, n-1-i))[1:])
		d.Lines = append(d.Lines, [2]rules.Cell{{Col: 0, Row: i}, {Col: n - 1, Row: i}},
			[2]rules.Cell{{Col: i, Row: 0}, {Col: i, Row: n - 1}})
	}
	for r := n - 1; r >= 0; r-- {
		for f := 0; f < n; f++ {
			p := point(f, r)
			c := b.cell[p]
			if c == 0 {
				continue
			}
			seat := int(c) - 1
			d.Pieces = append(d.Pieces, rules.Piece{At: rules.Cell{Col: f, Row: n - 1 - r}, Seat: seat, Dark: seat == 0,
				Letter: ".bw"[c], Square: pointName(p)})
		}
	}
	if p, err := b.parsePoint(last); last != "" && err == nil {
		f, r := fileRank(p)
		d.Last = []rules.Cell{{Col: f, Row: n - 1 - r}}
	}
	return d
}
