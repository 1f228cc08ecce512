package mailmsg

import (
	"mime"
	"net/mail"
	"strings"
)

// Ignore says why a mail must never be answered, or "" when it may be. It is
// the loop guard of docs/commands.md: answering an auto-reply, a bounce, a mailing
// list or ourselves could start a mail loop. own are the server's addresses,
// with or without display names, compared case-insensitively.
func (m *Incoming) Ignore(own []string) string {
	h := m.Header
	if v := h.Get("Auto-Submitted"); v != "" {
		kw, _, _ := strings.Cut(v, ";")
		if !strings.EqualFold(strings.TrimSpace(kw), "no") {
			return "Auto-Submitted: " + v
		}
	}
	for _, k := range []string{"X-Autoreply", "X-Autorespond"} {
		if v := h.Get(k); v != "" {
			return k + ": " + v
		}
	}
	// Exchange asks for no automatic answer with this field (All, OOF,
	// AutoReply, DR, NDR, ...), and puts it on its own auto-replies.
	if vs, ok := h["X-Auto-Response-Suppress"]; ok {
		if v := strings.TrimSpace(strings.Join(vs, ",")); !strings.EqualFold(v, "none") {
			return "X-Auto-Response-Suppress: " + v
		}
	}
	switch p := strings.ToLower(strings.TrimSpace(h.Get("Precedence"))); p {
	case "bulk", "list", "junk", "auto_reply":
		return "Precedence: " + p
	}
	if v := h.Get("List-Id"); v != "" {
		return "List-Id: " + v
	}
	if m.ReturnPath == "<>" {
		return "empty return path (a bounce or auto-reply)"
	}
	if mt, _, _ := mime.ParseMediaType(h.Get("Content-Type")); mt == "multipart/report" {
		return "multipart/report (a delivery or read report)"
	}
	if m.From == "" {
		return "no sender address in From"
	}
	if p := autoReplySubject(m.Subject); p != "" {
		return "the subject of an automatic reply: " + p
	}
	for _, a := range []string{m.From, m.ReturnPath} {
		if robotAddress(a) {
			return "automatic sender " + a
		}
	}
	for _, o := range own {
		if a, err := mail.ParseAddress(o); err == nil {
			o = a.Address
		}
		if strings.EqualFold(strings.TrimSpace(o), m.From) {
			return "mail from the server's own address " + m.From
		}
	}
	return ""
}

// robotAddress reports whether addr belongs to a mailer or to a sender that
// takes no replies: MAILER-DAEMON, postmaster, no-reply and its spellings,
// also with a "+tag" or "-suffix" ("noreply-123@").
func robotAddress(addr string) bool {
	at := strings.LastIndexByte(addr, '@')
	if at < 0 {
		at = len(addr)
	}
	local := strings.ToLower(addr[:at])
	for _, r := range []string{"mailer-daemon", "postmaster", "no-reply", "noreply", "do-not-reply", "donotreply", "no_reply", "do_not_reply"} {
		if local == r {
			return true
		}
		if strings.HasPrefix(local, r) && strings.ContainsRune("+-._", rune(local[len(r)])) {
			return true
		}
	}
	return false
}

// autoReplySubjects begin the subjects of out-of-office and other automatic
// replies sent without Auto-Submitted, in the languages of common clients.
// Only a prefix counts: no command starts with one of these.
var autoReplySubjects = []string{
	"out of office", "out of the office", "automatic reply", "auto:", "autoreply", "auto-reply", "auto reply",
	"abwesenheitsnotiz", "automatische antwort", "r\u00e9ponse automatique", "respuesta autom\u00e1tica",
	"risposta automatica", "automatisch antwoord", "autosvar", "automaattinen vastaus",
}

// autoReplySubject returns the prefix of autoReplySubjects that subject
// starts with, or "".
func autoReplySubject(subject string) string {
	s := strings.ToLower(strings.TrimSpace(subject))
	for _, p := range autoReplySubjects {
		if strings.HasPrefix(s, p) {
			return p
		}
	}
	return ""
}
