package pbem

import (
	"strings"

	"github.com/pbemd/pbemd/rules/catalog"
)

// helpGame is one game as the help index shows it.
type helpGame struct {
	Name, Title string
	Aliases     []string
}

// helpData is what every help template may use.
func (s *Service) helpData() map[string]any {
	var games []helpGame
	for _, g := range catalog.All() {
		games = append(games, helpGame{Name: g.Name(), Title: g.Title(), Aliases: g.Aliases()})
	}
	return map[string]any{"Address": s.cfg.Address, "Games": games, "Limits": s.limits, "Window": shortDuration(s.limits.Window)}
}

// help [topic ...]: the index, "help commands", or "help <game>".
func (c *cmd) help(args []string) error {
	if len(args) == 0 {
		return c.helpMail("pbemd help", "help")
	}
	topic := strings.ToLower(args[0])
	if topic == "commands" {
		return c.helpMail("pbemd help commands", "help-commands")
	}
	if g, ok := catalog.Lookup(topic); ok {
		c.game = g
		return c.gameHelp(nil)
	}
	return fail("There is no help on %q; send 'help' for the index, 'help commands', or 'help GAME' with a game of %s",
		args[0], strings.Join(catalog.Names(), ", "))
}

func (c *cmd) helpMail(subject, template string) error {
	body, err := render(template, c.r.s.helpData())
	if err != nil {
		return err
	}
	c.r.replyText(c.r.sender(), subject, body)
	return nil
}

// <game> help: the game's rules, notation, options and an example.
func (c *cmd) gameHelp(args []string) error {
	data := c.r.s.helpData()
	data["Title"] = c.game.Title()
	data["Name"] = c.game.Name()
	data["Aliases"] = c.game.Aliases()
	data["Rules"] = strings.TrimRight(c.game.Help(), "\n")
	body, err := render("help-game", data)
	if err != nil {
		return err
	}
	c.r.replyText(c.r.sender(), c.game.Title()+" help", body)
	return nil
}
