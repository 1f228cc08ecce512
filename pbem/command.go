package pbem

import (
	"errors"
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

// globalCommands are the commands that name no game. They are filled in by
// init to break the cycle between the table and help, which lists it.
var globalCommands map[string]handler

// gameCommands are the commands after a game name, with their aliases.
var gameCommands map[string]handler

var verbAliases = map[string]string{
	"chall":  "challenge",
	"sub":    "subscribe",
	"unsub":  "unsubscribe",
	"board":  "move",
	"mvoe":   "move",
	"qmove":  "queue",
	"qboard": "queue",
	"moveq":  "queue",
	"boardq": "queue",
}

// verbPrefixes are the commands that may be shortened, as on pbmserv, to
// any prefix of at least so many letters: "prev", "chall", "sub", "unsub".
var verbPrefixes = []struct {
	verb string
	min  int
}{{"preview", 4}, {"challenge", 5}, {"subscribe", 3}, {"unsubscribe", 5}}

// globalAliases are other words for global commands.
var globalAliases = map[string]string{"delete": "signoff"}

// gameVerb is the command a word names: itself, an alias, or a prefix.
func gameVerb(word string) string {
	w := strings.ToLower(word)
	if v, ok := verbAliases[w]; ok {
		return v
	}
	for _, p := range verbPrefixes {
		if len(w) >= p.min && strings.HasPrefix(p.verb, w) {
			return p.verb
		}
	}
	return w
}

func init() {
	globalCommands = map[string]handler{
		"help":     (*cmd).help,
		"signup":   (*cmd).signup,
		"confirm":  (*cmd).confirm,
		"reset":    (*cmd).reset,
		"change":   (*cmd).change,
		"signoff":  (*cmd).signoff,
		"list":     (*cmd).list,
		"message":  (*cmd).message,
		"all":      (*cmd).all,
		"vacation": (*cmd).vacation,
	}
	gameCommands = map[string]handler{
		"help":        (*cmd).gameHelp,
		"challenge":   (*cmd).challenge,
		"move":        (*cmd).move,
		"resign":      (*cmd).resign,
		"show":        (*cmd).show,
		"games":       (*cmd).games,
		"subscribe":   (*cmd).subscribe,
		"unsubscribe": (*cmd).unsubscribe,
		"queue":       (*cmd).queue,
		"join":        (*cmd).join,
		"chat":        (*cmd).chat,
		"decline":     (*cmd).decline,
		"preview":     (*cmd).preview,
		"notify":      (*cmd).notify,
		"accept":      (*cmd).acceptChallenges,
		"reject":      (*cmd).rejectChallenges,
		"limit":       (*cmd).limit,
		"standings":   (*cmd).standings,
		"ratings":     (*cmd).standings,
		"history":     (*cmd).history,
	}
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
	if len(words) == 0 {
		return ""
	}
	first := strings.ToLower(words[0])
	if a, ok := globalAliases[first]; ok {
		first = a
	}
	if _, ok := globalCommands[first]; ok || first == "multiple" {
		return first
	}
	if _, ok := catalog.Lookup(first); !ok || len(words) < 2 {
		return ""
	}
	if v := gameVerb(words[1]); gameCommands[v] != nil {
		return v
	}
	return ""
}

func (c *cmd) dispatch() error {
	if ok, err := c.boardMailReply(); ok {
		return err
	}
	first := strings.ToLower(c.words[0])
	if a, ok := globalAliases[first]; ok {
		first = a
	}
	if h, ok := globalCommands[first]; ok {
		return h(c, c.words[1:])
	}
	g, ok := catalog.Lookup(first)
	if !ok {
		return c.r.unknownCommand(c.words)
	}
	c.game = g
	if len(c.words) < 2 {
		return c.fail("%q needs a command after it: one of %s", c.words[0], verbList())
	}
	h, ok := gameCommands[gameVerb(c.words[1])]
	if !ok {
		c.r.guessSecrets(c.words) // the error quotes them
		return c.fail("%q is not a command of %s; the commands are %s", c.words[1], g.Title(), verbList())
	}
	return h(c, c.words[2:])
}

// verbList names the game commands for error messages.
func verbList() string { return commandNames(gameCommands) }

// commandNames lists a table's command words, sorted, for error messages.
func commandNames(table map[string]handler) string {
	names := make([]string, 0, len(table))
	for n := range table {
		names = append(names, n)
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

// usage is the failure of a command with the wrong words: it names the form.
func (c *cmd) usage(form string) error {
	// The error quotes the command: a word in the form's password place
	// is masked, as every password is, and so is one that stands after a
	// user id where the words are not where the form has them.
	for i, w := range strings.Fields(form) {
		if passwordSlot[w] && i < len(c.words) {
			c.r.secret(c.words[i])
		}
	}
	c.r.guessSecrets(c.words)
	return c.fail("The command has the wrong number of words; write it as:\n  %s\n", form)
}

// passwordSlot are the words of command forms that stand for a password.
var passwordSlot = map[string]bool{"password": true, "old": true, "new": true, "newpassword": true, "code": true}

// boardNumber reads a board number, refusing anything else.
func (c *cmd) boardNumber(word string) (int, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(word, "#"))
	if err != nil || n <= 0 {
		return 0, c.fail("%q is not a board number; boards are numbered from 101", word)
	}
	return n, nil
}

// boardUser reads the "board userid password" words most board commands
// start with: it loads the board and checks the password. A wrong password's
// error reply shows the board.
func (c *cmd) boardUser(boardWord, id, password string) (*board, *store.User, error) {
	c.r.secret(password) // an error about the board quotes it
	num, err := c.boardNumber(boardWord)
	if err != nil {
		return nil, nil, err
	}
	b, err := c.r.loadBoard(c.game.Name(), num)
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
