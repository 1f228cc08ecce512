package tanbo

import (
	"sync"

	"github.com/pbemd/pbemd/rules"
)

// helpText is the help with the start and a removal, drawn by these rules.
var helpText = sync.OnceValue(func() string {
	return help + "\n" + rules.MustHelpExamples(game{}, []string{"-size=9"}, []rules.HelpExample{
		{Title: "A removal: Black's b1 leaves White's root on a1 without a liberty, so it goes",
			Options:  []string{"-size=9"},
			Position: "........./.......b./........./........./........./........./........./bb.....w./w........ b",
			Moves:    []string{"b1"}, After: true},
	})
})
