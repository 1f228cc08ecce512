package pbem

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// request is one incoming mail being handled inside its transaction.
type request struct {
	s    *Service
	tx   *store.Tx
	mail *Incoming
	now  time.Time

	out    []*store.Outgoing // replies, queued when the transaction commits
	after  []func()          // run once the transaction has committed
	played int               // game moves played, for Config.OnMoves
	robot  string            // the robot a robot command acts for (robots.go)
}

// A failure is a command refused: the sender gets an error reply, and nothing
// of that command is stored. Msg is one sentence saying what was wrong and what
// would be right.
type failure struct {
	Msg   string
	game  rules.Game // the game the command was about, if known
	board *board     // the board, if known: the error reply shows it
}

func (f *failure) Error() string { return f.Msg }

// fail returns a failure with a formatted message.
func fail(format string, args ...any) *failure {
	return &failure{Msg: fmt.Sprintf(format, args...)}
}

// run runs the mail's command, or each line of a "multiple" mail.
func (r *request) run() error {
	words := commandWords(r.mail.Subject)
	if len(words) > 0 && strings.EqualFold(words[0], "multiple") {
		lines := CommandLines(r.mail.Text)
		if len(lines) == 0 {
			return r.refuse("multiple", words, fail("A multiple mail needs one command per line in its body; the body held none"))
		}
		for _, line := range lines {
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
	if blocked, warning := r.s.limits.mail(r.sender(), r.now); blocked {
		if warning != "" {
			r.replyText(r.sender(), "pbemd: too many mails", warning)
		}
		return nil
	}
	if len(words) == 0 {
		return r.unknownCommand(words)
	}
	c := &cmd{r: r, words: words, comment: ""}
	if withComment {
		c.comment = Comment(r.mail.Text)
	}
	err := c.dispatch()
	var f *failure
	if errors.As(err, &f) {
		return r.refuse(c.name(), words, f)
	}
	return err
}

// sender is the address replies to the sender go to: the From address.
func (r *request) sender() string { return strings.ToLower(r.mail.From) }

// refuse answers a failed command with an error reply to the sender only.
func (r *request) refuse(name string, words []string, f *failure) error {
	subject := name + " error"
	var diagram, thread string
	switch {
	case f.board != nil:
		thread = f.board.rec.Thread // a mail of the board: in its thread
		subject = fmt.Sprintf("%s Board %d Error", f.board.game.Title(), f.board.rec.Board)
		v, err := r.boardView(f.board, nil)
		if err != nil {
			return err
		}
		diagram, err = renderBoardBody(v)
		if err != nil {
			return err
		}
	case f.game != nil:
		subject = f.game.Name() + " error"
	}
	body, err := render("error", map[string]any{
		"Msg":      f.Msg,
		"Board":    diagram,
		"Original": quoteOriginal(r.mail),
	})
	if err != nil {
		return err
	}
	r.reply(r.sender(), subject, body, "auto-replied", thread)
	return nil
}

// unknownCommand answers a subject that is no command. An address that
// belongs to no user gets a short how-to-sign-up once a day; users get an
// error naming the commands.
func (r *request) unknownCommand(words []string) error {
	if _, err := r.tx.UserByAddress(r.sender()); errNotFound(err) {
		key := "howto:" + r.sender()
		last, ok, err := r.tx.Note(key)
		if err != nil {
			return err
		}
		if ok {
			if t, err := time.Parse(time.RFC3339, last); err == nil && r.now.Sub(t) < 24*time.Hour {
				return nil
			}
		}
		if err := r.tx.SetNote(key, r.now.UTC().Format(time.RFC3339)); err != nil {
			return err
		}
		body, err := render("howto", r.s.helpData())
		if err != nil {
			return err
		}
		r.reply(r.sender(), "pbemd: how to play", body, "auto-replied", "")
		return nil
	} else if err != nil {
		return err
	}
	what := "The subject is empty"
	if len(words) > 0 {
		what = fmt.Sprintf("%q is not a command", words[0])
	}
	return r.refuse("pbemd", words, fail("%s; commands start with a game name (%s) or one of %s, multiple; send 'help' for the list",
		what, strings.Join(catalog.Names(), ", "), commandNames(globalCommands)))
}

// reply queues one mail to one address. ref, when set, is the References root
// of a board's thread.
func (r *request) reply(to, subject, body, auto, ref string) {
	m := &Mail{
		From:          r.s.from(),
		To:            to,
		Subject:       subject,
		Body:          body,
		MessageID:     r.s.NewID(),
		Date:          r.now,
		AutoSubmitted: auto,
	}
	if r.mail != nil && r.mail.MessageID != "" {
		m.InReplyTo = r.mail.MessageID
	}
	if ref != "" {
		m.References = append(m.References, ref)
	}
	if m.InReplyTo != "" {
		m.References = append(m.References, m.InReplyTo)
	}
	data, err := m.Bytes()
	if err != nil {
		// Only an address that cannot be written in a header (a sender's
		// odd From) gets here: such a mail could not be sent anyway.
		r.s.log.Warn("reply not composed", "to", to, "subject", subject, "err", err)
		return
	}
	r.out = append(r.out, &store.Outgoing{
		From:   r.s.cfg.Address,
		To:     []string{to},
		Data:   data,
		Queued: r.now,
	})
}

// replyText queues a plain mail to one address.
func (r *request) replyText(to, subject, body string) {
	r.reply(to, subject, body, "auto-replied", "")
}

// quoteOriginal is the incoming mail as error replies quote it.
func quoteOriginal(m *Incoming) string {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\n", m.From)
	fmt.Fprintf(&b, "Subject: %s\n", m.Subject)
	if !m.Date.IsZero() {
		fmt.Fprintf(&b, "Date: %s\n", m.Date.Format(time.RFC1123Z))
	}
	if text := strings.TrimRight(m.Text, "\n"); text != "" {
		b.WriteString("\n" + text)
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
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

// tellUser mails a template to a user's addresses, and to the sender when he
// wrote from elsewhere.
func (r *request) tellUser(u *store.User, subject, template string, data any) error {
	return r.tellAddresses(union(u.Addresses, []string{r.sender()}), subject, template, data)
}

// tellAddresses mails a template to each address.
func (r *request) tellAddresses(addrs []string, subject, template string, data any) error {
	body, err := render(template, data)
	if err != nil {
		return err
	}
	for _, a := range addrs {
		r.replyText(a, subject, body)
	}
	return nil
}
