package pbem

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/store"
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
//
// Every part is masked first: no password of the request leaves in it.
type part struct {
	to, subject, body string
	auto              string // Auto-Submitted
	ref               string // References root of a board's thread
	board             bool   // a board mail, never merged
	messageID         string // a board mail's own id, with its reply token (byreply.go)
	replyTo           string // a board mail's Reply-To, with its reply token
}

// compose turns the request's parts into outgoing mails in r.out, in the
// order each address first got a part. Mail to an address of no user
// counts against the server's budget for strangers.
func (r *request) compose() error {
	var order []string
	groups := map[string][]*part{}
	for i, p := range r.parts {
		p.subject, p.body = r.mask(p.subject), r.mask(p.body)
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
	for _, k := range order {
		ps := groups[k]
		to := ps[0].to
		if !r.tx.KnownAddress(to) {
			ok, err := r.allowStranger(to)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
		}
		r.enqueue(merge(ps))
	}
	return nil
}

// merge makes one mail of parts to one address. One part is sent as it is.
func merge(ps []*part) *part {
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
	fmt.Fprintf(&b, "This mail holds %d replies to your mail, in the order of its commands.\n", len(ps))
	for i, p := range ps {
		fmt.Fprintf(&b, "\n======== %d of %d: %s ========\n\n%s", i+1, len(ps), p.subject, p.body)
		if !strings.HasSuffix(p.body, "\n") {
			b.WriteByte('\n')
		}
	}
	m.body = b.String()
	return m
}

// enqueue composes one mail and adds it to r.out.
func (r *request) enqueue(p *part) {
	m := &mailmsg.Mail{
		From:          r.s.from(),
		To:            p.to,
		Subject:       p.subject,
		Body:          p.body,
		MessageID:     r.s.NewID(),
		Date:          r.now,
		AutoSubmitted: p.auto,
		ReplyTo:       p.replyTo,
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
	data, err := m.Bytes()
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
	})
}

// shorten returns s cut to at most n bytes, at a character boundary, with
// "..." when something was cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
