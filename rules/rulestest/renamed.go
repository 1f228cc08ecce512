package rulestest

import "github.com/pbemd/pbemd/rules"

// Renamed is game g under another name and title, with no aliases: a
// fifth game a test makes from an existing one, to show that the server
// offers whatever game the catalog lists.
func Renamed(g rules.Game, name, title string) rules.Game {
	return renamed{Game: g, name: name, title: title, draws: true}
}

// Undrawn is Renamed whose positions do not draw themselves: they are no
// rules.Drawer, as a game's may not be.
func Undrawn(g rules.Game, name, title string) rules.Game {
	return renamed{Game: g, name: name, title: title}
}

type renamed struct {
	rules.Game
	name, title string
	draws       bool
}

func (r renamed) Name() string      { return r.name }
func (r renamed) Title() string     { return r.title }
func (r renamed) Aliases() []string { return nil }

func (r renamed) Start(opts rules.Options) (rules.Position, error) {
	return r.wrap(r.Game.Start(opts))
}

func (r renamed) ParsePosition(text string, opts rules.Options) (rules.Position, error) {
	return r.wrap(r.Game.ParsePosition(text, opts))
}

func (r renamed) wrap(pos rules.Position, err error) (rules.Position, error) {
	if err != nil || r.draws {
		return pos, err
	}
	return undrawn{pos}, nil
}

// undrawn is a position with only the methods of rules.Position.
type undrawn struct{ rules.Position }

func (u undrawn) Clone() rules.Position { return undrawn{u.Position.Clone()} }
