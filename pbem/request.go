package pbem

import (
	"errors"
	"fmt"
	"strings"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/mailauth"
	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

// request is one incoming mail being handled inside its transaction.
type request struct {
	s    *Service
	tx   *store.Tx
	mail *mailmsg.Incoming
	now  time.Time
	// vouched says whether the From domain vouches for the sender
	// (docs/trust.md); a mail that is not authenticated may still be
	// proved, command by command, by a password or a reply token.
	vouched mailauth.Result

	parts   []*part           // replies as the commands make them
	out     []*store.Outgoing // replies composed from parts, queued when the transaction commits
	secrets map[string]int    // the password words the commands named, masked in all output
	line    string            // the line of a multiple mail being run
	after   []func()          // run once the transaction has committed
	played  int               // game moves played, for Config.OnMoves
	hashed  int               // new password hashes used, at most maxNewPasswords a mail
	replyAs string            // the player a reply's token stands for (byreply.go): his password is not asked
	robot   string            // the robot a robot command acts for (robots.go)
	outcome outcome           // for the mail's log line
	// silenced is set while a command runs whose sender is over his
	// limits and gets no answer (a reset, which gets through anyway);
	// resetPast once one has, since one a mail does.
	silenced, resetPast bool
	// proved is the user whose password a command of the mail checked
	// out, "" when none.
	proved string

	// uncommitted holds the positions of the boards the transaction
	// changed, for the next mail of its batch; nil outside a batch.
	uncommitted *model.PositionCache
	// digest is set while a reply to a digest plays (digest.go): its
	// player's board mails wait, one mail answers him.
	digest bool
	// tokenUser is the player whose live reply token the mail carries,
	// from an address of his (byreply.go); "" when none. Unlike replyAs
	// it lasts the whole mail: resume reads it once the commands ran.
	tokenUser string
	// lang is the language of the answers to the sender, once known
	// (languages.go); said, the formats of the notices made by say.
	lang string
	said map[string]templates.Text
}

// A failure is a command refused: the sender gets an error reply, and nothing
// of that command is stored. Msg is one sentence saying what was wrong and what
// would be right.
type failure struct {
	Msg    string
	game   rules.Game // the game the command was about, if known
	board  *board     // the board, if known: the error reply shows it
	silent bool       // ignored without a reply (a locked account's commands)
	// forms are the commands as they would work, the refusal's last
	// lines; refuse takes them from the command table when none are set.
	forms []string
	// wrongWords: the command had the wrong number of words (usage).
	wrongWords bool
	// text is Msg as fail made it, for the reply in the sender's
	// language; none for a failure made otherwise, which stays English.
	text templates.Text
}

func (f *failure) Error() string { return f.Msg }

// fail returns a failure with a formatted message.
// A text of the input (a stranger's 100 KB "move", say) is cut to
// maxQuoted bytes, each word of it to maxQuotedWord, and the sentence to
// maxFailure, so that an error reply costs what the server writes, not
// what the sender sent, and its lines fit.
func fail(format string, args ...any) *failure {
	t := shortText(templates.Text{Format: format, Args: args})
	return &failure{Msg: shorten(t.String(), maxFailure), text: t}
}

// shortText is t with its string arguments, and those of the Texts among
// them (a game's reason), cut as fail cuts them.
func shortText(t templates.Text) templates.Text {
	for i, a := range t.Args {
		switch a := a.(type) {
		case string:
			t.Args[i] = shorten(shortWords(a), maxQuoted)
		case templates.Text:
			t.Args[i] = shortText(a)
		}
	}
	return t
}

// shortWords cuts each word of s longer than maxQuotedWord, as shorten
// does; s is returned as it is when it has none.
func shortWords(s string) string {
	words := strings.Fields(s)
	long := false
	for i, w := range words {
		if len(w) > maxQuotedWord {
			words[i], long = shorten(w, maxQuotedWord), true
		}
	}
	if !long {
		return s
	}
	return strings.Join(words, " ")
}

const (
	maxQuoted = 200
	// A quoted word fits on a line of a reply with its quotes and " ...".
	maxQuotedWord = 60
	maxFailure    = 4000
)

// run runs the mail's command, or each line of a "multiple" mail, up to the
// limit of commands per mail, and composes the replies.
func (r *request) run() (err error) {
	defer func() { err = r.maskError(err) }()
	if err := r.runCommands(); err != nil {
		return err
	}
	if err := r.resume(); err != nil {
		return err
	}
	if err := r.quietRepeat(); err != nil {
		return err
	}
	return r.compose()
}

func (r *request) runCommands() error {
	if tok := r.s.unsubToken(r.mail); tok != "" {
		return r.unsubscribeByMail(tok)
	}
	if done, err := r.byReply(); done || err != nil {
		return err
	}
	words := commandWords(r.mail.Subject)
	if len(words) > 0 && strings.EqualFold(words[0], "multiple") {
		r.outcome.command = "multiple"
		lines := mailmsg.CommandLines(r.mail.Text)
		if len(lines) == 0 {
			return r.refuse("multiple", words, fail("A multiple mail needs one command per line in its body; the body held none"))
		}
		most := r.s.limits.Commands
		for i, line := range lines {
			if i == most {
				r.guessSecrets(commandWords(line)) // quoted, never run
				r.replyText(r.sender(), "pbemd: commands not run", fmt.Sprintf(
					"%d more commands were not run: at most %d per mail. The first not run was:\n\n    %s\n\nSend the rest in another mail.\n",
					len(lines)-most, most, shorten(line, model.LineWidth-8))) // indented 4, and " ..."
				break
			}
			r.line = line
			if err := r.command(commandWords(line), false); err != nil {
				return err
			}
		}
		return nil
	}
	return r.command(words, true)
}

// command runs one command. withComment says whether the mail body is the
// command's comment (not so for the lines of a multiple mail).
func (r *request) command(words []string, withComment bool) error {
	c := &cmd{r: r, words: words, comment: ""}
	if withComment {
		c.comment = mailmsg.Comment(r.mail.Text)
	}
	_, err := r.runCmd(c)
	return err
}

// runCmd runs a command within the sender's limits. It reports whether the
// command was carried out: not ignored, not refused.
func (r *request) runCmd(c *cmd) (played bool, err error) {
	if r.outcome.command == "" {
		r.outcome.command = commandVerb(c.words)
	}
	ok, err := r.allowCommand(c.words)
	if err != nil {
		return false, err
	}
	if !ok {
		if !isReset(c.words) || r.resetPast {
			r.outcome.note(resultIgnored, "the sender is over his limit of commands or wrong passwords")
			return false, nil
		}
		// A reset gets through whoever spent the limit of this From
		// (docs/trust.md), one a mail: its code goes only to the
		// account's own addresses, and the sender, maybe a forger's
		// victim, is not answered.
		r.resetPast, r.silenced = true, true
		defer func() { r.silenced = false }()
	}
	words := c.words
	if len(words) == 0 {
		return false, r.unknownCommand(words)
	}
	err = c.dispatch()
	if c.game != nil {
		r.outcome.game = c.game.Name()
	}
	if r.outcome.user == "" {
		r.outcome.user = c.senderID("") // a command that names no user
	}
	var f *failure
	if errors.As(err, &f) {
		if f.silent || r.silenced {
			r.outcome.note(resultIgnored, f.Msg)
			return false, nil
		}
		return false, r.refuse(c.name(), words, f)
	}
	if err == nil {
		r.outcome.note(resultPlayed, "")
	}
	return err == nil, err
}

// isReset reports whether command words are a reset.
func isReset(words []string) bool { return len(words) > 0 && strings.EqualFold(words[0], "reset") }

// authenticated reports whether the sender's From domain vouches for him:
// only then may a mail without a password or reply token act on others.
func (r *request) authenticated() bool { return r.vouched.Authenticated }

// sender is the address replies to the sender go to: the From address.
func (r *request) sender() string { return strings.ToLower(r.mail.From) }

// refuse answers a failed command with an error reply to the sender only.
func (r *request) refuse(name string, words []string, f *failure) error {
	r.outcome.note(resultRefused, f.Msg)
	lang := r.language()
	msg := refusal(lang, words, f)
	fill := func(diagram string) (string, error) {
		return renderIn(lang, "error", map[string]any{
			"Msg":      msg,
			"Board":    diagram,
			"Original": quoteOriginal(r.quoted()),
		})
	}
	if f.board != nil { // a mail of the board: in its thread, answerable by reply
		v, err := r.boardView(f.board, nil)
		if err != nil {
			return err
		}
		return r.answerBoard(f.board, v, fmt.Sprintf("%s Board %d Error", f.board.game.Title(), f.board.rec.Board), fill)
	}
	subject := name + " error"
	if f.game != nil {
		subject = f.game.Name() + " error"
	}
	body, err := fill("")
	if err != nil {
		return err
	}
	r.reply(r.sender(), subject, body, "auto-replied", "")
	return nil
}

// refusal is the text of a refusal, wrapped: its sentence, then the
// command that would work: the forms of the command's row in the table
// (or those the failure names), or for a reply to a board mail the move,
// or when the words name no command the one that lists them all. A
// refusal's last lines are so always a command the player can copy.
func refusal(lang string, words []string, f *failure) string {
	forms := f.forms
	if forms == nil {
		row := commandOf(words)
		if row == nil && f.board != nil {
			row = gameCommands["move"]
		}
		g := f.game
		if g == nil && f.board != nil {
			g = f.board.game
		}
		forms = usageForms(rowForms(row, g))
	}
	msg, tail := f.Msg, ""
	if lang != templates.English && f.text.Format != "" {
		msg = shorten(templates.Sprintf(lang, f.text.Format, f.text.Args...), maxFailure)
	}
	for _, form := range forms {
		tail += "\n  " + helpWords(form) // as the help lays it out
	}
	switch {
	case f.wrongWords:
		return model.Wrap([]string{templates.Sprintf(lang, "%s; write it as:", msg)}, model.LineWidth)[0] + tail
	case len(forms) == 0:
		tail = templates.Sprintf(lang, "The commands are listed by:") + "\n  help commands"
	default:
		tail = templates.Sprintf(lang, "Write the command as:") + tail
	}
	if !strings.HasSuffix(msg, "\n") { // one that ends in a command has no full stop
		msg += "."
	}
	return model.Wrap([]string{msg}, model.LineWidth)[0] + "\n\n" + tail
}

// quoted is the mail as an error reply quotes it: a multiple mail's error
// quotes the line that failed, not the whole body again for each line.
func (r *request) quoted() *mailmsg.Incoming {
	if r.line == "" {
		return r.mail
	}
	m := *r.mail
	m.Text = shorten(r.line, maxQuoted)
	return &m
}

// unknownCommand answers a subject that is no command. An address that
// belongs to no user gets a short how-to-sign-up once a day; users get an
// error naming the commands.
func (r *request) unknownCommand(words []string) error {
	if _, err := r.tx.UserByAddress(r.sender()); errNotFound(err) {
		// A note the strangers' budget would drop must not use up the
		// address's one note of the day.
		r.outcome.note(resultIgnored, "no command, from a stranger; the how-to note went out today already")
		if spent, err := r.strangersSpent(); spent || err != nil {
			return err
		}
		if ok, err := r.oncePer(howtoKey(r.sender()), 24*time.Hour); !ok || err != nil {
			return err
		}
		r.outcome = outcome{result: resultRefused, why: "no command, from a stranger: sent how to sign up", carried: r.outcome.carried}
		body, err := render("howto", r.s.helpData())
		if err != nil {
			return err
		}
		r.reply(r.sender(), "pbemd: how to play", body, "auto-replied", "")
		return nil
	} else if err != nil {
		return err
	}
	r.guessSecrets(words) // the error quotes them
	what := templates.Text{Format: "The subject is empty"}
	if len(words) > 0 {
		what = templates.Text{Format: "%q is not a command", Args: []any{words[0]}}
	}
	return r.refuse("pbemd", words, fail("%s; commands start with a game name (%s) or one of %s, multiple; send 'help' for the list",
		what, strings.Join(catalog.Names(), ", "), commandNames(false)))
}

// reply adds an answer to one address; compose makes the mails. ref, when
// set, is the References root of a board's thread.
func (r *request) reply(to, subject, body, auto, ref string) {
	r.parts = append(r.parts, &part{to: to, subject: subject, body: body, auto: auto, ref: ref})
}

// replyText queues a plain mail to one address, its long lines wrapped.
func (r *request) replyText(to, subject, body string) {
	r.reply(to, subject, model.WrapText(body), "auto-replied", "")
}

// quoteOriginal is the incoming mail as error replies quote it: its start,
// a few lines and bytes.
func quoteOriginal(m *mailmsg.Incoming) string {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\n", m.From)
	fmt.Fprintf(&b, "Subject: %s\n", m.Subject)
	if !m.Date.IsZero() {
		fmt.Fprintf(&b, "Date: %s\n", m.Date.Format(time.RFC1123Z))
	}
	if text := strings.TrimRight(m.Text, "\n"); text != "" {
		b.WriteString("\n" + text)
	}
	lines := strings.Split(mailmsg.Excerpt(b.String(), 20, 2000), "\n") // a stranger's 10 MB mail gives a short reply
	for i, l := range lines {
		if l == "" {
			lines[i] = ">"
		} else {
			lines[i] = "> " + l
		}
	}
	return strings.Join(lines, "\n")
}

const timeFormat = "2006-01-02 15:04 MST"

// tellUser mails a template to a user's addresses, to the sender when he
// wrote from elsewhere, and to the other addresses given.
func (r *request) tellUser(u *store.User, subject, template string, data any, also ...string) error {
	return r.tellIn(userLanguage(u), union(union(u.Addresses, also), []string{r.sender()}), subject, template, data)
}

// tellAddresses mails a template to each address.
func (r *request) tellAddresses(addrs []string, subject, template string, data any) error {
	return r.tellIn(templates.English, addrs, subject, template, data)
}

// tellIn mails a template in a language to each address.
func (r *request) tellIn(lang string, addrs []string, subject, template string, data any) error {
	body, err := renderIn(lang, template, data)
	if err != nil {
		return err
	}
	for _, a := range addrs {
		r.replyText(a, subject, body)
	}
	return nil
}
