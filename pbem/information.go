package pbem

import (
	"fmt"
	"strings"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
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
	return map[string]any{"Address": s.cfg.Address, "Games": games, "Limits": s.limits, "Window": shortDuration(s.limits.Window), "Pool": vacationDaysPerYear}
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
	if topic == "tutorial" {
		return c.helpMail("pbemd help tutorial", "tutorial")
	}
	if topic == "clocks" {
		return c.helpMail("pbemd help clocks", "clocks")
	}
	if g, ok := catalog.Lookup(topic); ok {
		c.game = g
		return c.gameHelp(nil)
	}
	if rows := commandRows(topic); len(rows) > 0 {
		return c.commandHelp(rows)
	}
	return fail("There is no help on %q; send \"help\" for the index, \"help commands\", \"help tutorial\", \"help clocks\", \"help GAME\" with a game of %s, or \"help COMMAND\" such as \"help move\"",
		args[0], strings.Join(catalog.Names(), ", "))
}

// commandRows are the rows of the command table that word names, by name,
// alias or shortest prefix: "move", "mvoe", "chall".
func commandRows(word string) []*commandRow {
	var rows []*commandRow
	if row, ok := globalCommands[word]; ok {
		rows = append(rows, row)
	}
	if row := gameVerb(word); row != nil {
		rows = append(rows, row)
	}
	return rows
}

// commandHelp answers "help COMMAND": the command's forms as "help
// commands" lists them.
func (c *cmd) commandHelp(rows []*commandRow) error {
	data := c.r.s.helpData()
	var b strings.Builder
	for _, row := range rows {
		for _, f := range row.forms {
			text, err := fill(f.words, f.text, data)
			if err != nil {
				return err
			}
			b.WriteString("  " + helpWords(f.words) + "\n")
			for _, l := range strings.Split(model.Wrap([]string{text}, model.LineWidth-len(helpIndent))[0], "\n") {
				b.WriteString(helpIndent + l + "\n")
			}
			b.WriteString(helpExamples(f.examples))
		}
	}
	b.WriteString("\nGAME is a game's name: " + strings.Join(catalog.Names(), ", ") + ".\nEvery command: send \"help commands\".\n")
	c.r.replyText(c.r.sender(), "pbemd help "+rows[0].name, b.String())
	return nil
}

// helpMail answers with a help template, which gets the commands of the
// table by section besides the help's data.
func (c *cmd) helpMail(subject, template string) error {
	data := c.r.s.helpData()
	commands, err := helpSections(data)
	if err != nil {
		return err
	}
	data["Commands"], data["ShortForms"] = commands, shortForms()
	body, err := renderIn(c.r.language(), template, data)
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

// listMost is how many boards in play "list" shows per game, so that the
// four games fit on a screen or two; "<game> games" lists them all, a
// page at a time.
const listMost = 20

// list [game ...]: the games offered, with their boards in play.
func (c *cmd) list(args []string) error {
	games := catalog.All()
	if len(args) > 0 {
		games = nil
		for _, a := range args {
			g, ok := catalog.Lookup(a)
			if !ok {
				return fail("%q is not a game of this server; the games are %s", a, strings.Join(catalog.Names(), ", "))
			}
			games = append(games, g)
		}
	}
	type section struct {
		Title, Name string
		Aliases     []string
		Rows        []string
		More        bool // boards in play beyond listMost
	}
	lang := c.r.language()
	var sections []section
	for _, g := range games {
		s := section{Title: g.Title(), Name: g.Name(), Aliases: g.Aliases()}
		running, more := c.r.tx.KindBoards(g.Name(), store.RunningBoards, store.Page{Size: listMost})
		s.More = more
		heads, err := c.r.heads(refsOf(g.Name(), running))
		if err != nil {
			return err
		}
		for _, h := range heads {
			s.Rows = append(s.Rows, gameRow(lang, h))
		}
		sections = append(sections, s)
	}
	body, err := renderIn(lang, "list", map[string]any{"Sections": sections})
	if err != nil {
		return err
	}
	c.r.replyText(c.r.sender(), "pbemd: games offered", body)
	return nil
}

// message userid password to-userid ...: the mail body goes to each user
// named; the sender gets a receipt.
func (c *cmd) message(args []string) error {
	if len(args) < 3 {
		return c.usage()
	}
	u, err := c.r.auth(args[0], args[1])
	if err != nil {
		return err
	}
	if strings.TrimSpace(c.comment) == "" {
		return fail("A message is the mail body, and this body is empty; write the message below the subject")
	}
	if err := c.r.checkMessage(args[2:], c.comment); err != nil {
		return err
	}
	var to []*store.User
	for _, id := range args[2:] {
		t, err := c.r.tx.User(id)
		if errNotFound(err) {
			return fail("There is no user %q to send a message to; user ids are what players signed up with", id)
		}
		if err != nil {
			return err
		}
		if !containsUser(to, t.ID) {
			to = append(to, t)
		}
	}
	var names []string
	for _, t := range to {
		body := fmt.Sprintf("%s writes:\n\n%s\n\nTo answer, send a mail with this subject, your password for PASSWORD:\n  message %s PASSWORD %s\n",
			u.ID, model.Reflow(strings.TrimRight(c.comment, "\n")), t.ID, u.ID)
		if err := c.r.mailUser(t.ID, "pbemd: message from "+u.ID+" **", body, ""); err != nil {
			return err
		}
		names = append(names, t.ID)
	}
	c.r.replyText(c.r.sender(), "pbemd: message sent", fmt.Sprintf("Your message went to %s.\n", strings.Join(names, ", ")))
	return nil
}

// all show userid [all|active|inactive|next] [page N]: a user's boards in
// every game, a page of boards at a time.
func (c *cmd) all(args []string) error {
	if len(args) < 2 || !strings.EqualFold(args[0], "show") {
		return c.usage()
	}
	rest, pg, err := splitPage(args[1:])
	if err != nil {
		return err
	}
	ids, filter := splitFilter(rest, "active")
	if len(ids) != 1 {
		return c.usage()
	}
	u, err := c.r.tx.User(ids[0])
	if errNotFound(err) {
		return fail("There is no user %q; user ids are what players signed up with", ids[0])
	}
	if err != nil {
		return err
	}
	refs, more := c.r.tx.UserBoards(u.ID, "", seatFilter(filter), false, page(pg, allBoards))
	var boards []*board
	for _, ref := range refs {
		if _, ok := catalog.Lookup(ref.Kind); !ok {
			continue // a game this server no longer offers
		}
		b, err := c.r.loadShownBoard(ref.Kind, ref.Board)
		if err != nil {
			return err
		}
		boards = append(boards, b)
	}
	if len(boards) == 0 && pg == 1 {
		return fail("%s in any game; try \"all show %s all\"", noBoards(u.ID, filter, ""), u.ID)
	}
	if len(boards) == 0 {
		return fail("%s has no %s boards on page %d; 'all show %s %s' shows the first page", u.ID, filter, pg, u.ID, filter)
	}
	for _, b := range boards {
		if err := c.sendBoard(b); err != nil {
			return err
		}
	}
	if more {
		c.r.replyText(c.r.sender(), fmt.Sprintf("pbemd: more boards of %s", u.ID),
			fmt.Sprintf("%s has more %s boards than the %d of this page.\n%s\n", u.ID, filter, allBoards,
				nextPage(command("all show", u.ID, filter), pg, true)))
	}
	return nil
}
