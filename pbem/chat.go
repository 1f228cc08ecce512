package pbem

import (
	"fmt"
	"strings"

	model "github.com/pbemd/pbemd/pbem/board"
)

// <game> chat board userid password: the mail body goes to every player and
// subscriber of a board, as pbmserv sent it: a short mail of its own
// ("<game> chat <board> <userid>", "Chat at <Game> Board <n>" and the
// text), in the board's thread, without the board. Any registered user may
// chat on any board; one who is neither player nor subscriber gets his own
// chat back, so he sees what was sent. The game and its clock are not
// touched.
func (c *cmd) chat(args []string) error {
	if len(args) != 3 {
		return c.usage()
	}
	b, u, err := c.boardUser(args[0], args[1], args[2])
	if err != nil {
		return err
	}
	if strings.TrimSpace(c.comment) == "" {
		return c.failOn(b, "A chat carries its message in the mail body, and this body is empty; write the message below the subject")
	}
	if size := len(strings.TrimRight(c.comment, "\n")); size > c.r.s.limits.MessageBytes {
		return c.failOn(b, "A chat is at most %d bytes; this one has %d. Shorten it, or send it in parts", c.r.s.limits.MessageBytes, size)
	}
	comment := c.commentBy(u.ID, len(b.rec.Moves))
	comment.Text = c.r.mask(comment.Text) // kept and shown to others: no password in it
	b.rec.Comments = append(b.rec.Comments, *comment)
	if err := c.r.tx.PutGame(b.rec); err != nil {
		return err
	}
	num := b.rec.Board
	subject := fmt.Sprintf("%s chat %d %s", c.game.Name(), num, u.ID)
	body := fmt.Sprintf("Chat at %s Board %d\n\n%s writes:\n%s\n\nTo answer everyone on the board, send:\n  %s chat %d userid password\n",
		b.game.Title(), num, u.ID, model.Reflow(strings.TrimRight(comment.Text, "\n")), c.game.Name(), num)
	for _, id := range union(b.audience(), []string{u.ID}) {
		n := len(c.r.parts)
		if err := c.r.mailUser(id, subject, body, b.rec.Thread); err != nil {
			return err
		}
		if b.seatOf(id) < 0 {
			c.r.listed(b, n) // a subscriber's
		}
	}
	return nil
}
