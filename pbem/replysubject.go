package pbem

import (
	"fmt"
	"strconv"
	"strings"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/rules/catalog"
)

// boardMailReply answers a mail whose subject is that of a board mail,
// "Re: Ultima Board 104 bob **" or "Re: New Tanbo Board 101 alice": a
// reply with the subject left as it was, which holds no command. Without
// this, "board" would be read as the alias of "move" and answered "wrong
// number of words". It reports false when the words are no such subject.
func (c *cmd) boardMailReply() (bool, error) {
	words, prefixed := c.words, false
	if len(words) > 0 && (strings.EqualFold(words[0], "new") || strings.EqualFold(words[0], "nag:")) {
		words, prefixed = words[1:], true
	}
	if len(words) < 3 || !strings.EqualFold(words[1], "board") {
		return false, nil
	}
	g, ok := catalog.Lookup(words[0])
	if !ok {
		return false, nil
	}
	num, err := strconv.Atoi(words[2])
	if err != nil || num <= 0 {
		return false, nil
	}
	// "ultima board 104 bob secret e2-e5" is a move: board is its alias.
	// Board mails' subjects end in the player to move, "tie", "Error",
	// "won by bob", "at move 5" or "queued move dropped".
	if len(words) >= 6 && !prefixed {
		switch strings.ToLower(words[3]) {
		case "won", "at", "queued":
		default:
			return false, nil
		}
	}
	c.game = g
	// "tanbo board 101 alice secret" is a move whose move was left out:
	// the word after a user id may be his password, quoted back masked.
	c.r.guessSecrets(c.words)
	next := "MOVE"
	user := "USERID"
	b, err := c.r.loadBoard(g.Name(), num)
	if err == nil && !b.rec.Over {
		next = fmt.Sprintf("MOVE#%d", b.next())
		if !b.open() {
			user = b.toMove()
		}
	}
	full := fmt.Sprintf("\n  %s move %d %s PASSWORD %s\nwith your password and your move; \"%s show %d\" sends the board, and \"help tutorial\" shows a first game step by step",
		g.Name(), num, user, next, g.Name(), num)
	// Say why the body did not play: a move there is not "no move".
	line, _ := mailmsg.ReplyLine(c.r.mail.Text)
	if _, isCmd := parseReplyCommand(line); isCmd && c.r.line == "" && err == nil {
		return true, c.notPlayed(b, line, full)
	}
	return true, c.fail("This subject is that of a board mail, with no command in it, and the body has no move on its first line. To play on %s board %d, reply to your latest board mail with just your move on the first line of the body, or write the subject as:%s",
		g.Title(), num, full)
}

// notPlayed says why a reply whose first line is a command, to a mail of
// board b that carries no reply token of the sender's, played nothing,
// and what would play. The answer shows the board: to a player of it in
// play, it carries his token (answerBoard), so replying to it plays.
func (c *cmd) notPlayed(b *board, line, full string) error {
	const how = "To play on %s board %d, reply to your latest board mail, or to an error or show mail of the board, or write the subject as:%s"
	title, num, line := b.game.Title(), b.rec.Board, shorten(line, 60)
	if b.rec.Over {
		return c.failOn(b, "This reply was not played: its first line is %q, but %s board %d is over", line, title, num)
	}
	u, err := c.r.senderPlayer(b)
	if err != nil {
		return err
	}
	if u == nil {
		players := make([]string, len(b.rec.Seats))
		for i, s := range b.rec.Seats {
			players[i] = model.Name(s)
		}
		return c.failOn(b, "This reply was not played: its first line is %q, but %s is no address of a player of %s board %d (%s), and only a player's own reply can move. "+how,
			line, c.r.sender(), title, num, strings.Join(players, " and "), title, num, full)
	}
	return c.failOn(b, "This reply was not played: its first line is %q, but the mail it answers carries no reply token of %s, which stands for the password. Reply to this mail instead: it carries one. "+how,
		line, u.ID, title, num, full)
}
