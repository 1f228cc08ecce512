package pbem

import (
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

// Play by reply: every board mail to a player of a board in play (and every
// error or show mail about it sent to his own address) carries a
// secret token in its Message-ID (and, when the operator configured a
// sub-addressed ReplyAddress, in its Reply-To). A reply to that mail names
// the token in In-Reply-To (or is addressed to it), and its first line of
// the player's own is then a command for that board alone: "e2-e5",
// "resign", "queue b7", "chat ...". The token stands for the player's
// password for that one board and that one move; it is stored only as a
// hash.
//
// A token acts only while its board is at the move it was issued for
// (whatever "#n" the reply adds), and only once: the command that plays
// the move, resigns or votes spends it in the same transaction. Chat and
// queue do not spend it (a player may chat, then move, from one mail) but
// are refused as soon as the board has moved on or the token is spent:
// otherwise a token read once, with a forged From, could speak and queue
// for its player for sixty days. A token named only in References does
// not act: References lists a thread's whole past, so a reply to any
// later mail of the thread (a chat) names the old board mails there.

const (
	// replyTokenLife is how long a board mail's token is good for: longer
	// than the default forfeit time, so that every turn can be answered.
	replyTokenLife = 60 * day
	// replyAfterEnd is how long the tokens of a board that has ended still
	// answer (a last chat); after that they are expired.
	replyAfterEnd = 7 * day

	tokenIDPrefix = "pbr."
	// ReplyTokenPlace is where the token goes in Config.ReplyAddress.
	ReplyTokenPlace = "{token}"
)

// tokenEncoding writes tokens in lower-case base32 without padding (26
// characters), safe in a Message-ID and in an address's local part, which
// some servers fold to lower case.
var tokenEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

var tokenLen = tokenEncoding.EncodedLen(store.TokenBytes)

// mailBoard mails a board to one user. A player of a board in play gets
// the line that says what to reply, if he has something to answer, and a
// token of his own in each mail; everyone else gets body.
func (r *request) mailBoard(b *board, v *boardView, u *store.User, subject, body string) error {
	if lang := userLanguage(u); lang != v.lang { // the board in his language
		var err error
		if v, err = r.in(lang, b, v); err != nil {
			return err
		}
		if body, err = renderBoardBody(v); err != nil {
			return err
		}
	}
	if b.rec.Over || b.open() || b.seatOf(u.ID) < 0 {
		n := len(r.parts)
		r.mailAddresses(u.Addresses, subject, body, b.rec.Thread)
		r.listed(b, n) // a watcher's mail, or the end of his game
		return nil
	}
	text, err := playerBody(b, v, u.ID)
	if err != nil {
		return err
	}
	n := len(r.parts)
	r.mailAddresses(u.Addresses, subject, text+b.nextCommand(v.lang, u.ID), b.rec.Thread)
	return r.giveTokens(b, u, r.parts[n:])
}

// answerBoard answers the sender with a mail about board b (an error, a
// show), its body made by fill from the board's text. A player of the
// board in play, writing from his own address, is told what to reply and
// gets his token, as in a board mail: the answer goes to that address
// only, so the token reaches no one else.
func (r *request) answerBoard(b *board, v *boardView, subject string, fill func(board string) (string, error)) error {
	u, err := r.senderPlayer(b)
	if err != nil {
		return err
	}
	id := ""
	if u != nil {
		id = u.ID
	}
	text, err := playerBody(b, v, id)
	if err != nil {
		return err
	}
	if text, err = fill(text); err != nil {
		return err
	}
	r.reply(r.sender(), subject, text, "auto-replied", b.rec.Thread)
	r.parts[len(r.parts)-1].own = true
	if u == nil {
		return nil
	}
	// Mail that does not prove its sender mints one token of a move at
	// most: a forged From must not fill the store with another's tokens.
	if !r.proves(u.ID) {
		key := fmt.Sprintf("answer-token:%s:%s:%d:%d", u.ID, b.game.Name(), b.rec.Board, b.next())
		if ok, err := r.oncePer(key, replyTokenLife); !ok || err != nil {
			return err
		}
	}
	// Several answers to one address are merged into one mail, which
	// carries no token (its Message-ID is its own) and drops the line.
	p := r.parts[len(r.parts)-1]
	p.replyLine = templates.T(v.lang, b.replyLine(u.ID))
	return r.giveTokens(b, u, []*part{p})
}

// senderPlayer is the player of board b in play whose address the mail
// comes from, the player to move first; nil when there is none. It reads
// the board's seats only, so its cost is bounded whoever shares the
// address.
func (r *request) senderPlayer(b *board) (*store.User, error) {
	if b.rec.Over || b.open() {
		return nil, nil
	}
	ids := append([]string{b.toMove()}, b.rec.Seats...)
	for _, id := range ids {
		u, err := r.recipient(id)
		if err != nil {
			return nil, err
		}
		if u != nil && contains(u.Addresses, r.sender()) {
			return u, nil
		}
	}
	return nil, nil
}

// playerBody is the board's text as user id gets it: with the line that
// tells him what to reply, when he plays and has something to answer.
func playerBody(b *board, v *boardView, id string) (string, error) {
	pv := *v
	pv.ByReply = templates.T(v.lang, b.replyLine(id))
	return renderBoardBody(&pv)
}

// replyLine tells player id what to write on the first line of a reply to
// a mail of the board: his move when it is his turn, accept or reject when
// a proposal waits for his answer; "" when he has nothing to answer, so
// that following it never gets "not your turn".
func (b *board) replyLine(id string) string {
	if id == "" || b.rec.Over || b.open() || b.seatOf(id) < 0 {
		return ""
	}
	toMove := strings.EqualFold(b.toMove(), id)
	answers := b.rec.Vote != nil && b.rec.Vote.Seat != b.seatOf(id)
	switch {
	case toMove && answers:
		return "Reply with your move, or accept or reject, on the first line."
	case toMove:
		return "Reply to this mail with your move on the first line."
	case answers:
		return "Reply to this mail with accept or reject on the first line."
	}
	return ""
}

// giveTokens puts a new reply token of player u for board b in each mail
// of parts: its Message-ID, and its Reply-To when a reply address is
// configured.
func (r *request) giveTokens(b *board, u *store.User, parts []*part) error {
	for _, p := range parts {
		if err := r.mintToken(p, u, store.ReplyToken{Kind: b.game.Name(), Board: b.rec.Board, Move: b.next()}); err != nil {
			return err
		}
	}
	return nil
}

// mintToken puts a new reply token of player u, standing for what t
// names, in mail p: its Message-ID, and its Reply-To when a reply address
// is configured. The token is bound to his password as it is now, and
// lives replyTokenLife.
func (r *request) mintToken(p *part, u *store.User, t store.ReplyToken) error {
	t.User, t.Account, t.Expires = u.ID, accountPrint(u), r.now.Add(replyTokenLife)
	tok, err := r.tx.NewReplyToken(&t)
	if err != nil {
		return err
	}
	text := tokenEncoding.EncodeToString(tok)
	p.messageID = tokenIDPrefix + text + "@" + r.s.cfg.Domain
	if a := r.s.cfg.ReplyAddress; a != "" {
		p.replyTo = strings.Replace(a, ReplyTokenPlace, text, 1)
	}
	return nil
}

// accountPrint is a fingerprint of the account's password: tokens made
// before a change of password do not match the account any more.
func accountPrint(u *store.User) string {
	sum := sha256.Sum256([]byte(u.ID + "\x00" + u.PasswordHash))
	return hex.EncodeToString(sum[:8])
}

// replyToken returns the token a mail names, or nil, and whether the mail
// answers the mail of that token: true for a token in In-Reply-To or in a
// recipient's address, false for one found only in References, which only
// threads. Only the first candidate counts, in the order In-Reply-To, the
// recipients, References (newest first): so a mail costs at most one
// lookup whatever it holds.
func (s *Service) replyToken(m *mailmsg.Incoming) (tok []byte, answers bool) {
	if tok := idToken(m.InReplyTo); tok != nil {
		return tok, true
	}
	if tok := s.addressToken(m); tok != nil {
		return tok, true
	}
	for i := len(m.References) - 1; i >= 0; i-- {
		if tok := idToken(m.References[i]); tok != nil {
			return tok, false
		}
	}
	return nil, false
}

// addressToken returns the token of the first recipient address that is
// the configured ReplyAddress with a token, or nil.
func (s *Service) addressToken(m *mailmsg.Incoming) []byte {
	var tok []byte
	recipientToken(m, s.cfg.ReplyAddress, func(t string) bool {
		if len(t) == tokenLen {
			tok = decodeToken(t)
		}
		return tok != nil
	})
	return tok
}

// idToken returns the token of a Message-ID the server made for a board
// mail, or nil.
func idToken(id string) []byte {
	local, _, ok := strings.Cut(id, "@")
	if !ok || len(local) != len(tokenIDPrefix)+tokenLen || !strings.HasPrefix(local, tokenIDPrefix) {
		return nil
	}
	return decodeToken(local[len(tokenIDPrefix):])
}

func decodeToken(s string) []byte {
	tok, err := tokenEncoding.DecodeString(strings.ToLower(s))
	if err != nil || len(tok) != store.TokenBytes {
		return nil
	}
	return tok
}

// A replyCommand is the first line of a reply read as a command for one
// board: the verb of the full command and the words after the password.
type replyCommand struct {
	verb string // move, resign, queue or chat
	args []string
}

// parseReplyCommand reads the first line of a reply. It reports false when
// the line is no command: a move is words that each hold a digit (every
// game's notation numbers its squares or points), so that "Thanks!" is not
// taken for one.
func parseReplyCommand(line string) (replyCommand, bool) {
	words := strings.Fields(line)
	if len(words) == 0 || len(words) > 12 {
		return replyCommand{}, false
	}
	first := strings.ToLower(words[0])
	switch first {
	case "resign":
		return replyCommand{verb: "resign"}, len(words) == 1
	case "propose", "draw", "accept", "reject", "undo":
		return replyCommand{verb: "move", args: []string{first}}, len(words) == 1
	case "queue", "qmove":
		return replyCommand{verb: "queue", args: words[1:]}, len(words) > 1 && (isMove(words[1:]) || isPlan(words[1:]))
	case "chat":
		return replyCommand{verb: "chat", args: words[1:]}, true
	case "move", "mvoe":
		return replyCommand{verb: "move", args: words[1:]}, len(words) > 1 && isMove(words[1:])
	}
	return replyCommand{verb: "move", args: words}, isMove(words)
}

// isMove reports whether words can be a move: each holds a digit, or is
// "resign", or Ultima's "suicide" before a square.
func isMove(words []string) bool {
	if len(words) == 1 && strings.EqualFold(words[0], "resign") {
		return true
	}
	for i, w := range words {
		if i == 0 && len(words) == 2 && strings.EqualFold(w, "suicide") {
			continue
		}
		if !strings.ContainsAny(w, "0123456789") {
			return false
		}
	}
	return true
}

// byReply plays a reply to a board mail when it answers a live token and
// its first line is a command for the board. It reports false when the
// mail is for the usual way, by its subject. A reply whose token is dead,
// or named only in References, or whose first line is no command, while
// its subject is only the board mail's subject, gets an answer that says
// how to send the command.
func (r *request) byReply() (bool, error) {
	tok, answers := r.s.replyToken(r.mail)
	if tok == nil {
		return false, nil
	}
	line, comment := mailmsg.ReplyLine(r.mail.Text)
	rc, isCmd := parseReplyCommand(line)
	t, b, why, err := r.liveToken(tok)
	if err != nil {
		return false, err
	}
	if why == "" && answers { // References may be copied from another's mail
		r.tokenUser = t.User
	}
	if why == "" && t.Boards != "" {
		// A digest's reply plays its body's lines; one without any, or
		// only threaded to a digest, may be a command by its subject.
		own := !replySubject(commandWords(r.mail.Subject)) && !strings.Contains(strings.ToLower(r.mail.Subject), digestSubject)
		if (!answers || len(mailmsg.CommandLines(r.mail.Text)) == 0) && own {
			return false, nil
		}
		return true, r.playDigest(tok, t, answers)
	}
	if why == "" && isCmd && answers {
		return true, r.playReply(tok, t, b, rc, comment)
	}
	if !replySubject(commandWords(r.mail.Subject)) {
		return false, nil // the subject is a command of its own
	}
	if ok, err := r.allowSender(); !ok || err != nil {
		return true, err
	}
	if why != "" {
		return true, r.refuse("pbemd", nil, fail("This reply answers a board mail that can no longer be answered by reply: %s. Reply to the newest board mail, or send the full command in the subject: GAME move BOARD USERID PASSWORD MOVE (e.g. ultima move 101 alice secret e2-e5)", why))
	}
	full := fmt.Sprintf("%s move %d %s PASSWORD MOVE", b.game.Name(), b.rec.Board, t.User)
	if !answers {
		f := fail("This reply was not played: it names a board mail of %s board %d only in its References, which thread a mail but do not stand for your password, so it answers some other mail. Reply to the newest board mail itself, or send the full command: %s",
			b.game.Title(), b.rec.Board, full)
		f.game, f.board = b.game, b
		return true, r.refuse(b.game.Name(), nil, f)
	}
	why = fmt.Sprintf("its first line %q is not a command for %s board %d; write your move there (e.g. %s), or resign, propose, accept, reject, undo, queue MOVE, or chat and your message, above or below the quoted board",
		shorten(line, 60), b.game.Title(), b.rec.Board, exampleMove(b))
	if line == "" {
		why = fmt.Sprintf("it holds no line of your own, only the quoted board; write your move (e.g. %s) or another command for %s board %d on its first line",
			exampleMove(b), b.game.Title(), b.rec.Board)
	}
	f := fail("This reply was not played: %s. The full command works from any mail: %s", why, full)
	f.game, f.board = b.game, b
	return true, r.refuse(b.game.Name(), nil, f)
}

// liveToken looks a token up once and checks it still stands for its
// player: why says what is wrong with it, "" when nothing.
func (r *request) liveToken(tok []byte) (*store.ReplyToken, *board, string, error) {
	t, err := r.tx.ReplyToken(tok)
	if errNotFound(err) {
		return nil, nil, "its reply token is unknown here", nil
	}
	if err != nil {
		return nil, nil, "", err
	}
	if !r.now.Before(t.Expires) {
		return nil, nil, "its reply token has expired", nil
	}
	u, err := r.tx.User(t.User)
	if errNotFound(err) {
		return nil, nil, "its player has signed off", nil
	}
	if err != nil {
		return nil, nil, "", err
	}
	if accountPrint(u) != t.Account {
		return nil, nil, "the password of " + u.ID + " has changed since it was sent", nil
	}
	if !contains(u.Addresses, r.sender()) {
		return nil, nil, fmt.Sprintf("it comes from %s, which is not an address of %s", r.sender(), u.ID), nil
	}
	if t.Boards != "" {
		return t, nil, "", nil // a digest's: its boards are checked line by line
	}
	if _, ok := catalog.Lookup(t.Kind); !ok {
		return nil, nil, "its game is no longer offered here", nil
	}
	b, err := r.loadBoard(t.Kind, t.Board)
	if err != nil {
		var f *failure
		if errors.As(err, &f) {
			return nil, nil, "its board is gone", nil
		}
		return nil, nil, "", err
	}
	if b.rec.Over && !r.now.Before(b.rec.Updated.Add(replyAfterEnd)) {
		return nil, nil, "its game ended on " + b.rec.Updated.UTC().Format(timeFormat), nil
	}
	return t, b, "", nil
}

// playReply runs the reply's command as the full command would run, for
// the token's player, without his password, when the token is current:
// unspent, and its board still at the move it was issued for. A command
// that plays, resigns or votes spends it.
func (r *request) playReply(tok []byte, t *store.ReplyToken, b *board, rc replyCommand, comment string) error {
	if rc.verb == "chat" {
		comment = strings.TrimSpace(strings.Join(rc.args, " ") + "\n" + comment)
		rc.args = nil
	}
	words := append([]string{b.game.Name(), rc.verb, fmt.Sprint(b.rec.Board), t.User, ""}, rc.args...)
	c := &cmd{r: r, words: words, comment: comment, game: b.game}
	if t.Spent || t.Move != b.next() {
		if ok, err := r.allowSender(); !ok || err != nil {
			return err
		}
		return r.refuse(b.game.Name(), words, &failure{game: b.game, board: b, Msg: staleReply(t, b, rc)})
	}
	return r.runAs(c, t.User, func() error {
		played, err := r.runCmd(c)
		if err != nil || !played || rc.verb == "chat" || rc.verb == "queue" {
			return err
		}
		return r.tx.SpendReplyToken(tok)
	})
}

// staleReply says why a reply's command was not run although its token is
// good: the token is spent, or its board has moved on; and what to send
// instead.
func staleReply(t *store.ReplyToken, b *board, rc replyCommand) string {
	// The command as the player wrote it, cut as fail cuts a word of the
	// input: the answer costs what the server writes.
	what := strings.Join(append([]string{rc.verb}, rc.args...), " ")
	if rc.verb == "move" {
		what = strings.Join(rc.args, " ")
	}
	what = shorten(shortWords(what), maxQuoted)
	now := fmt.Sprintf("is at move #%d now, %s's to play", b.next(), b.toMove())
	if b.rec.Over {
		now = "has ended"
	}
	msg := fmt.Sprintf("Your reply answers the board mail of move #%d, but %s board %d %s, so %q was not played; reply to the newest board mail",
		t.Move, b.game.Title(), b.rec.Board, now, what)
	if t.Move == b.next() {
		msg = fmt.Sprintf("Your reply answers a board mail of %s board %d whose reply has been played already, and a board mail takes one, so %q was not played; reply to the newest board mail",
			b.game.Title(), b.rec.Board, what)
	}
	full := ""
	switch {
	case rc.verb == "chat":
		full = fmt.Sprintf("%s chat %d %s PASSWORD (the message in the body)", b.game.Name(), b.rec.Board, t.User)
	case b.rec.Over:
	case rc.verb == "queue":
		full = fmt.Sprintf("%s queue %d %s PASSWORD %s", b.game.Name(), b.rec.Board, t.User, strings.TrimPrefix(what, "queue "))
	case rc.verb == "move" && !isVote(what):
		if strings.EqualFold(b.toMove(), t.User) {
			move, _, _ := strings.Cut(what, "#")
			full = fmt.Sprintf("%s move %d %s PASSWORD %s#%d", b.game.Name(), b.rec.Board, t.User, move, b.next())
		}
	default: // resign or a vote, which a player may send on any turn
		full = fmt.Sprintf("%s move %d %s PASSWORD %s", b.game.Name(), b.rec.Board, t.User, what)
	}
	if full != "" {
		msg += ", or send: " + full
	}
	return msg
}

// isVote reports whether a move word is a vote, which takes no move number.
func isVote(w string) bool {
	switch strings.ToLower(w) {
	case "propose", "draw", "accept", "reject", "undo":
		return true
	}
	return false
}

// runAs runs f with the request's password checks passed for user id.
func (r *request) runAs(c *cmd, id string, f func() error) error {
	r.replyAs = id
	defer func() { r.replyAs = "" }()
	return f()
}

// replySubject reports whether subject words are only a board mail's
// subject, as a reply repeats it ("Re: Ultima Board 101 alice"), and not a
// command of their own ("ultima board 101 alice secret e2-e5", pbmserv's
// way of answering a board mail).
func replySubject(words []string) bool {
	// Reply prefixes in other languages: "AW:", "SV:", "Antw:".
	for len(words) > 0 && len(words[0]) <= 5 && strings.HasSuffix(words[0], ":") && !strings.EqualFold(words[0], "nag:") {
		words = words[1:]
	}
	if len(words) > 0 && (strings.EqualFold(words[0], "new") || strings.EqualFold(words[0], "nag:")) {
		words = words[1:]
	}
	if len(words) == 0 {
		return true
	}
	if len(words) < 3 || !strings.EqualFold(words[1], "board") {
		return false
	}
	rest := strings.ToLower(strings.Join(words[3:], " "))
	return len(words) <= 4 || strings.HasPrefix(rest, "won by ") || rest == "queued move dropped"
}

// exampleMove is a move in the board's notation, for answers: one legal
// now.
func exampleMove(b *board) string {
	if legal := b.pos.Legal(); len(legal) > 0 && !b.rec.Over {
		return legal[0]
	}
	return "MOVE"
}
