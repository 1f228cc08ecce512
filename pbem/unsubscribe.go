package pbem

import (
	"crypto/hmac"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// One-click unsubscribe: a board's mail to its watchers (its subscribers
// and notifiers, everyone's copy of a board that is over) and its
// reminders carry List-Unsubscribe (RFC 2369) for that board and that
// recipient, stamped on each copy as it leaves (Tokens.Stamp):
//
//   - a mailto: address, the return path's (or the reply address's)
//     pattern with "u.KIND.BOARD.MAC": a mail to it from the address
//     the MAC was made for stops the board's mail there;
//   - with a web view, its /unsubscribe/KIND.BOARD.MAC.ADDRESS, which a
//     POST "List-Unsubscribe=One-Click" (RFC 8058) acts on, from the mail
//     client, without a login.
//
// MAC is an HMAC of the address and the board (tokens.go): a link acts for
// the address it was sent to and the board it was sent for, and no one can
// make another. One click stops that board's mail to that address: each
// account of the address is taken off the board's subscribers and
// notifiers, and what still would go to the address (the end of a game to
// a notifier of all games of its kind, a player's reminders) is muted for
// it. A player's own board mails (the moves he answers) are never muted:
// to leave a game he resigns. A later "subscribe" or "notify" of the board
// undoes the mute.

// muteKey is the store's record of an address that unsubscribed from a
// board by one click.
func muteKey(addr, kind string, num int) string {
	return fmt.Sprintf("unsubscribed:%s:%s:%d", strings.ToLower(addr), kind, num)
}

// unsubscribeMAC is the MAC of an unsubscribe link of the address and
// the board.
func unsubscribeMAC(key []byte, addr, kind, num string) string {
	return mac(key, "unsubscribe", strings.ToLower(addr), kind, num)
}

// listOf is the List of a board's mails (store.Outgoing.List).
func listOf(b *board) string { return b.game.Name() + " " + strconv.Itoa(b.rec.Board) }

// listUnsubscribe is the List-Unsubscribe value of a mail of list to the
// address, and whether it has a web address for RFC 8058's POST; "" when
// neither a web view nor a tokened address is configured.
func (c *Config) listUnsubscribe(key []byte, list, to string) (string, bool) {
	kind, num, _ := strings.Cut(list, " ")
	sum := unsubscribeMAC(key, to, kind, num)
	var uris []string
	if c.PublicURL != "" {
		uris = append(uris, "<"+strings.TrimRight(c.PublicURL, "/")+"/unsubscribe/"+
			kind+"."+num+"."+sum+"."+tokenEncoding.EncodeToString([]byte(strings.ToLower(to)))+">")
	}
	if p := c.unsubscribePattern(); p != "" {
		uris = append(uris, "<mailto:"+tokenAddress(p, unsubTokenPrefix+kind+"."+num+"."+sum)+"?subject=unsubscribe>")
	}
	return strings.Join(uris, ", "), c.PublicURL != ""
}

// listed marks the parts from n on as mails of board b's list and drops
// those to addresses that unsubscribed from it by one click.
func (r *request) listed(b *board, n int) {
	keep := r.parts[:n]
	for _, p := range r.parts[n:] {
		if c, err := r.tx.Counter(muteKey(p.to, b.game.Name(), b.rec.Board)); err == nil && c.Count > 0 && r.now.Before(c.Expires) {
			continue
		}
		p.list = listOf(b)
		keep = append(keep, p)
	}
	r.parts = keep
}

// unmute undoes the one-click unsubscribe of every address of the user
// from board b: he asked for its mail again.
func (r *request) unmute(addrs []string, b *board) error {
	for _, a := range addrs {
		k := muteKey(a, b.game.Name(), b.rec.Board)
		if c, err := r.tx.Counter(k); err != nil || c.Count == 0 {
			continue
		}
		if err := r.tx.PutCounter(k, store.Counter{Start: r.now, Expires: r.now}); err != nil {
			return err
		}
	}
	return nil
}

// unsubscribe stops board kind num's mail to addr (see above), and returns
// what it did, to tell the one who asked. A failure is a token that is not
// the address's for the board, or a board that is gone.
func (r *request) unsubscribe(addr, kind string, num int, sum string) (string, error) {
	g, ok := catalog.Lookup(kind)
	key, err := r.s.tokens.secret(r.tx)
	if err != nil {
		return "", err
	}
	addr = strings.ToLower(addr)
	if !ok || !hmac.Equal([]byte(sum), []byte(unsubscribeMAC(key, addr, g.Name(), strconv.Itoa(num)))) {
		return "", fail("%s", linkNotOurs)
	}
	b, err := r.loadBoard(g.Name(), num)
	if err != nil {
		return "", err
	}
	users, err := r.tx.UsersByAddress(addr)
	if err != nil {
		return "", err
	}
	changed, player := false, false
	for _, u := range users {
		if contains(b.rec.Subscribers, u.ID) || contains(b.rec.Notify, u.ID) {
			b.rec.Subscribers, b.rec.Notify = remove(b.rec.Subscribers, u.ID), remove(b.rec.Notify, u.ID)
			changed = true
		}
		player = player || b.seatOf(u.ID) >= 0 && !b.rec.Over
	}
	if changed {
		if err := r.tx.PutGame(b.rec); err != nil {
			return "", err
		}
	}
	if err := r.tx.PutCounter(muteKey(addr, g.Name(), num), store.Counter{Start: r.now, Count: 1, Expires: r.now.Add(pauseLife)}); err != nil {
		return "", err
	}
	r.outcome.note(resultPlayed, "")
	what := fmt.Sprintf("No more mail of %s board %d goes to this address: you are unsubscribed from it.", g.Title(), num)
	if player {
		what += " You play on it: the mails of its moves still come, but no reminders; to leave the game, resign."
	}
	return what + fmt.Sprintf(" To get its mail again, send \"%s subscribe %d USERID PASSWORD\".", g.Name(), num), nil
}

// unsubToken is the one-click token of the address a mail came to, or "".
func (s *Service) unsubToken(m *mailmsg.Incoming) string {
	return recipientToken(m, s.cfg.unsubscribePattern(), func(tok string) bool {
		return strings.HasPrefix(tok, unsubTokenPrefix)
	})
}

// unsubscribeByMail answers a mail to a one-click unsubscribe address
// ("u.KIND.BOARD.MAC"): it acts for the mail's From address, which the
// MAC must be of, and says so to it.
func (r *request) unsubscribeByMail(tok string) error {
	r.outcome.command = "unsubscribe"
	// Its answer goes to the From, which anyone may forge: it counts
	// against that sender's budget, as a command does.
	if ok, err := r.allowSender(); !ok || err != nil {
		return err
	}
	parts := strings.Split(strings.TrimPrefix(tok, unsubTokenPrefix), ".")
	num, err := 0, errors.New("not three parts")
	if len(parts) == 3 {
		num, err = strconv.Atoi(parts[1])
	}
	if err != nil {
		return r.refuse("unsubscribe", nil, fail("%s", linkCutShort))
	}
	text, err := r.unsubscribe(r.sender(), parts[0], num, parts[2])
	var f *failure
	if errors.As(err, &f) {
		return r.refuse("unsubscribe", nil, f)
	}
	if err != nil {
		return err
	}
	r.replyText(r.sender(), fmt.Sprintf("pbemd: unsubscribed from %s board %d", parts[0], num), text+"\n")
	return nil
}

// What a refused unsubscribe link is told.
const (
	linkCutShort = "This unsubscribe link is cut short or changed; copy it whole from the mail, or send \"GAME unsubscribe BOARD USERID PASSWORD\""
	linkNotOurs  = "This unsubscribe link is not one pbemd made for your address and a board; to stop a board's mail, send \"GAME unsubscribe BOARD USERID PASSWORD\""
)

// Unsubscribe acts on the token of a one-click unsubscribe link
// ("KIND.BOARD.MAC.ADDRESS", the last part of its path): it stops that
// board's mail to that address and returns what it did. A token that is
// not one the server made is refused with ok false and the reason.
func (s *Service) Unsubscribe(token string) (text string, ok bool, err error) {
	parts := strings.Split(token, ".")
	var addr []byte
	var num int
	if len(parts) == 4 && len(token) <= MaxUnsubscribeToken {
		addr, err = tokenEncoding.DecodeString(parts[3])
		if err == nil {
			num, err = strconv.Atoi(parts[1])
		}
	}
	if len(parts) != 4 || len(token) > MaxUnsubscribeToken || err != nil {
		return linkCutShort + ".", false, nil
	}
	// A link that is no one's is refused before the mail's lock is taken:
	// a flood of made-up links costs an HMAC each.
	key, err := s.tokens.secret(nil)
	if err != nil {
		return "", false, err
	}
	if !hmac.Equal([]byte(parts[2]), []byte(unsubscribeMAC(key, string(addr), parts[0], parts[1]))) {
		return linkNotOurs + ".", false, nil
	}
	_, err = s.adminRun(func(r *request) error {
		text, err = r.unsubscribe(string(addr), parts[0], num, parts[2])
		return err
	})
	var f *failure
	if errors.As(err, &f) {
		return f.Msg + ".", false, nil
	}
	return text, err == nil, err
}

// MaxUnsubscribeToken bounds a link's token: a game's name, a board, the
// MAC and an address of 254 bytes in base32. The web view bounds the
// link's path by it.
const MaxUnsubscribeToken = 600

// nag mails a reminder of board b to its player id, as a mail of the
// board's list: one click stops the reminders.
func (r *request) nag(b *board, id, notice string) error {
	n := len(r.parts)
	err := r.privateBoard(b, id, fmt.Sprintf("Nag: %s Board %d %s", b.game.Title(), b.rec.Board, id), notice)
	r.listed(b, n)
	return err
}
