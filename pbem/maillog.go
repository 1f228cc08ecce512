package pbem

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/pbemd/pbemd/pbem/mailmsg"
)

// One log line per mail handled, for the operator: who sent it, which
// command, game, board and user, what came of it, how many replies it
// queued and how long it took. The line goes through the request's masked
// logger: no password appears in it. The Message-ID is logged as a short
// hash: enough to find the mail again, without its host names.

// Results of a mail.
const (
	resultPlayed  = "played"  // the command was carried out
	resultRefused = "refused" // answered with an error reply
	resultIgnored = "ignored" // no command run and no answer
	resultInvited = "invited" // a challenge that only invites (invitations.go)
)

// outcome is what the log line of a mail says of its commands.
type outcome struct {
	result string // resultPlayed, resultRefused, resultIgnored; "" until known
	// command is the first command run: "move", "challenge", "show";
	// "multiple" for a multiple mail.
	command string
	why     string // for refused and ignored
	carried bool   // some command of the mail was carried out
	game    string
	board   int
	user    string
}

// note records the result of one command. Of several (a multiple mail, or
// a command that notes its own), the line shows the first refusal, else
// the first command ignored, else played.
func (o *outcome) note(result, why string) {
	o.carried = o.carried || result == resultPlayed
	if rank[result] > rank[o.result] {
		o.result, o.why = result, why
	}
}

var rank = map[string]int{resultPlayed: 1, resultInvited: 2, resultIgnored: 3, resultRefused: 4}

// messageHash is the short hash of a mail's Message-ID (or, without one,
// of its key) that log lines show.
func messageHash(m *mailmsg.Incoming) string {
	id := m.MessageID
	if id == "" {
		id = m.Key
	}
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:6])
}

// logMail writes the log line of a mail. r is nil for a mail ignored
// before its command was read (why says why).
func (s *Service) logMail(m *mailmsg.Incoming, r *request, why string, start time.Time) {
	log := s.log
	attrs := []any{"from", m.From, "msgid", messageHash(m)}
	if r == nil {
		attrs = append(attrs, "result", resultIgnored, "why", why)
	} else {
		log = r.logger()
		o := r.outcome
		if o.result == "" {
			o.result = resultPlayed
		}
		attrs = append(attrs, "command", o.command, "game", o.game, "board", o.board, "user", o.user,
			"result", o.result)
		if o.why != "" {
			attrs = append(attrs, "why", o.why)
		}
		attrs = append(attrs, "auth", r.vouched.How, "replies", r.mails())
	}
	attrs = append(attrs, "ms", time.Since(start).Milliseconds())
	log.Info("mail", attrs...)
}
