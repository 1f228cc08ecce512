package mailmsg

import (
	"mime"
	"net/mail"
	"strings"
)

// Ignore says why a mail must never be answered, or "" when it may be. It is
// the loop guard of mail.md: answering an auto-reply, a bounce, a mailing
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
