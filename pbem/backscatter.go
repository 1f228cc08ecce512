package pbem

import (
	"fmt"
	"strings"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
)

// Backscatter: a mail whose From nobody vouches for (not authenticated,
// docs/trust.md) may have been written by anyone in the name of the
// address it shows, and its answer goes to that address. Reading
// commands need no password, so one short mail of "all show USER all"
// lines could draw hundreds of KB to a victim's mailbox. The answers to
// such a mail (errors, boards shown, help, lists: everything that goes to
// the sender's address but board mails, which go to the players'
// registered addresses and need a password or a reply token) are bounded
// in bytes per mail, per address and Window, and for all such senders
// together per Window (Limits.AnswerBytes and its kin). What does not fit
// is replaced by a short notice that says what was withheld, why, and
// what works instead. An authenticated sender's answers are not bounded:
// they go to the one who asked.

// Counter keys in the store: the bytes of answers sent to one address,
// and to all addresses together, for mail nobody vouched for.
func answerBytesKey(addr string) string { return "answer-bytes:" + addr }

const allAnswerBytesKey = "answer-bytes"

// boundAnswer returns the parts of the answer to the sender that fit the
// bytes he may still get, in their order, and a notice in place of the
// rest, all within those bytes; it counts what goes. The notice after a
// bound of a window (the address's or all senders') goes once a window,
// even if it does not fit; later mails over it get no answer at all.
func (r *request) boundAnswer(ps []*part) ([]*part, error) {
	lim := r.s.limits
	addr := r.sender()
	mine, err := r.counter(answerBytesKey(addr), lim.Window)
	if err != nil {
		return nil, err
	}
	all, err := r.counter(allAnswerBytesKey, lim.Window)
	if err != nil {
		return nil, err
	}
	room := min(lim.AnswerBytes, lim.AddressAnswerBytes-mine.Count, lim.AllAnswerBytes-all.Count)
	kept := 0
	for size := 0; kept < len(ps); kept++ {
		if size += answerSize(ps[kept]); size > room {
			break
		}
	}
	out := ps
	if kept < len(ps) {
		why, until := "", time.Time{}
		switch {
		case lim.AllAnswerBytes-all.Count == room:
			until = all.Start.Add(lim.Window)
			why = fmt.Sprintf("all such answers together are at most %d bytes in %s, and those are spent until %s",
				lim.AllAnswerBytes, shortDuration(lim.Window), until.UTC().Format(timeFormat))
			if !all.Warned {
				all.Warned = true
				r.logger().Warn("budget of answers to unauthenticated mail spent; more are withheld until the window ends",
					"budget", lim.AllAnswerBytes, "window", lim.Window, "until", until)
			}
		case lim.AddressAnswerBytes-mine.Count == room:
			until = mine.Start.Add(lim.Window)
			why = fmt.Sprintf("one address gets at most %d bytes of them in %s, and yours has had them; more go after %s",
				lim.AddressAnswerBytes, shortDuration(lim.Window), until.UTC().Format(timeFormat))
		default:
			why = fmt.Sprintf("one mail gets at most %d bytes of them", lim.AnswerBytes)
		}
		notice := until.IsZero() || !mine.Warned
		mine.Warned = mine.Warned || !until.IsZero()
		// The notice and the headings of a merged mail take room too:
		// fewer parts go until all fits.
		for {
			out = ps[:kept:kept]
			if notice {
				out = append(out, r.withheldNotice(ps[kept:], why, until))
			}
			if kept == 0 || answersSize(r.language(), out) <= room {
				break
			}
			kept--
		}
	}
	if len(out) > 0 {
		used := answersSize(r.language(), out)
		mine.Count += used
		all.Count += used
	}
	if err := r.tx.PutCounter(answerBytesKey(addr), mine); err != nil {
		return nil, err
	}
	return out, r.tx.PutCounter(allAnswerBytesKey, all)
}

// answersSize is what the parts of an answer count as they go: each
// part on its own with its attached files, the others merged (separate),
// whose files merging drops.
func answersSize(lang string, ps []*part) int {
	n := 0
	for _, p := range separate(lang, ps) {
		n += answerSize(p)
	}
	return n
}

// answerSize is what a part of an answer counts: its text and its
// attached files, as they are sent (sentLen).
func answerSize(p *part) int {
	n := sentLen(p.subject) + sentLen(p.body)
	for _, a := range p.attach {
		n += sentLen(a.Text)
	}
	return n
}

// sentLen is the bytes text takes in a mail: ASCII goes as it is, and each
// other byte as the three of quoted-printable's "=XX" (mailmsg), so that a
// comment in other letters draws no more than its count to a forged From.
func sentLen(text string) int {
	n := len(text)
	for i := 0; i < len(text); i++ {
		if text[i] >= 0x80 {
			n += 2
		}
	}
	return n
}

// withheldNotice is the part that stands for the parts withheld: what they
// were, why they were withheld, and what works instead.
func (r *request) withheldNotice(withheld []*part, why string, until time.Time) *part {
	size := 0
	var names []string
	for i, p := range withheld {
		size += answerSize(p)
		if i < 5 {
			names = append(names, fmt.Sprintf("%q", shorten(p.subject, 60)))
		}
	}
	if len(withheld) > 5 {
		names = append(names, fmt.Sprintf("and %d more", len(withheld)-5))
	}
	what := fmt.Sprintf("%d answers to your mail (%d bytes) were not sent: %s.", len(withheld), size, strings.Join(names, ", "))
	if len(withheld) == 1 {
		what = fmt.Sprintf("An answer to your mail (%d bytes) was not sent: %s.", size, names[0])
	}
	reason := fmt.Sprintf("No signature of your address's domain (DKIM or DMARC) vouched for your mail, so anyone may have sent it in your name, and the answers to such mail are bounded: %s.", why)
	instead := "Send from an address whose domain signs its mail, or ask for fewer boards in one mail"
	if r.s.cfg.PublicURL != "" {
		instead += ", or see the boards on the web at " + r.s.cfg.PublicURL
	}
	if !until.IsZero() {
		instead += ", or send again after " + until.UTC().Format(timeFormat)
	}
	body := strings.Join(model.Wrap([]string{what, reason, instead + "."}, model.LineWidth), "\n\n") + "\n"
	return &part{to: r.sender(), subject: "pbemd: answer withheld", body: body, auto: "auto-replied"}
}
