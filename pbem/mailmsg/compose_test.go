package mailmsg

import (
	"bytes"
	"flag"
	"mime"
	"net/mail"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// update is -update: rewrite the golden files of testdata/mail (read the
// diff before committing it).
var update = flag.Bool("update", false, "rewrite the golden files")

var mailTestDate = time.Date(2026, 11, 22, 10, 15, 0, 0, time.FixedZone("CET", 3600))

// mailBoard is an ASCII board as pbemd sends it: columns padded with spaces, and
// lines that end in spaces, which must arrive as they are.
const mailBoard = "Summary of Ultima Board 101\n" +
	"\n" +
	"It is alice's turn.\n" +
	"\n" +
	"   a b c d e f g h   \n" +
	"8  R N I W K I C L  8\n" +
	"7  P P P P P P P P  7\n" +
	"6  - - - - - - - -  6\n" +
	"\n" +
	"bob writes:\n" +
	"Trailing spaces here:   \n" +
	"From the start of a line, and a lone dot:\n" +
	".\n"

func mailGoldens() map[string]*Mail {
	return map[string]*Mail{
		"out-board": {
			From:          "pbemd <pbem@example.org>",
			To:            "alice@example.com",
			Subject:       "Ultima Board 101 alice **",
			Body:          mailBoard,
			MessageID:     "k3w7q2zj5x4m6n8p0r1t9v3b@example.org",
			InReplyTo:     "CAFx3y2ZtqP5wQ8n0=8uJcVbX2@mail.gmail.com",
			References:    []string{"root101@example.org", "CAFx3y2ZtqP5wQ8n0=8uJcVbX2@mail.gmail.com"},
			Date:          mailTestDate,
			AutoSubmitted: "auto-replied",
		},
		"out-utf8": {
			From:          "pbemd <pbem@example.org>",
			To:            "J\u00f6rg M\u00fcller <joerg@example.de>",
			Subject:       "Nag: Ultima Board 101 j\u00f6rg",
			Body:          "J\u00f6rg, it is your move on Ultima Board 101.   \nYou forfeit in 14 days.\n",
			MessageID:     "n4g5x6y7z8a9b0c1d2e3f4g5@example.org",
			References:    []string{"root101@example.org"},
			Date:          mailTestDate,
			AutoSubmitted: "auto-generated",
		},
		"out-long": {
			From:          "pbem@example.org",
			To:            "bob@example.net",
			Subject:       "Tanbo Board 102 Error",
			Body:          "A line of " + strings.Repeat("0123456789", 110) + "\nends here",
			MessageID:     "l0ng1ine2x3y4z5a6b7c8d9e@example.org",
			InReplyTo:     "a9d0e6b2-77c4-4e0f-8d2b-1f2e3d4c5b6a@example.net",
			References:    []string{"root102@example.org", "first-reply-of-a-long-thread@example.org", "second-reply-of-a-long-thread@example.org", "a9d0e6b2-77c4-4e0f-8d2b-1f2e3d4c5b6a@example.net"},
			Date:          mailTestDate,
			AutoSubmitted: "auto-replied",
		},
	}
}

// TestMailGolden compares Bytes with the golden files; go test -update
// rewrites them (read the diff before committing it).
func TestMailGolden(t *testing.T) {
	t.Parallel()
	for name, m := range mailGoldens() {
		t.Run(name, func(t *testing.T) {
			got, err := m.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "mail", name+".golden")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Bytes differs from %s:\n%s\nwant:\n%s", path, got, want)
			}
			again, _ := m.Bytes()
			if !bytes.Equal(got, again) {
				t.Error("Bytes gives different bytes for the same Mail")
			}
		})
	}
}

// splitRendered splits a rendered mail; it fails the test on a line that
// does not end in CRLF.
func splitRendered(t *testing.T, b []byte) (header map[string]string, body string) {
	t.Helper()
	s := string(b)
	if strings.Contains(strings.ReplaceAll(s, "\r\n", ""), "\n") || strings.Contains(strings.ReplaceAll(s, "\r\n", ""), "\r") {
		t.Fatalf("mail has line ends other than CRLF:\n%q", s)
	}
	h, body, ok := strings.Cut(s, "\r\n\r\n")
	if !ok {
		t.Fatalf("no blank line after the header:\n%q", s)
	}
	header = map[string]string{}
	for _, l := range strings.Split(strings.ReplaceAll(h, "\r\n ", " "), "\r\n") {
		k, v, _ := strings.Cut(l, ": ")
		if _, dup := header[k]; dup {
			t.Errorf("header field %s twice", k)
		}
		header[k] = v
	}
	return header, body
}

func TestMailSevenBit(t *testing.T) {
	t.Parallel()
	m := mailGoldens()["out-board"]
	b, err := m.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	h, body := splitRendered(t, b)
	if h["Content-Type"] != "text/plain; charset=us-ascii" || h["Content-Transfer-Encoding"] != "7bit" {
		t.Errorf("Content-Type %q, Content-Transfer-Encoding %q, want us-ascii 7bit", h["Content-Type"], h["Content-Transfer-Encoding"])
	}
	if want := strings.ReplaceAll(mailBoard, "\n", "\r\n"); body != want {
		t.Errorf("body not byte-exact:\n%q\nwant\n%q", body, want)
	}
	if strings.Contains(string(b), "format=flowed") {
		t.Error("format=flowed used")
	}
	for k, want := range map[string]string{
		"Date":           "Sun, 22 Nov 2026 10:15:00 +0100",
		"From":           "pbemd <pbem@example.org>",
		"To":             "alice@example.com",
		"Subject":        "Ultima Board 101 alice **",
		"Message-ID":     "<k3w7q2zj5x4m6n8p0r1t9v3b@example.org>",
		"In-Reply-To":    "<CAFx3y2ZtqP5wQ8n0=8uJcVbX2@mail.gmail.com>",
		"References":     "<root101@example.org> <CAFx3y2ZtqP5wQ8n0=8uJcVbX2@mail.gmail.com>",
		"Auto-Submitted": "auto-replied",
		"MIME-Version":   "1.0",
	} {
		if h[k] != want {
			t.Errorf("%s: %q, want %q", k, h[k], want)
		}
	}
}

func TestMailQuotedPrintable(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, body string }{
		{"non-ASCII", "J\u00f6rg to move.\n"},
		{"line of 999 octets", strings.Repeat("x", 999) + "\n"},
		{"NUL byte", "a\x00b\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &Mail{From: "pbem@example.org", To: "a@example.com", Subject: "x", Body: tt.body,
				MessageID: "1@example.org", Date: mailTestDate, AutoSubmitted: "auto-replied"}
			b, err := m.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			h, body := splitRendered(t, b)
			if h["Content-Type"] != "text/plain; charset=utf-8" || h["Content-Transfer-Encoding"] != "quoted-printable" {
				t.Errorf("Content-Type %q, Content-Transfer-Encoding %q, want utf-8 quoted-printable", h["Content-Type"], h["Content-Transfer-Encoding"])
			}
			for _, l := range strings.Split(body, "\r\n") {
				if len(l) > 76 {
					t.Errorf("quoted-printable line of %d octets", len(l))
				}
			}
		})
	}
	// A bare CR is a line break like "\n", not a byte to encode.
	m0 := &Mail{From: "pbem@example.org", To: "a@example.com", Subject: "x", Body: "a\rb\r\nc\n",
		MessageID: "1@example.org", Date: mailTestDate, AutoSubmitted: "auto-replied"}
	b0, _ := m0.Bytes()
	if h, body := splitRendered(t, b0); h["Content-Transfer-Encoding"] != "7bit" || body != "a\r\nb\r\nc\r\n" {
		t.Errorf("bare CR: Content-Transfer-Encoding %q, body %q, want 7bit \"a\\r\\nb\\r\\nc\\r\\n\"", h["Content-Transfer-Encoding"], body)
	}
	// 998 octets still go as they are.
	m := &Mail{From: "pbem@example.org", To: "a@example.com", Subject: "x", Body: strings.Repeat("x", 998) + "\n",
		MessageID: "1@example.org", Date: mailTestDate, AutoSubmitted: "auto-replied"}
	b, _ := m.Bytes()
	if h, _ := splitRendered(t, b); h["Content-Transfer-Encoding"] != "7bit" {
		t.Errorf("998-octet line: Content-Transfer-Encoding %q, want 7bit", h["Content-Transfer-Encoding"])
	}
}

func TestMailSubject(t *testing.T) {
	t.Parallel()
	tests := []struct{ subject, header string }{
		{"Ultima Board 101 alice", "Ultima Board 101 alice"},
		{"Nag: Ultima Board 101 j\u00f6rg", "=?utf-8?q?Nag:_Ultima_Board_101_j=C3=B6rg?="},
		// A line break in a subject must not start a new header field.
		{"x\r\nBcc: victim@example.com", "x  Bcc: victim@example.com"},
	}
	for _, tt := range tests {
		m := &Mail{From: "pbem@example.org", To: "a@example.com", Subject: tt.subject, Body: "x\n",
			MessageID: "1@example.org", Date: mailTestDate, AutoSubmitted: "auto-replied"}
		b, err := m.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		h, _ := splitRendered(t, b)
		if h["Subject"] != tt.header {
			t.Errorf("Subject %q rendered %q, want %q", tt.subject, h["Subject"], tt.header)
		}
		if _, ok := h["Bcc"]; ok {
			t.Errorf("Subject %q made a Bcc field", tt.subject)
		}
	}
}

func TestMailRoundTrip(t *testing.T) {
	t.Parallel()
	mails := mailGoldens()
	mails["empty body"] = &Mail{From: "pbem@example.org", To: "a@example.com", Subject: "help",
		MessageID: "2@example.org", Date: mailTestDate, AutoSubmitted: "auto-replied"}
	mails["long subject"] = &Mail{From: "pbem@example.org", To: "a@example.com",
		Subject:   "Ultima Board 101 Error: the move e2-e9 is not on the board; squares go from a1 to h8, for example e2-e4",
		Body:      "\u00e9t\u00e9 \u2013 trailing space \nand tab\t\n=3D not an escape\n",
		MessageID: "3@example.org", Date: mailTestDate, AutoSubmitted: "auto-replied"}
	mails["long non-ASCII subject"] = &Mail{From: "pbem@example.org", To: "a@example.com",
		Subject:   strings.Repeat("J\u00f6rg M\u00fcller ", 12) + "**",
		Body:      "x\n",
		MessageID: "4@example.org", Date: mailTestDate, AutoSubmitted: "auto-replied"}
	for name, m := range mails {
		t.Run(name, func(t *testing.T) {
			b, err := m.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			got, err := ReadMail(b)
			if err != nil {
				t.Fatal(err)
			}
			wantText := m.Body
			if wantText != "" && !strings.HasSuffix(wantText, "\n") {
				wantText += "\n" // Bytes ends the body with a line break
			}
			if got.Subject != m.Subject || got.Text != wantText || got.MessageID != m.MessageID {
				t.Errorf("round trip gave Subject %q, Text %q, MessageID %q\nwant                 %q, %q, %q", got.Subject, got.Text, got.MessageID, m.Subject, wantText, m.MessageID)
			}
			if got.InReplyTo != m.InReplyTo || !slices.Equal(got.References, m.References) || !got.Date.Equal(m.Date) {
				t.Errorf("round trip gave In-Reply-To %q, References %q, Date %v, want %q, %q, %v", got.InReplyTo, got.References, got.Date, m.InReplyTo, m.References, m.Date)
			}
			if got.Header.Get("Auto-Submitted") != m.AutoSubmitted {
				t.Errorf("Auto-Submitted = %q, want %q", got.Header.Get("Auto-Submitted"), m.AutoSubmitted)
			}
			// pbemd must never answer its own mail.
			if why := got.Ignore([]string{"pbem@example.org"}); why == "" {
				t.Error("Ignore answers the server's own mail")
			}
			for _, l := range strings.Split(string(b), "\r\n") {
				if len(l) > 998 {
					t.Errorf("line of %d octets", len(l))
				}
			}
		})
	}
}

func TestMailBytesErrors(t *testing.T) {
	t.Parallel()
	ok := func() *Mail {
		return &Mail{From: "pbemd <pbem@example.org>", To: "a@example.com", Subject: "x", Body: "x\n",
			MessageID: "1@example.org", Date: mailTestDate, AutoSubmitted: "auto-replied"}
	}
	if _, err := ok().Bytes(); err != nil {
		t.Fatalf("valid mail: %v", err)
	}
	tests := []struct {
		name   string
		change func(*Mail)
	}{
		{"no From", func(m *Mail) { m.From = "" }},
		{"no To", func(m *Mail) { m.To = "" }},
		{"two recipients", func(m *Mail) { m.To = "a@example.com, b@example.com" }},
		{"To with a line break", func(m *Mail) { m.To = "a@example.com\r\nBcc: b@example.com" }},
		{"not an address", func(m *Mail) { m.To = "alice" }},
		{"no Message-ID", func(m *Mail) { m.MessageID = "" }},
		{"Message-ID in brackets", func(m *Mail) { m.MessageID = "<1@example.org>" }},
		{"Message-ID with a control byte", func(m *Mail) { m.MessageID = "1\x01@example.org" }},
		{"To with a bad domain", func(m *Mail) { m.To = "a@exa mple.com" }},
		{"no Date", func(m *Mail) { m.Date = time.Time{} }},
		{"no Auto-Submitted", func(m *Mail) { m.AutoSubmitted = "" }},
		{"Auto-Submitted no", func(m *Mail) { m.AutoSubmitted = "no" }},
	}
	for _, tt := range tests {
		m := ok()
		tt.change(m)
		if b, err := m.Bytes(); err == nil {
			t.Errorf("%s: Bytes gave no error:\n%s", tt.name, b)
		}
	}
}

func TestNewMessageID(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 1000 {
		id := NewMessageID("example.org")
		local, domain, ok := strings.Cut(id, "@")
		// The domain is the one given, never the host name; the local part
		// is 120 random bits in base32.
		if !ok || domain != "example.org" || len(local) != 24 || strings.Trim(local, "abcdefghijklmnopqrstuvwxyz234567") != "" {
			t.Fatalf("NewMessageID = %q, want 24 base32 characters @example.org", id)
		}
		if seen[id] {
			t.Fatalf("NewMessageID gave %q twice", id)
		}
		seen[id] = true
	}
	for domain, want := range map[string]string{
		"pbem@example.org": "example.org",
		" example.net ":    "example.net",
		"":                 "pbemd.invalid",
		"bad domain":       "pbemd.invalid",
	} {
		id := NewMessageID(domain)
		if _, d, _ := strings.Cut(id, "@"); d != want {
			t.Errorf("NewMessageID(%q) = %q, want domain %q", domain, id, want)
		}
		m := &Mail{From: "pbem@example.org", To: "a@example.com", MessageID: id, Date: mailTestDate, AutoSubmitted: "auto-replied"}
		if _, err := m.Bytes(); err != nil {
			t.Errorf("NewMessageID(%q) = %q, refused by Bytes: %v", domain, id, err)
		}
	}
}

func BenchmarkMailBytes(b *testing.B) {
	m := mailGoldens()["out-board"]
	for b.Loop() {
		if _, err := m.Bytes(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMailReceivedIDs checks that ids taken from a received mail never cost
// the reply: an invalid one is left out of In-Reply-To and References, a
// valid one is kept.
func TestMailReceivedIDs(t *testing.T) {
	t.Parallel()
	bad := []string{
		"a b@example.org", "", "ab\x01c@example.org", "j\u00f6rg@example.org", "noat.example.org",
		"a@b@c", "@example.org", "a@", "<a@example.org>", "a@[x\\y]", "x" + strings.Repeat("y", MaxMsgIDLen) + "@example.org",
		"a@example.org\r\nBcc: victim@example.com",
	}
	good := []string{"CAFx3y2ZtqP5wQ8n0=8uJcVbX2@mail.gmail.com", "a.b..c.@example.org", "x@[127.0.0.1]", "{a}~'b@example.org"}
	for _, id := range bad {
		if ValidMsgID(id) {
			t.Errorf("ValidMsgID(%q) = true", id)
		}
		m := &Mail{From: "pbem@example.org", To: "a@example.com", Subject: "x", Body: "x\n",
			MessageID: "1@example.org", InReplyTo: id, References: []string{"root@example.org", id},
			Date: mailTestDate, AutoSubmitted: "auto-replied"}
		b, err := m.Bytes()
		if err != nil {
			t.Errorf("In-Reply-To %q: %v; want the reply without it", id, err)
			continue
		}
		h, _ := splitRendered(t, b)
		if _, ok := h["In-Reply-To"]; ok {
			t.Errorf("In-Reply-To %q written as %q", id, h["In-Reply-To"])
		}
		if h["References"] != "<root@example.org>" {
			t.Errorf("References with %q written as %q, want <root@example.org>", id, h["References"])
		}
		checkSevenBitHeader(t, b)
	}
	for _, id := range good {
		if !ValidMsgID(id) {
			t.Errorf("ValidMsgID(%q) = false", id)
		}
		m := &Mail{From: "pbem@example.org", To: "a@example.com", MessageID: "1@example.org", InReplyTo: id,
			References: []string{id, id}, Date: mailTestDate, AutoSubmitted: "auto-replied"}
		b, err := m.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		h, _ := splitRendered(t, b)
		if h["In-Reply-To"] != "<"+id+">" || h["References"] != "<"+id+">" {
			t.Errorf("id %q written as In-Reply-To %q, References %q", id, h["In-Reply-To"], h["References"])
		}
	}
}

// checkSevenBitHeader fails the test unless every header byte of the mail is
// printable ASCII or a line end.
func checkSevenBitHeader(t *testing.T, b []byte) {
	t.Helper()
	h, _, _ := bytes.Cut(b, []byte("\r\n\r\n"))
	for _, c := range h {
		if (c < 0x20 && c != '\r' && c != '\n' && c != '\t') || c >= 0x7f {
			t.Errorf("header byte %#x is not 7-bit text:\n%q", c, h)
			return
		}
	}
}

// TestMailInternationalTo checks that a recipient with non-ASCII goes out
// in a valid 7-bit To field that still names him.
func TestMailInternationalTo(t *testing.T) {
	t.Parallel()
	tests := []struct{ to, header string }{
		{"J\u00f6rg M\u00fcller <joerg@example.de>", "=?utf-8?q?J=C3=B6rg_M=C3=BCller?= <joerg@example.de>"},
		{"joerg@b\u00fccher.example", "joerg@xn--bcher-kva.example"},
		{"J\u00f6rg <joerg@B\u00dcCHER.example>", "=?utf-8?q?J=C3=B6rg?= <joerg@xn--bcher-kva.example>"},
		{"j\u00fcrgen@x.test", "=?utf-8?b?asO8cmdlbkB4LnRlc3Q=?=:;"},
		{"J\u00fcrgen <j\u00fcrgen@b\u00fccher.example>", "=?utf-8?b?asO8cmdlbkB4bi0tYmNoZXIta3ZhLmV4YW1wbGU=?=:;"},
	}
	for _, tt := range tests {
		m := &Mail{From: "pbem@example.org", To: tt.to, Subject: "x", Body: "x\n", MessageID: "1@example.org",
			Date: mailTestDate, AutoSubmitted: "auto-replied"}
		b, err := m.Bytes()
		if err != nil {
			t.Errorf("To %q: %v", tt.to, err)
			continue
		}
		checkSevenBitHeader(t, b)
		h, _ := splitRendered(t, b)
		if h["To"] != tt.header {
			t.Errorf("To %q written as %q, want %q", tt.to, h["To"], tt.header)
		}
		// The field parses back: as the mailbox, or as an empty group
		// whose decoded name is the address.
		if strings.HasSuffix(h["To"], ":;") {
			name, err := new(mime.WordDecoder).DecodeHeader(strings.TrimSuffix(h["To"], ":;"))
			if err != nil || !strings.Contains(name, "@") {
				t.Errorf("group name %q decodes to %q, %v", h["To"], name, err)
			}
		} else if _, err := mail.ParseAddress(h["To"]); err != nil {
			t.Errorf("To %q does not parse: %v", h["To"], err)
		}
	}
}

// TestMailCopies checks that a mail rendered once for many recipients
// (Shared) gives each the very bytes of a mail rendered for him alone, and
// that the shared form names no recipient.
func TestMailCopies(t *testing.T) {
	t.Parallel()
	long := "A Very Long Display Name That Makes The To Field Fold Over Two Lines <spectator@example.net>"
	for name, m := range mailGoldens() {
		data, toAt, err := m.Shared()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if bytes.Contains(data, []byte("\r\nTo:")) {
			t.Errorf("%s: the shared form has a To field:\n%s", name, data)
		}
		for _, to := range []string{m.To, "carol@example.org", "j\u00fcrgen@x.test", long} {
			got, err := Copy(data, toAt, to)
			if err != nil {
				t.Fatalf("%s to %s: %v", name, to, err)
			}
			alone := *m
			alone.To = to
			want, _ := alone.Bytes()
			if !bytes.Equal(got, want) {
				t.Errorf("%s: the copy to %s differs from the mail to him alone:\n%s\nwant\n%s", name, to, got, want)
			}
		}
	}
	data, toAt, _ := mailGoldens()["out-board"].Shared()
	if _, err := Copy(data, toAt, "not an address"); err == nil {
		t.Error("Copy to a malformed address succeeded")
	}
	if _, err := Copy(data, len(data)+1, "carol@example.org"); err == nil {
		t.Error("Copy with the To field's place past the end succeeded")
	}
}
