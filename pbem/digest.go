package pbem

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// Digest mode (set mail USERID PASSWORD digest 08:00,20:00): a player's
// board mails of games in play are held back (heldForDigest), and at the
// times he chose, in his zone, one mail lists every board at his move,
// as todo orders them, each with its last move and its board. That mail
// carries one reply token, good for the boards it lists at their listed
// move numbers: a reply of lines "GAME BOARD MOVE" (or "BOARD MOVE") plays
// each as a move of his, and one mail answers them all.
//
// The next digest of each player is a note of the store named by its UTC
// time, digestNotes+"2026-11-27T08:00:00Z/alice": the sweep reads them in
// order and stops at the first still to come, so a tick reads only what
// is due. The user's Extra names his note, so that a new setting drops the
// old one, and a note his Extra does not name is stale.

const (
	mailKey      = "mail"       // a user's Extra: "digest 08:00,20:00", unset for a mail at each move
	digestDueKey = "digest-due" // a user's Extra: the note of his next digest
	digestNotes  = "digest/"
	// digestSubject starts a digest's subject; a reply that repeats it
	// is no command of its own.
	digestSubject = "pbemd: digest of "

	// maxDigestTimes bounds the digests of a day, maxDigestBoards the
	// boards of one (the rest are counted, and todo lists them), and
	// digestBatch the digests one transaction of the sweep makes.
	maxDigestTimes  = 4
	maxDigestBoards = 20
	digestBatch     = 16
)

// setMail sets how board mails come to the account: at each move, or in
// a digest at chosen times; without a value it tells which.
func (c *cmd) setMail(s userSetting) error {
	u, err := c.r.tx.User(s.id)
	if err != nil {
		return err
	}
	subject := "pbemd: board mails of " + u.ID
	if len(s.values) == 0 {
		now := "Board mails of %s come at each move.\n"
		if times := digestTimes(u); times != nil {
			now = "Board mails of %s come in a digest at " + strings.Join(times, ", ") + " " + userZone(u).String() + ".\n"
		}
		c.r.replyText(c.r.sender(), subject, fmt.Sprintf(now+"To change it, send: set mail %s PASSWORD digest HH:MM[,HH:MM] or set mail %s PASSWORD each\n", u.ID, u.ID, u.ID))
		return nil
	}
	mode := strings.ToLower(s.values[0])
	switch {
	case mode == "each" && len(s.values) == 1:
		delete(u.Extra, mailKey)
		if err := scheduleDigest(c.r.tx, u, c.r.now); err != nil {
			return err
		}
		c.r.replyText(c.r.sender(), subject, fmt.Sprintf("Board mails of %s come at each move again.\n", u.ID))
		return nil
	case mode != "digest":
		return fail("%q is no way of mailing boards; write \"each\" (a mail at each move) or \"digest\" and its times, e.g. set mail %s PASSWORD digest 08:00,20:00", s.values[0], u.ID)
	}
	times, err := parseDigestTimes(strings.Join(s.values[1:], ","))
	if err != nil {
		return fail("%s; write 1 to %d times of day in your zone (set timezone), e.g. set mail %s PASSWORD digest 08:00,20:00", err, maxDigestTimes, u.ID)
	}
	if u.Extra == nil {
		u.Extra = map[string]string{}
	}
	u.Extra[mailKey] = "digest " + strings.Join(times, ",")
	if err := scheduleDigest(c.r.tx, u, c.r.now); err != nil {
		return err
	}
	loc := userZone(u)
	next := nextDigest(times, loc, c.r.now)
	c.r.replyText(c.r.sender(), subject, fmt.Sprintf(
		"Board mails of %s now come in a digest at %s %s: the next at %s. Reminders and the end of a game still come at once. To go back, send: set mail %s PASSWORD each\n",
		u.ID, strings.Join(times, ", "), loc, next.In(loc).Format("Mon 15:04"), u.ID))
	return nil
}

// parseDigestTimes reads times of day "HH:MM" separated by commas:
// 1 to maxDigestTimes, different; it returns them sorted.
func parseDigestTimes(list string) ([]string, error) {
	var times []string
	for _, w := range strings.Split(list, ",") {
		w = strings.TrimSpace(w)
		if w == "" {
			continue
		}
		h, m, ok := strings.Cut(w, ":")
		hh, herr := strconv.Atoi(h)
		mm, merr := strconv.Atoi(m)
		if !ok || len(h) != 2 || len(m) != 2 || herr != nil || merr != nil || hh > 23 || mm > 59 || hh < 0 || mm < 0 {
			return nil, fmt.Errorf("%q is not a time of day HH:MM", shorten(w, maxQuotedWord))
		}
		if !slices.Contains(times, w) {
			times = append(times, w)
		}
		if len(times) > maxDigestTimes {
			return nil, fmt.Errorf("at most %d digests a day can be chosen", maxDigestTimes)
		}
	}
	if len(times) == 0 {
		return nil, errors.New("no digest time was given")
	}
	slices.Sort(times)
	return times, nil
}

// digestTimes are the times of u's digests, nil when his board mails
// come at each move.
func digestTimes(u *store.User) []string {
	v, ok := strings.CutPrefix(u.Extra[mailKey], "digest ")
	if !ok {
		return nil
	}
	times, err := parseDigestTimes(v)
	if err != nil {
		return nil
	}
	return times
}

// nextDigest is the first of the times of day, in loc, after now.
func nextDigest(times []string, loc *time.Location, now time.Time) time.Time {
	local := now.In(loc)
	var next time.Time
	for d := range 2 {
		for _, t := range times {
			hh, _ := strconv.Atoi(t[:2])
			mm, _ := strconv.Atoi(t[3:])
			at := time.Date(local.Year(), local.Month(), local.Day()+d, hh, mm, 0, 0, loc)
			if at.After(now) && (next.IsZero() || at.Before(next)) {
				next = at
			}
		}
	}
	return next
}

func digestNote(at time.Time, id string) string {
	return digestNotes + at.UTC().Format(time.RFC3339) + "/" + id
}

// scheduleDigest drops u's note of his next digest and, when he is in
// digest mode, writes the one after now; it stores u.
func scheduleDigest(tx *store.Tx, u *store.User, now time.Time) error {
	if old := u.Extra[digestDueKey]; old != "" {
		if err := tx.DeleteNote(old); err != nil {
			return err
		}
		delete(u.Extra, digestDueKey)
	}
	if times := digestTimes(u); times != nil {
		key := digestNote(nextDigest(times, userZone(u), now), u.ID)
		if err := tx.SetNote(key, ""); err != nil {
			return err
		}
		u.Extra[digestDueKey] = key
	}
	return tx.PutUser(u)
}

// errEnough stops a walk of the notes.
var errEnough = errors.New("enough")

// sweepDigests sends the digests due at now, digestBatch a transaction.
// A digest that cannot be made (a panic, an unreadable record) is logged
// and dropped, its player's next one scheduled, so that it stops no other.
func (s *Service) sweepDigests(now time.Time, ids *[]uint64) error {
	last := digestNotes + now.UTC().Format(time.RFC3339) + "/\xff"
	for more := true; more; {
		failed := ""
		_, err := s.sweepStep(now, ids, func(tx *store.Tx, r *request) (int, error) {
			var due []string
			err := tx.Notes(digestNotes, func(key, _ string) error {
				if key > last || len(due) == digestBatch {
					return errEnough
				}
				due = append(due, key)
				return nil
			})
			if err != nil && !errors.Is(err, errEnough) {
				return 0, err
			}
			more = len(due) == digestBatch
			began := time.Now()
			for i, key := range due {
				if i > 0 && time.Since(began) > sweepStep {
					// A digest reads up to maxTodo boards: the rest wait
					// for the next transaction, as the boards' sweep does.
					more = true
					break
				}
				if err := safely(func() error { return r.sendDigest(key) }); err != nil {
					failed = key
					return 0, err
				}
			}
			return len(r.parts), nil
		})
		if failed == "" && err != nil {
			return err
		}
		if failed != "" {
			s.log.Error("sweep: digest not sent; the next is scheduled", "note", failed, "err", err)
			if _, err := s.sweepStep(now, ids, func(tx *store.Tx, _ *request) (int, error) {
				return 0, dropDigest(tx, failed, now)
			}); err != nil {
				return err
			}
			more = true
		}
	}
	return nil
}

// dropDigest deletes the note of a digest that could not be made and
// schedules its player's next.
func dropDigest(tx *store.Tx, key string, now time.Time) error {
	if err := tx.DeleteNote(key); err != nil {
		return err
	}
	u, err := tx.User(digestUser(key))
	if err != nil || u.Extra[digestDueKey] != key {
		return nil // gone or unreadable: the note alone goes
	}
	delete(u.Extra, digestDueKey)
	return scheduleDigest(tx, u, now)
}

// digestUser is the user id a digest's note names.
func digestUser(key string) string { return key[strings.LastIndexByte(key, '/')+1:] }

// sendDigest sends the digest a note is due for, if it is still his
// next, and schedules the one after.
func (r *request) sendDigest(key string) error {
	if err := r.tx.DeleteNote(key); err != nil {
		return err
	}
	u, err := r.tx.User(digestUser(key))
	if errNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if u.Extra[digestDueKey] != key {
		return nil // a note left by an older setting
	}
	delete(u.Extra, digestDueKey) // deleted above
	if err := scheduleDigest(r.tx, u, r.now); err != nil {
		return err
	}
	items, more, err := Todo(r.tx, u.ID, "")
	if err != nil || len(items) == 0 {
		return err // nothing at his move: no mail
	}
	var b strings.Builder
	b.WriteString(model.Wrap([]string{fmt.Sprintf("The boards where it is %s's move, the most urgent first. Reply to this mail with one line a board, GAME BOARD MOVE (or BOARD MOVE), e.g.:", u.ID)}, model.LineWidth)[0])
	b.WriteString("\n\n")
	listed := items[:min(len(items), maxDigestBoards)]
	fmt.Fprintf(&b, "  %s %d MOVE\n\n", listed[0].Game, listed[0].Board)
	var boards []string
	for _, it := range listed {
		bd, err := r.loadBoard(it.Game, it.Board)
		if err != nil {
			return err // the digest is dropped (sweepDigests)
		}
		b.WriteString(model.WrapText(it.entry(r.now))) // as todo's reply wraps it
		fmt.Fprintf(&b, "  Reply line: %s %d MOVE (move #%d)\n\n%s\n\n", it.Game, it.Board, it.Move, strings.TrimRight(bd.pos.Board(), "\n"))
		boards = append(boards, fmt.Sprintf("%s %d %d", it.Game, it.Board, it.Move))
	}
	if n := len(items) - len(listed); n > 0 || more {
		plus := ""
		if more {
			plus = " or more"
		}
		fmt.Fprintf(&b, "Boards at your move besides these: %d%s; send todo.\n", n, plus)
	}
	fmt.Fprintf(&b, "A mail at each move again: set mail %s PASSWORD each\n", u.ID)
	subject := fmt.Sprintf("%s%s, boards at your move: %d", digestSubject, u.ID, len(items))
	n := len(r.parts)
	r.mailAddresses(u.Addresses, subject, b.String(), "")
	for _, p := range r.parts[n:] {
		if err := r.mintToken(p, u, store.ReplyToken{Boards: strings.Join(boards, ";")}); err != nil {
			return err
		}
	}
	return nil
}

// heldForDigest reports whether the board mail of this request to player
// u waits for his digest: he is in digest mode, the game goes on, and
// the mail is no answer to a command he sent himself (a digest's reply
// gets its own answer).
func (r *request) heldForDigest(b *board, u *store.User) bool {
	if b.rec.Over || b.open() || b.seatOf(u.ID) < 0 {
		return false
	}
	if r.mail != nil && !r.digest && (r.proved == u.ID || r.replyAs == u.ID) {
		return false
	}
	return digestTimes(u) != nil
}

// A digestBoard is a board a digest's token answers, at its move number.
type digestBoard struct {
	kind        string
	board, move int
}

func digestBoards(list string) []digestBoard {
	var out []digestBoard
	for _, e := range strings.Split(list, ";") {
		var d digestBoard
		if _, err := fmt.Sscanf(e, "%s %d %d", &d.kind, &d.board, &d.move); err == nil {
			out = append(out, d)
		}
	}
	return out
}

// playDigest plays a reply to a digest: each line "GAME BOARD MOVE" or
// "BOARD MOVE" a move of the token's player on a board the digest
// listed, still at its listed move; one line a board at most. One mail
// answers every line; the token is spent.
func (r *request) playDigest(tok []byte, t *store.ReplyToken, answers bool) error {
	if ok, err := r.allowSender(); !ok || err != nil {
		return err
	}
	subject := "pbemd: digest reply of " + t.User
	// A line may be the full command, password and all: the answer, and
	// a refusal's quote of the mail, show it masked. A digest reads at
	// most maxDigestBoards lines, so they cost as many lookups of words.
	lines := mailmsg.CommandLines(r.mail.Text)
	for _, line := range lines[:min(len(lines), maxDigestBoards)] {
		r.guessSecrets(strings.Fields(line))
	}
	switch {
	case !answers:
		return r.refuse("pbemd", nil, fail("This reply names a digest only in its References, which thread a mail but do not stand for your password, so nothing was played; reply to the digest itself"))
	case t.Spent:
		return r.refuse("pbemd", nil, fail("This digest has been answered already, and a digest takes one reply, so nothing was played; reply to the newest digest, or send todo for the boards at your move"))
	}
	listed := digestBoards(t.Boards)
	var out strings.Builder
	used := make([]bool, len(listed))
	r.digest = true
	defer func() { r.digest = false }()
	for i, line := range lines {
		if i == len(listed) {
			fmt.Fprintf(&out, "%d more lines were not read: a digest reply has one line a board it lists, %d here.\n", len(lines)-i, len(listed))
			break
		}
		res, err := r.digestLine(t, line, listed, used)
		if err != nil {
			return err
		}
		fmt.Fprintf(&out, "%s\n%s\n\n", shorten(line, 60), res)
	}
	if len(lines) == 0 {
		// Nothing played: the token stays good for a reply with lines.
		return r.refuse("pbemd", nil, fail("This reply to a digest held no line of your own, so nothing was played; write one line a board above the quoted digest: GAME BOARD MOVE, e.g. %s", digestExample(listed)))
	}
	if err := r.tx.SpendReplyToken(tok); err != nil {
		return err
	}
	r.replyText(r.sender(), subject, strings.TrimSuffix(out.String(), "\n"))
	return nil
}

// digestLine plays one line of a digest's reply and says what came of it.
func (r *request) digestLine(t *store.ReplyToken, line string, listed []digestBoard, used []bool) (string, error) {
	words := strings.Fields(line)
	kind := ""
	if len(words) > 0 {
		if g, ok := catalog.Lookup(strings.ToLower(words[0])); ok {
			kind, words = g.Name(), words[1:]
		}
	}
	if len(words) < 2 {
		return "Refused: write GAME BOARD MOVE, e.g. " + digestExample(listed) + ".", nil
	}
	num, err := strconv.Atoi(words[0])
	if err != nil {
		return fmt.Sprintf("Refused: %q is no board number; write GAME BOARD MOVE.", shorten(words[0], maxQuotedWord)), nil
	}
	at := -1
	for i, d := range listed {
		if d.board == num && (kind == "" || d.kind == kind) {
			if at >= 0 {
				return fmt.Sprintf("Refused: the digest lists board %d of two games; write the game first, e.g. %s %d MOVE.", num, d.kind, num), nil
			}
			at = i
		}
	}
	if at < 0 {
		return fmt.Sprintf("Refused: this digest does not list board %d; answer it by its own board mail or the full command.", num), nil
	}
	if used[at] {
		return fmt.Sprintf("Refused: board %d was answered by an earlier line of this reply.", num), nil
	}
	used[at] = true
	d := listed[at]
	move := strings.Join(words[1:], " ")
	text, n, err := splitMoveNumber(move)
	if err != nil {
		return "Refused: " + err.Error() + ".", nil
	}
	if isVote(text) || strings.EqualFold(text, "resign") || strings.EqualFold(text, "swap") {
		return fmt.Sprintf("Refused: a digest's reply plays moves; send %s by the full command, %s move %d %s PASSWORD %s.", text, d.kind, d.board, t.User, text), nil
	}
	if n != 0 && n != d.move {
		return fmt.Sprintf("Refused: the digest listed this board at move #%d, not #%d.", d.move, n), nil
	}
	b, err := r.loadBoard(d.kind, d.board)
	var f *failure
	if errors.As(err, &f) {
		return "Refused: " + f.Msg + ".", nil
	}
	if err != nil {
		return "", err
	}
	if b.next() != d.move || b.rec.Over {
		return fmt.Sprintf("Refused: %s board %d is no longer at move #%d, as the digest listed it; send todo for the boards at your move.", b.game.Title(), d.board, d.move), nil
	}
	c := &cmd{r: r, game: b.game, words: append([]string{d.kind, "move", strconv.Itoa(d.board), t.User, ""},
		append(strings.Fields(text), fmt.Sprintf("#%d", d.move))...)}
	if err := r.runAs(c, t.User, c.dispatch); err != nil {
		if errors.As(err, &f) {
			return "Refused: " + f.Msg + ".", nil
		}
		return "", err
	}
	return fmt.Sprintf("Played on %s board %d as move #%d.", b.game.Title(), d.board, d.move), nil
}

// digestExample is a reply line for the first board a digest lists.
func digestExample(listed []digestBoard) string {
	if len(listed) == 0 {
		return "tanbo 101 d5"
	}
	return fmt.Sprintf("%s %d MOVE", listed[0].kind, listed[0].board)
}
