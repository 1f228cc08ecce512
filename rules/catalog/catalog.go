// Package catalog is the registry of games by name. Adding a game is one line
// in the list below.
package catalog

import (
	"strings"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/tanbo"
	"github.com/pbemd/pbemd/rules/taratibu"
	"github.com/pbemd/pbemd/rules/tobit"
	"github.com/pbemd/pbemd/rules/ultima"
)

// games lists every game the server offers, in the order help and list show them.
var games = []rules.Game{
	ultima.Game,
	tanbo.Game,
	taratibu.Game,
	tobit.Game,
}

// All returns every game in display order.
func All() []rules.Game { return append([]rules.Game(nil), games...) }

// Lookup finds a game by name or alias, case-insensitively.
func Lookup(name string) (rules.Game, bool) {
	name = strings.ToLower(name)
	for _, g := range games {
		if g.Name() == name {
			return g, true
		}
		for _, a := range g.Aliases() {
			if a == name {
				return g, true
			}
		}
	}
	return nil, false
}

// Names returns the names of all games, for error messages.
func Names() []string {
	names := make([]string, len(games))
	for i, g := range games {
		names[i] = g.Name()
	}
	return names
}
