package rulestest

import "github.com/pbemd/pbemd/rules"

// Renamed is game g under another name and title, with no aliases: a
// fifth game a test makes from an existing one, to show that the server
// offers whatever game the catalog lists.
func Renamed(g rules.Game, name, title string) rules.Game {
	return renamed{Game: g, name: name, title: title, draws: true}
}

// Undrawn is Renamed whose positions have only the methods of
// rules.Position (Plain): they do not draw themselves and are played by
// notation alone, as a game's may be.
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
	return Plain(pos), nil
}

// Plain is pos with only the methods of rules.Position, its clones too: a
// position of a game with none of the optional interfaces (rules.Drawer,
// rules.Mover).
func Plain(pos rules.Position) rules.Position { return plain{pos} }

type plain struct{ rules.Position }

func (p plain) Clone() rules.Position { return plain{p.Position.Clone()} }
