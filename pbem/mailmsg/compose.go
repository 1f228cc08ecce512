package mailmsg

import (
	"bytes"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"time"
)

// Mail is one outgoing mail.
type Mail struct {
	From          string    // "pbemd <pbem@example.org>" or an address
	To            string    // one recipient address (one mail per recipient)
	Subject       string    // any text; line breaks become spaces
	Body          string    // plain text, "\n" line ends
	MessageID     string    // without brackets; required
	InReplyTo     string    // without brackets; optional
	References    []string  // without brackets; optional
	Date          time.Time // required
	AutoSubmitted string    // "auto-replied" or "auto-generated"
}

// maxLineOctets is the longest line, in octets without CRLF, that RFC 5322 allows;
// a body with a longer line is sent quoted-printable.
const maxLineOctets = 998

// Bytes renders the mail as an RFC 5322 message with CRLF line ends.
//
// A body of 7-bit text with lines under 998 octets goes as it is
// (text/plain; charset=us-ascii, 7bit), so that boards arrive byte-exact,
// trailing spaces included; any other body goes as UTF-8 quoted-printable.
// Never format=flowed, which would reflow lines that end in a space. A
// Subject with non-ASCII is encoded per RFC 2047. A body that does not end in
// a line break gets one. The same Mail always gives the same bytes.
//
// Bytes fails when a required field (From, To, MessageID, Date,
// AutoSubmitted) is missing or malformed.
func (m *Mail) Bytes() ([]byte, error) {
	from, err := formatAddress("From", m.From)
	if err != nil {
		return nil, err
	}
	to, err := formatAddress("To", m.To)
	if err != nil {
		return nil, err
	}
	if err := checkMsgID("Message-ID", m.MessageID, true); err != nil {
		return nil, err
	}
	if err := checkMsgID("In-Reply-To", m.InReplyTo, false); err != nil {
		return nil, err
	}
	for _, r := range m.References {
		if err := checkMsgID("References", r, true); err != nil {
			return nil, err
		}
	}
	if m.Date.IsZero() {
		return nil, errors.New("mail has no Date: set Mail.Date to the time the reply is made")
	}
	switch m.AutoSubmitted {
	case "auto-replied", "auto-generated":
	default:
		return nil, fmt.Errorf("Auto-Submitted %q is not auto-replied or auto-generated", m.AutoSubmitted)
	}

	var b bytes.Buffer
	field := func(name, value string) {
		b.WriteString(foldHeader(name + ": " + value))
		b.WriteString("\r\n")
	}
	field("Date", m.Date.Format(time.RFC1123Z))
	field("From", from)
	field("To", to)
	field("Subject", encodeSubject(m.Subject))
	field("Message-ID", "<"+m.MessageID+">")
	if m.InReplyTo != "" {
		field("In-Reply-To", "<"+m.InReplyTo+">")
	}
	if len(m.References) > 0 {
		field("References", "<"+strings.Join(m.References, "> <")+">")
	}
	field("Auto-Submitted", m.AutoSubmitted)
	field("MIME-Version", "1.0")

	body := strings.ToValidUTF8(normalizeNewlines(m.Body), "\uFFFD")
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	if isSevenBit(body) {
		field("Content-Type", "text/plain; charset=us-ascii")
		field("Content-Transfer-Encoding", "7bit")
		b.WriteString("\r\n")
		b.WriteString(strings.ReplaceAll(body, "\n", "\r\n"))
		return b.Bytes(), nil
	}
	field("Content-Type", "text/plain; charset=utf-8")
	field("Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	// The writer turns each "\n" into CRLF and encodes trailing spaces.
	if _, err := qp.Write([]byte(body)); err != nil {
		return nil, err
	}
	if err := qp.Close(); err != nil {
		return nil, err
	}
	if body != "" && !bytes.HasSuffix(b.Bytes(), []byte("\r\n")) {
		b.WriteString("\r\n")
	}
	return b.Bytes(), nil
}

// isSevenBit reports whether body can go as 7bit: ASCII without NUL or bare
// CR, every line under maxLineOctets octets.
func isSevenBit(body string) bool {
	n := 0
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '\n':
			n = 0
			continue
		case c == 0 || c == '\r' || c >= 0x80:
			return false
		}
		n++
		if n > maxLineOctets {
			return false
		}
	}
	return true
}

// formatAddress checks one mailbox ("Name <addr>" or "addr") and renders it
// for a header: the address alone when there is no name, the name encoded per
// RFC 2047 when it is not ASCII.
func formatAddress(field, v string) (string, error) {
	if strings.TrimSpace(v) == "" {
		return "", fmt.Errorf("mail has no %s address", field)
	}
	a, err := mail.ParseAddress(v)
	if err != nil {
		return "", fmt.Errorf("%s address %q is not an address like alice@example.org: %v", field, v, err)
	}
	if a.Name == "" {
		return a.Address, nil
	}
	if isPhrase(a.Name) {
		return a.Name + " <" + a.Address + ">", nil
	}
	return a.String(), nil // quoted or RFC 2047 encoded
}

// isPhrase reports whether a display name can go unquoted: ASCII letters,
// digits, spaces and the atext symbols, no leading, trailing or double space.
func isPhrase(name string) bool {
	if strings.TrimSpace(name) != name || strings.Contains(name, "  ") {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 0x80 || c < ' ' || strings.IndexByte("()<>[]:;@\\,.\"", c) >= 0 {
			return false
		}
	}
	return true
}

// checkMsgID checks a message id given without brackets.
func checkMsgID(field, id string, required bool) error {
	if id == "" {
		if required {
			return fmt.Errorf("mail has an empty %s: use NewMessageID", field)
		}
		return nil
	}
	if strings.ContainsAny(id, "<> \t\r\n") || !strings.Contains(id, "@") {
		return fmt.Errorf("%s %q is not an id like abc@example.org (no brackets, no spaces)", field, id)
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x21 || id[i] > 0x7e {
			return fmt.Errorf("%s %q has characters outside printable ASCII", field, id)
		}
	}
	return nil
}

// encodeSubject makes a subject safe for the header: control characters
// become spaces, non-ASCII is encoded per RFC 2047.
func encodeSubject(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return mime.QEncoding.Encode("utf-8", s)
		}
	}
	return s
}

// foldHeader folds a header line at spaces so that lines stay within 78
// characters where the words allow it (RFC 5322 2.2.3).
func foldHeader(line string) string {
	const width = 78
	if len(line) <= width {
		return line
	}
	var b strings.Builder
	n := 0
	for i, w := range strings.Split(line, " ") {
		if i > 0 {
			if n+1+len(w) > width && n > 0 {
				b.WriteString("\r\n")
				n = 0
			}
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}

// idEncoding spells random ids in lower case letters and digits.
var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewMessageID returns a fresh unique id "<random>@domain", without
// brackets, from 120 random bits (crypto/rand); never the host name. The
// domain may also be given as an address ("pbem@example.org"); an empty or
// unusable domain gives "pbemd.invalid".
func NewMessageID(domain string) string {
	if i := strings.LastIndexByte(domain, '@'); i >= 0 {
		domain = domain[i+1:]
	}
	domain = strings.Trim(strings.TrimSpace(domain), "<>[]")
	if domain == "" || checkMsgID("", "x@"+domain, true) != nil {
		domain = "pbemd.invalid"
	}
	var r [15]byte
	rand.Read(r[:]) // never fails (crypto/rand, Go 1.24+)
	return idEncoding.EncodeToString(r[:]) + "@" + domain
}
