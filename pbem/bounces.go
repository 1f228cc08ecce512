package pbem

import (
	"crypto/hmac"
	"fmt"
	"net/mail"
	"strconv"
	"strings"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/store"
)

// Bounces: a board mail to a dead address comes back as a delivery report
// to its envelope sender. With Bounces.ReturnPath set, each recipient's
// copy leaves with a return path of its own, "pbem+b.DAY.MAC@domain"
// (VERP): MAC is an HMAC of the recipient's address and the day
// (tokens.go). A report that comes to such a return path is read
// (mailmsg.ReadBounce) and believed for the address it reports only when
// the token is that address's, of the last bounceTokenDays days: no one
// can pause another's address by writing a report, since no one but its
// owner sees its token. A hard bounce counts once a day and address;
// Bounces.PauseAfter such days within bounceWindow pause the address: no
// board mail goes to it, the account's other addresses are told, and
// "pbemd admin user" and the player's web page show it. A mail from the
// address that proves it (see resume) ends the pause.
//
// Mail to the return path is never run as a command nor answered,
// whatever it holds; reports to the plain address are recognised by the
// loop guard (mailmsg.Ignore) and never answered, but not counted: they
// carry no token.

// Bounces is how the server's mail is returned and what bounces do.
type Bounces struct {
	// ReturnPath, when set, is the envelope sender (SMTP MAIL FROM) of
	// every mail the server sends: an address of its mailbox with
	// ReplyTokenPlace in the local part, e.g. "pbem+{token}@example.org".
	// Empty: the envelope sender is Config.Address, and bounces are not
	// counted.
	ReturnPath string
	// PauseAfter is on how many days a hard bounce must come for an
	// address to be paused; 0 means DefaultPauseAfter.
	PauseAfter int
}

const (
	// bounceTokenDays is how long a return path's token is believed: an
	// MTA retries a mail for 5 days before it gives up and reports.
	bounceTokenDays = 10
	// bounceWindow is how long the hard bounces of an address are
	// counted together; pauseLife how long a pause lasts without a mail
	// from the address (its record then lapses, so none is kept for ever).
	bounceWindow = 30 * day
	pauseLife    = 365 * day
)

// DefaultPauseAfter is Bounces.PauseAfter's default.
const DefaultPauseAfter = 3

func bouncesKey(addr string) string { return "bounces:" + strings.ToLower(addr) }
func pausedKey(addr string) string  { return "paused:" + strings.ToLower(addr) }

// bounceToken is the return path's token of a mail to addr sent at now.
func bounceToken(key []byte, addr string, now time.Time) string {
	d := strconv.FormatInt(epochDay(now), 10)
	return bounceTokenPrefix + d + "." + mac(key, "bounce", strings.ToLower(addr), d)
}

// bounceOf reports whether tok is the return path's token of a mail to
// addr sent within bounceTokenDays before now, and its day.
func bounceOf(key []byte, tok, addr string, now time.Time) (int64, bool) {
	d, ds, sum, ok := bounceDay(tok, now)
	if !ok {
		return 0, false
	}
	return d, hmac.Equal([]byte(sum), []byte(mac(key, "bounce", strings.ToLower(addr), ds)))
}

// bounceDay reads the day of a return path's token, and its MAC: ok only
// for a token of the form a return path has, of a day within
// bounceTokenDays before now. It needs no key, so a report to a token
// that is none is passed over before it is read.
func bounceDay(tok string, now time.Time) (d int64, ds, sum string, ok bool) {
	rest, ok1 := strings.CutPrefix(tok, bounceTokenPrefix)
	ds, sum, ok2 := strings.Cut(rest, ".")
	d, ok3 := parseDay(ds)
	today := epochDay(now)
	if !ok1 || !ok2 || !ok3 || d > today || today-d > bounceTokenDays {
		return 0, "", "", false
	}
	return d, ds, sum, true
}

// returnToken is the token of the return path a mail came to, or "".
func (s *Service) returnToken(m *mailmsg.Incoming) string {
	return recipientToken(m, s.cfg.Bounces.ReturnPath, func(tok string) bool {
		return strings.HasPrefix(tok, bounceTokenPrefix)
	})
}

// recipientToken returns the first token that a recipient address of m
// holds in the place of the pattern's ReplyTokenPlace and that ok accepts,
// or "". The MTA's Delivered-To and X-Original-To come first: they name
// the address the mail was delivered to.
func recipientToken(m *mailmsg.Incoming, pattern string, ok func(tok string) bool) string {
	if pattern == "" {
		return ""
	}
	for _, f := range []string{"Delivered-To", "X-Original-To", "To", "Cc"} {
		for _, v := range m.Header[f] {
			list, err := mail.ParseAddressList(v)
			if err != nil {
				continue
			}
			for _, a := range list {
				if tok := tokenOf(pattern, a.Address); tok != "" && ok(tok) {
					return tok
				}
			}
		}
	}
	return ""
}

// bounce handles a mail that came to the return path with the token tok:
// the failures its report names that the token is good for are counted.
// It is never answered.
func (r *request) bounce(tok string, raw []byte) error {
	r.outcome = outcome{result: resultIgnored, command: "bounce"}
	if _, _, _, ok := bounceDay(tok, r.now); !ok {
		r.outcome.why = "mail to a return path whose token is none, or too old"
		return nil
	}
	rep := mailmsg.ReadBounce(raw)
	if rep == nil {
		r.outcome.why = "mail to the return path that reports no failure"
		return nil
	}
	if r.s.cfg.OnBounce != nil {
		r.after = append(r.after, r.s.cfg.OnBounce)
	}
	key, err := r.s.tokens.secret(r.tx)
	if err != nil {
		return err
	}
	r.outcome.why = "a report of no address its return path's token is good for"
	for _, f := range rep.Failures {
		d, ok := bounceOf(key, tok, f.Recipient, r.now)
		if !ok {
			continue
		}
		if !f.Permanent {
			r.outcome.why = "a delay or temporary failure for " + f.Recipient
			continue
		}
		if r.outcome.why, err = r.countBounce(f.Recipient, d); err != nil {
			return err
		}
	}
	return nil
}

// countBounce counts a hard bounce of addr for a mail of the day d, once
// a day, and pauses addr at PauseAfter. It returns what it did, for the log.
func (r *request) countBounce(addr string, d int64) (string, error) {
	first, err := r.oncePer(fmt.Sprintf("bounce-day:%s:%d", strings.ToLower(addr), d), (bounceTokenDays+1)*day)
	if err != nil || !first {
		return "a hard bounce for " + addr + ", counted already for its day", err
	}
	c, err := r.counter(bouncesKey(addr), bounceWindow)
	if err != nil {
		return "", err
	}
	c.Count++
	if err := r.tx.PutCounter(bouncesKey(addr), c); err != nil {
		return "", err
	}
	most := r.s.cfg.Bounces.PauseAfter
	if most <= 0 {
		most = DefaultPauseAfter
	}
	if c.Count < most || r.paused(addr) {
		return fmt.Sprintf("a hard bounce for %s, %d of %d", addr, c.Count, most), nil
	}
	return "a hard bounce for " + addr + ": paused", r.pause(addr, c.Count)
}

// paused reports whether board mail to addr is paused.
func (r *request) paused(addr string) bool {
	_, ok := PausedSince(r.tx, addr, r.now)
	return ok
}

// PausedSince returns when board mail to addr was paused after its
// bounces, and false when it is not paused; for "pbemd admin user" and
// the web view too.
func PausedSince(tx *store.Tx, addr string, now time.Time) (time.Time, bool) {
	c, err := tx.Counter(pausedKey(addr))
	if err != nil || c.Count == 0 || !now.Before(c.Expires) {
		return time.Time{}, false // a record that does not decode pauses nothing
	}
	return c.Start, true
}

// pause stops board mail to addr and tells the other addresses of each
// account that has it.
func (r *request) pause(addr string, days int) error {
	if err := r.tx.PutCounter(pausedKey(addr), store.Counter{Start: r.now, Count: 1, Expires: r.now.Add(pauseLife)}); err != nil {
		return err
	}
	users, err := r.tx.UsersByAddress(addr)
	if err != nil {
		return err
	}
	for _, u := range users {
		text := fmt.Sprintf("Mail from %s to %s came back undelivered on %d days, so no more board mail goes to that address. Your games go on, and their clocks run.", r.s.cfg.Address, addr, days)
		see := fmt.Sprintf("See your boards with \"all show %s\"", u.ID)
		if r.s.cfg.PublicURL != "" {
			see += " or at " + r.s.cfg.PublicURL
		}
		fix := fmt.Sprintf("When the address works again, send any command from it with your password (or answer a board mail from it, or send from it through a server that signs its mail), and board mail to it resumes. Or give your account other addresses: \"change address %s PASSWORD ADDRESS ...\".", u.ID)
		body := strings.Join(model.Wrap([]string{text, see + ".", fix}, model.LineWidth), "\n\n") + "\n"
		for _, a := range u.Addresses {
			if !strings.EqualFold(a, addr) && !r.paused(a) {
				r.reply(a, "pbemd: board mail to "+addr+" paused", body, "auto-generated", "")
			}
		}
	}
	return nil
}

// resume ends the pause of the sender's address when the mail proves
// that it comes from there: its domain vouches for it, or it carries the
// password or a reply token of an account of that address. A forged From
// resumes nothing: it would only send board mail to a dead address again.
// The sender is told in the answer to his mail.
func (r *request) resume() error {
	addr := r.sender()
	since, ok := PausedSince(r.tx, addr, r.now)
	if !ok {
		return nil
	}
	proved := r.authenticated()
	for _, id := range []string{r.proved, r.tokenUser} {
		if id == "" || proved {
			continue
		}
		addrs, err := r.tx.UserAddresses(id)
		if err != nil && !errNotFound(err) {
			return err
		}
		proved = contains(addrs, addr)
	}
	if !proved {
		return nil
	}
	return r.endPause(addr, since, "Your mail shows the address works again")
}

// endPause ends the pause of board mail to addr, paused since since, and
// its count of bounces, and tells addr why (a sentence).
func (r *request) endPause(addr string, since time.Time, why string) error {
	for _, k := range []string{pausedKey(addr), bouncesKey(addr)} {
		if err := r.tx.PutCounter(k, store.Counter{Start: r.now, Expires: r.now}); err != nil {
			return err
		}
	}
	r.replyText(addr, "pbemd: board mail resumed", fmt.Sprintf(
		"Board mail to %s was paused on %s, as mail to it came back undelivered. %s: board mail goes to it from now on.\n",
		addr, since.UTC().Format(timeFormat), why))
	return nil
}

// Resume ends the pause of board mail to addr after its bounces, by the
// administrator's word that the address works again (pbemd admin), and
// tells the address. It reports whether addr was paused, and since when.
func (s *Service) Resume(addr string) (since time.Time, paused bool, err error) {
	_, err = s.adminRun(func(r *request) error {
		if since, paused = PausedSince(r.tx, addr, r.now); !paused {
			return nil
		}
		return r.endPause(addr, since, "The server's administrator has resumed it")
	})
	return since, paused, err
}

// bounceAndCompose handles a mail to the return path and composes the
// notices a pause sends to the account's other addresses.
func (r *request) bounceAndCompose(tok string, raw []byte) error {
	if err := r.bounce(tok, raw); err != nil {
		return err
	}
	return r.compose()
}
