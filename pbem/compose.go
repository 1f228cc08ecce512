package pbem

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

// A part is one reply as a command makes it. The parts of one incoming mail
// become its outgoing mails in compose:
//
//   - Answers to the sender's commands (errors, boards shown, help, lists,
//     receipts, warnings, account notices: every mail not sent through
//     mailUser) that go to the same address become one mail, so a mail of
//     many commands gets one answer.
//   - Board mails (a board's mail to each address of its players and
//     subscribers after a move, a chat, a reminder; a relayed message) go
//     as they are, one mail each: each carries its board's thread and
//     subject. Their number is bounded by the commands a mail may run.
//   - Board mails alike to many addresses (a final board to its notifiers
//     and spectators, a chat to the players: the same text and thread,
//     and no reply token of a player's own) are composed once and
//     stored as one mail in copies (store.Outgoing.ToAt) of at most
//     copiesPerMail recipients: the outbox sends each his own copy, whose
//     To names him alone, as if each had been composed for him.
//
// Every part is masked first: no password of the request leaves in it.
type part struct {
	to, subject, body string
	auto              string // Auto-Submitted
	ref               string // References root of a board's thread
	board             bool   // a board mail, never merged
	messageID         string // a board mail's own id, with its reply token (byreply.go)
	replyTo           string // a board mail's Reply-To, with its reply token
	replyLine         string // the body's line on answering it by reply, true only with its token
	list              string // the board of a watcher's mail, for List-Unsubscribe (unsubscribe.go)
	// own: an answer that shows a board (show, a board's error) goes as
	// a mail of its own, with the board's subject, as on pbmserv, so
	// that a mail filter on "Tanbo Board 101" finds it; the answer's
	// other parts are merged.
	own bool
	// attach are files sent with the mail (a board's record); only a
	// part that goes on its own keeps them.
	attach []mailmsg.Attachment
}

// compose turns the request's parts into outgoing mails in r.out, in the
// order each address first got a part. The answer to a sender nobody
// vouched for is bounded in bytes (backscatter.go); mail to an address of
// no user counts against the server's budget for strangers.
func (r *request) compose() error {
	var order []string
	groups := map[string][]*part{}
	for i, p := range r.parts {
		p.subject, p.body = r.mask(p.subject), r.maskLines(p.body)
		for i := range p.attach {
			p.attach[i].Text = r.maskLines(p.attach[i].Text)
		}
		k := p.to
		if p.board {
			k = fmt.Sprintf("%s\x00board %d", p.to, i)
		}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], p)
	}
	r.parts = nil
	// Each mail to go: one part, or the parts alike that go in copies.
	var mails [][]*part
	alike := map[sharedText]int{} // the index in mails of the open mail in copies of a text
	for _, k := range order {
		ps := groups[k]
		to := ps[0].to
		if r.mail != nil && k == r.sender() && !r.authenticated() {
			var err error
			if ps, err = r.boundAnswer(ps); err != nil {
				return err
			}
			if len(ps) == 0 {
				continue
			}
		}
		known := r.tx.KnownAddress(to)
		lang := templates.English // the answers to the sender are in his language
		if r.mail != nil && to == r.sender() {
			lang = r.language()
		}
		for _, p := range separate(lang, ps) {
			if !known {
				ok, err := r.allowStranger(to)
				if err != nil {
					return err
				}
				if !ok {
					continue
				}
			}
			if t, ok := p.text(); ok {
				if i, open := alike[t]; open && len(mails[i]) < copiesPerMail {
					mails[i] = append(mails[i], p)
					continue
				}
				alike[t] = len(mails)
			}
			mails = append(mails, []*part{p})
		}
	}
	for _, ps := range mails {
		if len(ps) == 1 {
			r.enqueue(ps[0])
		} else {
			r.enqueueCopies(ps)
		}
	}
	return nil
}

// ownMails bounds the answers of one mail that go as mails of their own
// (part.own): a multiple mail of 20 shows of 10 boards gets 20 board
// mails, and the rest in the merged one.
const ownMails = 20

// separate makes the mails of the parts to one address: each part that
// goes on its own (up to ownMails of them), then the others merged in one,
// in the order of the first of them.
func separate(lang string, ps []*part) []*part {
	var out, rest []*part
	merged := -1
	for _, p := range ps {
		if p.own && len(out) < ownMails {
			out = append(out, p)
			continue
		}
		if merged < 0 {
			merged = len(out)
			out = append(out, nil)
		}
		rest = append(rest, p)
	}
	if merged >= 0 {
		out[merged] = merge(lang, rest)
	}
	return out
}

// mails counts the request's outgoing mails as their recipients get them:
// a mail in copies is one to each.
func (r *request) mails() int {
	n := 0
	for _, out := range r.out {
		n += len(out.To)
	}
	return n
}

// copiesPerMail bounds the recipients of one mail in copies, so that its
// outbox record's size and one send of it by the outbox are bounded; more
// recipients make more such mails.
const copiesPerMail = 100

// A sharedText is what a mail in copies is the same for: every header but To,
// and the body.
type sharedText struct{ subject, body, auto, ref, list string }

// text returns what p would share with a mail in copies, and false when p
// must go on its own: an answer, or a board mail with a reply token.
func (p *part) text() (sharedText, bool) {
	if !p.board || p.messageID != "" || p.replyTo != "" {
		return sharedText{}, false
	}
	return sharedText{p.subject, p.body, p.auto, p.ref, p.list}, true
}

// merge makes one mail of parts to one address. One part is sent as it is.
func merge(lang string, ps []*part) *part {
	if len(ps) == 1 {
		return ps[0]
	}
	m := &part{to: ps[0].to, auto: ps[0].auto, subject: fmt.Sprintf("pbemd: %d replies to your mail", len(ps))}
	for _, p := range ps {
		if m.ref == "" {
			m.ref = p.ref // the thread of the first board it shows
		}
	}
	var b strings.Builder
	b.WriteString(templates.Sprintf(lang, "This mail holds %d replies to your mail, in the order of its commands.\n", len(ps)))
	for i, p := range ps {
		// The merged mail has an id of its own, so no part's token: a
		// part's line on answering it by reply would mislead.
		body := p.body
		if p.replyLine != "" {
			body = strings.Replace(body, "\n"+p.replyLine+"\n", "", 1)
		}
		fmt.Fprintf(&b, "\n======== %d of %d: %s ========\n\n%s", i+1, len(ps), p.subject, body)
		if !strings.HasSuffix(body, "\n") {
			b.WriteByte('\n')
		}
	}
	m.body = b.String()
	return m
}

// enqueue composes one mail and adds it to r.out.
func (r *request) enqueue(p *part) {
	data, err := r.mailOf(p, p.to).Bytes()
	if err != nil {
		// Only an address that cannot be written in a header (a sender's
		// odd From) gets here: such a mail could not be sent anyway.
		r.logger().Warn("reply not composed", "to", p.to, "subject", p.subject, "err", err)
		return
	}
	r.out = append(r.out, &store.Outgoing{
		From:   r.s.cfg.Address,
		To:     []string{p.to},
		Data:   data,
		Queued: r.now,
		List:   p.list,
	})
}

// enqueueCopies composes once the mail that the parts, alike but for their
// addresses, make, and adds it to r.out as one mail in copies.
func (r *request) enqueueCopies(ps []*part) {
	var to []string
	for _, p := range ps {
		if err := mailmsg.CheckAddress(p.to); err != nil {
			r.logger().Warn("reply not composed", "to", p.to, "subject", p.subject, "err", err)
			continue
		}
		to = append(to, p.to)
	}
	data, toAt, err := r.mailOf(ps[0], "").Shared()
	if err != nil || len(to) == 0 {
		if err != nil {
			r.logger().Warn("reply not composed", "to", to, "subject", ps[0].subject, "err", err)
		}
		return
	}
	r.out = append(r.out, &store.Outgoing{
		From:   r.s.cfg.Address,
		To:     to,
		Data:   data,
		ToAt:   toAt,
		Queued: r.now,
		List:   ps[0].list,
	})
}

// mailOf is the mail that p makes, to the address.
func (r *request) mailOf(p *part, to string) *mailmsg.Mail {
	m := &mailmsg.Mail{
		From:          r.s.from(),
		To:            to,
		Subject:       p.subject,
		Body:          p.body,
		MessageID:     r.s.NewID(),
		Date:          r.now,
		AutoSubmitted: p.auto,
		ReplyTo:       p.replyTo,
		Attachments:   p.attach,
	}
	if p.messageID != "" {
		m.MessageID = p.messageID
	}
	if r.mail != nil && r.mail.MessageID != "" {
		m.InReplyTo = r.mail.MessageID
	}
	if p.ref != "" {
		m.References = append(m.References, p.ref)
	}
	if m.InReplyTo != "" {
		m.References = append(m.References, m.InReplyTo)
	}
	return m
}

// shorten returns s cut to at most n bytes and " ..." when something was
// cut: at a word's end when one is within 30 bytes, else at a character
// boundary, so that a shortened message reads as one.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	// At a word's end when one is near, so that no word is cut in two.
	if sp := strings.LastIndexByte(s[:n], ' '); sp > 0 && n-sp <= 30 {
		n = sp
	}
	return strings.TrimRight(s[:n], " ,;:") + " ..."
}
