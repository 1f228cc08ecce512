package mailmsg

import (
	"net/mail"
	"strings"
	"testing"
)

func TestIgnore(t *testing.T) {
	t.Parallel()
	own := []string{"pbemd <pbem@example.org>", "games@example.org"}
	tests := []struct {
		name   string
		header string
		want   string // a word of the reason, "" for no reason
	}{
		{"plain mail", "From: alice@example.com\r\n", ""},
		{"Auto-Submitted: no", "From: alice@example.com\r\nAuto-Submitted: no\r\n", ""},
		{"Auto-Submitted: auto-generated", "From: alice@example.com\r\nAuto-Submitted: auto-generated\r\n", "Auto-Submitted"},
		{"Auto-Submitted with a comment", "From: alice@example.com\r\nAuto-Submitted: auto-replied (vacation)\r\n", "Auto-Submitted"},
		{"Auto-Submitted: No; x=y", "From: alice@example.com\r\nAuto-Submitted: No; x=y\r\n", ""},
		{"Precedence bulk", "From: alice@example.com\r\nPrecedence: bulk\r\n", "Precedence"},
		{"Precedence list", "From: alice@example.com\r\nPrecedence: List\r\n", "Precedence"},
		{"Precedence junk", "From: alice@example.com\r\nPrecedence: junk\r\n", "Precedence"},
		{"Precedence first-class", "From: alice@example.com\r\nPrecedence: first-class\r\n", ""},
		{"List-Id", "From: alice@example.com\r\nList-Id: <x.example.com>\r\n", "List-Id"},
		{"null return path", "Return-Path: <>\r\nFrom: alice@example.com\r\n", "return path"},
		{"null return path with spaces", "Return-Path: < >\r\nFrom: alice@example.com\r\n", "return path"},
		{"multipart/report", "From: alice@example.com\r\nContent-Type: multipart/report; report-type=disposition-notification; boundary=b\r\n", "multipart/report"},
		{"MAILER-DAEMON", "From: Mail Delivery Subsystem <MAILER-DAEMON@example.com>\r\n", "MAILER-DAEMON"},
		{"postmaster", "From: postmaster@example.com\r\n", "postmaster"},
		{"noreply", "From: noreply@example.com\r\n", "noreply"},
		{"no-reply with tag", "From: no-reply+abc@example.com\r\n", "no-reply"},
		{"do-not-reply", "From: Shop <do-not-reply@shop.example>\r\n", "do-not-reply"},
		{"donotreply", "From: DoNotReply@shop.example\r\n", "DoNotReply"},
		{"a player named noreplyfan", "From: noreplyfan@example.com\r\n", ""},
		{"bounce return path", "Return-Path: <MAILER-DAEMON@example.com>\r\nFrom: alice@example.com\r\n", "MAILER-DAEMON"},
		{"own address", "From: pbemd <pbem@example.org>\r\n", "own"},
		{"own address, other case", "From: PBEM@Example.ORG\r\n", "own"},
		{"own second address", "From: games@example.org\r\n", "own"},
		{"no From", "Subject: x\r\n", "From"},
		{"X-Auto-Response-Suppress: All", "From: alice@example.com\r\nX-Auto-Response-Suppress: All\r\n", "X-Auto-Response-Suppress"},
		{"X-Auto-Response-Suppress: DR, OOF", "From: alice@example.com\r\nX-Auto-Response-Suppress: DR, OOF, AutoReply\r\n", "X-Auto-Response-Suppress"},
		{"X-Auto-Response-Suppress: None", "From: alice@example.com\r\nX-Auto-Response-Suppress: None\r\n", ""},
		{"Out of Office subject", "From: alice@example.com\r\nSubject: Out of Office: Ultima Board 101 alice\r\n", "automatic reply"},
		{"Automatic reply subject", "From: alice@example.com\r\nSubject: Automatic reply: tanbo move 101\r\n", "automatic reply"},
		{"Auto: subject", "From: alice@example.com\r\nSubject: AUTO: Alice is away\r\n", "auto:"},
		{"Autoreply subject", "From: alice@example.com\r\nSubject: Autoreply\r\n", "autoreply"},
		{"German subject", "From: alice@example.com\r\nSubject: Abwesenheitsnotiz: Tanbo Board 102\r\n", "abwesenheitsnotiz"},
		{"encoded French subject", "From: alice@example.com\r\nSubject: =?utf-8?q?R=C3=A9ponse_automatique=C2=A0:_x?=\r\n", "automatique"},
		{"a command is answered", "From: alice@example.com\r\nSubject: Re: ultima move 101 alice pw out of office\r\n", ""},
		{"automatic in a later word is answered", "From: alice@example.com\r\nSubject: help automatic reply\r\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ReadMail([]byte(tt.header + "\r\nbody\r\n"))
			if err != nil {
				t.Fatal(err)
			}
			why := m.Ignore(own)
			if tt.want == "" && why != "" || tt.want != "" && !strings.Contains(why, tt.want) {
				t.Errorf("Ignore = %q, want %q", why, tt.want)
			}
		})
	}
}

// TestIgnoreBuilt checks Ignore on an Incoming made by hand, as tests of the
// command core make them: it reads only the exported fields.
func TestIgnoreBuilt(t *testing.T) {
	t.Parallel()
	m := &Incoming{From: "alice@example.com", Header: mail.Header{"Content-Type": {`Multipart/Report; boundary="x"`}}}
	if why := m.Ignore(nil); !strings.Contains(why, "multipart/report") {
		t.Errorf("Ignore = %q, want multipart/report", why)
	}
	m = &Incoming{From: "alice@example.com"}
	if why := m.Ignore(nil); why != "" {
		t.Errorf("Ignore = %q, want the mail answered", why)
	}
}
