package pbem

import (
	"errors"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// commandWords splits a Subject line into command words. A leading "Re:" or
// "Fwd:" (as mail clients add them when replying) and a trailing "**" (the
// mark of mails that carry a comment) are not part of the command.
func commandWords(subject string) []string {
	s := strings.TrimSpace(subject)
	for {
		lower := strings.ToLower(s)
		cut := false
		for _, p := range []string{"re:", "fwd:", "fw:"} {
			if strings.HasPrefix(lower, p) {
				s = strings.TrimSpace(s[len(p):])
				cut = true
			}
		}
		if !cut {
			break
		}
	}
	words := strings.Fields(s)
	for len(words) > 0 && words[len(words)-1] == "**" {
		words = words[:len(words)-1]
	}
	return words
}

// cmd is one command being run.
type cmd struct {
	r       *request
	words   []string   // every word, as written: passwords keep their case
	comment string     // the mail body's comment, or ""
	game    rules.Game // for game commands
}

// A handler runs a command with the words after its name.
type handler func(c *cmd, args []string) error

// globalCommands and gameCommands index the table (commands) by the words
// that name a command: its name and its aliases. A game command's prefixes
// are found by gameVerb.
var globalCommands, gameCommands map[string]*commandRow

// noPassword are the words naming a command that takes no password of an
// account (its name, aliases and shortest prefix): the user ids of its
// command are not followed by one, so they are not checked ahead.
var noPassword map[string]bool

// indexCommands fills the indexes of the table.
func indexCommands() {
	globalCommands, gameCommands, noPassword = map[string]*commandRow{}, map[string]*commandRow{}, map[string]bool{}
	for _, c := range commands {
		index := globalCommands
		if c.game {
			index = gameCommands
		}
		words := append([]string{c.name}, c.aliases...)
		if c.prefix > 0 {
			words = append(words, c.name[:c.prefix])
		}
		for _, w := range words {
			if _, ok := index[w]; ok {
				panic("the command table names " + w + " twice")
			}
			index[w] = c
			noPassword[w] = noPassword[w] || c.noPassword
		}
	}
}

// gameVerb is the game command a word names, by its name, an alias or a
// prefix; nil when none.
func gameVerb(word string) *commandRow {
	w := strings.ToLower(word)
	if c, ok := gameCommands[w]; ok {
		return c
	}
	for _, c := range commands {
		if c.game && c.prefix > 0 && len(w) >= c.prefix && strings.HasPrefix(c.name, w) {
			return c
		}
	}
	return nil
}

// name is how error subjects name the command: its game, or its first word.
func (c *cmd) name() string {
	if c.game != nil {
		return c.game.Name()
	}
	if len(c.words) == 0 {
		return "pbemd"
	}
	return strings.ToLower(c.words[0])
}

// commandVerb is the command that words name, for the limits and the log:
// a global command ("help", "signup") or a game's ("move", "show"); ""
// when they name none.
func commandVerb(words []string) string {
	if c := commandOf(words); c != nil {
		return c.name
	}
	return ""
}

// commandOf is the row of the command that words name, or nil.
func commandOf(words []string) *commandRow {
	if len(words) == 0 {
		return nil
	}
	first := strings.ToLower(words[0])
	if c, ok := globalCommands[first]; ok {
		return c
	}
	if _, ok := catalog.Lookup(first); !ok || len(words) < 2 {
		return nil
	}
	return gameVerb(words[1])
}

func (c *cmd) dispatch() error {
	if ok, err := c.boardMailReply(); ok {
		return err
	}
	first := strings.ToLower(c.words[0])
	if row, ok := globalCommands[first]; ok && row.run != nil {
		return row.run(c, c.words[1:])
	}
	g, ok := catalog.Lookup(first)
	if !ok {
		return c.r.unknownCommand(c.words)
	}
	c.game = g
	if len(c.words) < 2 {
		return c.fail("%q needs a command after it: one of %s", c.words[0], verbList())
	}
	row := gameVerb(c.words[1])
	if row == nil {
		c.r.guessSecrets(c.words) // the error quotes them
		return c.fail("%q is not a command of %s; the commands are %s", c.words[1], g.Title(), verbList())
	}
	return row.run(c, c.words[2:])
}

// verbList names the game commands for error messages.
func verbList() string { return commandNames(true) }

// commandNames lists the names of the game's commands, or the global
// ones, sorted, for error messages.
func commandNames(game bool) string {
	var names []string
	for _, c := range commands {
		if c.game == game && c.run != nil {
			names = append(names, c.name)
		}
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// fail is a failure about this command's game.
func (c *cmd) fail(format string, args ...any) error {
	f := fail(format, args...)
	f.game = c.game
	return f
}

// failOn is a failure about a board: the error reply shows it.
func (c *cmd) failOn(b *board, format string, args ...any) error {
	f := fail(format, args...)
	f.game = c.game
	f.board = b
	return f
}

// forms are the forms of the command's row in the table, with the game's
// name for GAME.
func (c *cmd) forms() []form {
	return rowForms(commandOf(c.words), c.game)
}

// rowForms are the forms of a row of the table (none for nil), with the
// game's name for GAME when a game is given.
func rowForms(row *commandRow, g rules.Game) []form {
	if row == nil {
		return nil
	}
	forms := slices.Clone(row.forms)
	for i, f := range forms {
		if g != nil {
			forms[i].words = strings.Replace(f.words, "GAME", g.Name(), 1)
		}
	}
	return forms
}

// formWords are the words of forms.
func formWords(forms []form) []string {
	var words []string
	for _, f := range forms {
		words = append(words, f.words)
	}
	return words
}

// usage is the failure of a command with the wrong words: the refusal
// ends in the forms of the command's row in the table (usageForms), as
// every refusal does, or in the forms named by a handler that knows
// better which one was meant (accounts.go still does).
func (c *cmd) usage(named ...string) error {
	forms := named
	if len(forms) == 0 {
		forms = usageForms(c.forms())
	}
	// The error quotes the command: a word in a form's password place is
	// masked, as every password is, and so is one that stands after a
	// user id where the words are not where the form has them.
	for _, form := range forms {
		for i, w := range strings.Fields(form) {
			if passwordSlot[w] && i < len(c.words) {
				c.r.secret(c.words[i])
			}
		}
	}
	c.r.guessSecrets(c.words)
	f := fail("The command has the wrong number of words")
	f.game, f.forms, f.wrongWords = c.game, forms, true
	return f
}

// usageForms are the words of forms as a refusal names them: one form for
// each number of words (the variants of move are one).
func usageForms(forms []form) []string {
	var out []string
	counts := map[int]bool{}
	for _, f := range forms {
		if n := len(strings.Fields(f.words)); !counts[n] {
			counts[n] = true
			out = append(out, f.words)
		}
	}
	return out
}

// boardNumber reads a board number, refusing anything else.
func (c *cmd) boardNumber(word string) (int, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(word, "#"))
	if err != nil || n <= 0 {
		return 0, c.fail("%q is not a board number; boards are numbered from 101", word)
	}
	return n, nil
}

// boardOf loads the board a word numbers, refusing what is no board.
func (c *cmd) boardOf(word string) (*board, error) {
	num, err := c.boardNumber(word)
	if err != nil {
		return nil, err
	}
	return c.r.loadBoard(c.game.Name(), num)
}

// boardUser reads the "board userid password" words most board commands
// start with: it loads the board and checks the password. A wrong password's
// error reply shows the board.
func (c *cmd) boardUser(boardWord, id, password string) (*board, *store.User, error) {
	c.r.secret(password) // an error about the board quotes it
	b, err := c.boardOf(boardWord)
	if err != nil {
		return nil, nil, err
	}
	u, err := c.r.auth(id, password)
	if err != nil {
		var f *failure
		if errors.As(err, &f) {
			f.game, f.board = c.game, b
		}
		return nil, nil, err
	}
	return b, u, nil
}

// player loads a board and checks that id, with password, holds a seat on it.
func (c *cmd) player(boardWord, id, password string) (*board, *store.User, error) {
	b, u, err := c.boardUser(boardWord, id, password)
	if err != nil {
		return nil, nil, err
	}
	if b.seatOf(u.ID) < 0 {
		return nil, nil, c.failOn(b, "%s is not a player of %s board %d; its players are %s",
			u.ID, b.game.Title(), b.rec.Board, strings.Join(b.rec.Seats, " and "))
	}
	return b, u, nil
}

// commentBy is the mail's comment as written by user id after moves moves,
// or nil when the mail has none.
//
// A comment goes to every player and subscriber of the board, so it is
// bounded as a message is (Limits.MessageBytes), cut with a note.
func (c *cmd) commentBy(id string, moves int) *store.Comment {
	if strings.TrimSpace(c.comment) == "" {
		return nil
	}
	text := c.comment
	if most := c.r.s.limits.MessageBytes; len(text) > most {
		text = shorten(text, most) + "\n[the rest of the comment was cut: at most " + strconv.Itoa(most) + " bytes]\n"
	}
	return &store.Comment{User: id, Text: text, At: c.r.now, Move: moves}
}

// senderID is the user id of the sender's address, or def.
func (c *cmd) senderID(def string) string {
	if u, err := c.r.tx.UserByAddress(c.r.sender()); err == nil {
		return u.ID
	}
	return def
}
