package tobit

import (
	"strings"
	"sync"

	"github.com/pbemd/pbemd/rules"
)

// helpText is the help with the start, its numbered chart and a continued
// capture, drawn by these rules.
var helpText = sync.OnceValue(func() string {
	// White's hul on 14 jumps 15 sideways to 16, then 23 forward to 30.
	points := []byte(strings.Repeat(".", 38))
	for p, c := range map[int]byte{1: 'w', 14: 'w', 15: 'b', 23: 'b', 38: 'b'} {
		points[p-1] = c
	}
	return help + "\n" + rules.MustHelpExamples(game{}, nil, []rules.HelpExample{
		{Title: "A continued capture: the hul on 14 takes 15, then 23, in one move (14x16x30)",
			Position: string(points) + " w", Moves: []string{"14x16x30"}, After: true},
	})
})
