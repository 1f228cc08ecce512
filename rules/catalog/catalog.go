// Package catalog is the registry of games by name. Adding a game is its
// package under rules/ and one line in the list of init below; everything
// else (mail, the web view, robots, pbemd rules) offers every game listed.
package catalog

import (
	"fmt"
	"strings"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/tanbo"
	"github.com/pbemd/pbemd/rules/taratibu"
	"github.com/pbemd/pbemd/rules/tobit"
	"github.com/pbemd/pbemd/rules/ultima"
)

// The games the server offers, in the order help and list show them.
func init() {
	Register(ultima.Game)
	Register(tanbo.Game)
	Register(taratibu.Game)
	Register(tobit.Game)
}

// games are the registered games in display order.
var games []rules.Game

// Register adds g to the catalog, after the games there. It is for init
// functions (this package's own, or a test's that makes a game of its
// own) and is not safe to call while the server runs. It panics when g's
// name or an alias is no lower-case word or is taken already: a catalog
// with two games of one name would hide one of them.
func Register(g rules.Game) {
	for _, name := range append([]string{g.Name()}, g.Aliases()...) {
		if name == "" || name != strings.ToLower(name) || strings.ContainsAny(name, " \t\r\n") {
			panic(fmt.Sprintf("catalog: game name %q; want a lower-case word", name))
		}
		if old, taken := Lookup(name); taken {
			panic(fmt.Sprintf("catalog: %q names %s already", name, old.Name()))
		}
	}
	games = append(games, g)
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
