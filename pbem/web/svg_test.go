package web

import (
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
)

// drawn is a position that draws itself as d, whatever d says.
type drawn struct {
	rules.Position
	d rules.Drawing
}

func (p drawn) Draw(string) rules.Drawing { return p.d }

// A drawing's texts are the game's, yet the SVG escapes every one, and a
// drawing larger than a page may show is no drawing: the page shows the
// text board.
func TestDrawingHostile(t *testing.T) {
	t.Parallel()
	g, _ := catalog.Lookup("tanbo")
	opts, _ := rules.ParseOptions(g, []string{"-size=9"})
	start, _ := g.Start(opts)
	evil := `"><script>alert(1)</script>`
	d := rules.Drawing{Cols: 3, Rows: 3, Files: []string{evil}, Ranks: []string{evil},
		Numbers: []rules.Label{{Text: evil}}, Note: evil,
		Pieces: []rules.Piece{{Letter: '"', Name: evil, Square: evil, Text: evil, Seat: 7}},
		Legend: []rules.Legend{{Piece: rules.Piece{Letter: '<', Name: evil}, Text: evil}}}
	for _, points := range []bool{false, true} {
		d.Points = points
		got, ok := drawing(drawn{start, d}, "")
		if !ok {
			t.Fatal("a 3 by 3 drawing was refused")
		}
		out := boardSVG(g, got, evil, evil) + string(legend(got))
		if strings.Contains(out, "<script") || strings.Contains(out, `data-piece="""`) {
			t.Errorf("a drawing's text went into the SVG unescaped:\n%s", out)
		}
	}
	for _, size := range [][2]int{{0, 9}, {9, 0}, {-1, 9}, {maxCells + 1, 9}, {9, 1 << 30}} {
		if _, ok := drawing(drawn{start, rules.Drawing{Cols: size[0], Rows: size[1]}}, ""); ok {
			t.Errorf("a drawing of %d by %d cells would be drawn", size[0], size[1])
		}
	}
}
