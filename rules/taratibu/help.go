package taratibu

import (
	"fmt"
	"strings"
	"sync"

	"github.com/pbemd/pbemd/rules"
)

// helpText is the help with the numbered chart of the squares, the start
// and a power at work, drawn by these rules.
var helpText = sync.OnceValue(func() string {
	var chart strings.Builder
	chart.WriteString("The squares, as moves number them (White at the bottom):\n\n")
	for rank := 7; rank >= 1; rank-- {
		chart.WriteString(" ")
		for file := 1; file <= 7; file++ {
			fmt.Fprintf(&chart, " %d%d", file, rank)
		}
		chart.WriteString("\n")
	}
	return help + "\n" + chart.String() + "\n" + rules.MustHelpExamples(game{}, nil, []rules.HelpExample{
		{Title: "Powers, from the start: in turn 1 White's Elk (basic, quadruped) makes a knight's leap from 21 to 42; in turn 2 Black's Duck (winged, aquatic) leaps over its Hero from 17 to 15, then its Sphinx (winged, quadruped) two squares diagonally from 77 to 55",
			Moves: []string{"2142", "1715", "7755"}, After: true},
	})
})
