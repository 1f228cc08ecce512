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
	"slices"
	"strings"
	"time"

	"golang.org/x/net/idna"
)

// Mail is one outgoing mail.
type Mail struct {
	From          string    // "pbemd <pbem@example.org>" or an address
	To            string    // one recipient address (one mail per recipient)
	ReplyTo       string    // an address for replies; optional
	Subject       string    // any text; line breaks become spaces
	Body          string    // plain text, "\n" line ends
	MessageID     string    // without brackets; required
	InReplyTo     string    // without brackets; optional
	References    []string  // without brackets; optional
	Date          time.Time // required
	AutoSubmitted string    // "auto-replied" or "auto-generated"
	// Attachments are text files sent after the body, which then goes
	// as the first part of a multipart/mixed mail.
	Attachments []Attachment
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
// The header is always valid 7-bit ASCII. InReplyTo and References usually
// come from a received mail: an id that is not a valid msg-id (RFC 5322
// 3.6.4: printable ASCII, one "@", at most MaxMsgIDLen bytes) is left out,
// never the mail. A non-ASCII display name is encoded per RFC 2047, a
// non-ASCII domain is written as punycode (IDNA), and an address whose
// local part is not ASCII, which no 7-bit header can hold, is written as
// an empty group named by the encoded address ("=?utf-8?b?...?=:;"): the
// reader still sees the address, and the envelope (SMTPUTF8) carries it.
//
// Bytes fails when a required field (From, To, MessageID, Date,
// AutoSubmitted) is missing or malformed.
func (m *Mail) Bytes() ([]byte, error) {
	data, _, err := m.render(true)
	return data, err
}

// Shared renders the mail as Bytes does but without its To field, for a
// mail that goes alike to many recipients, each in a copy of his own that
// names him alone: Copy makes each copy from data and toAt. m.To is not
// read.
func (m *Mail) Shared() (data []byte, toAt int, err error) {
	return m.render(false)
}

// Copy returns the copy of a Shared mail for one recipient: data with the
// To field of the address at toAt, the same bytes as Bytes of the mail
// with that To.
func Copy(data []byte, toAt int, to string) ([]byte, error) {
	if toAt <= 0 || toAt > len(data) {
		return nil, fmt.Errorf("mail copy: the To field's place %d is outside the %d bytes of the mail", toAt, len(data))
	}
	v, err := formatAddress("To", to)
	if err != nil {
		return nil, err
	}
	field := headerField("To", v)
	out := make([]byte, 0, len(data)+len(field))
	out = append(out, data[:toAt]...)
	out = append(out, field...)
	return append(out, data[toAt:]...), nil
}

// CheckAddress returns why the address cannot be the To of a mail (why
// Bytes or Copy would fail), or nil.
func CheckAddress(addr string) error {
	_, err := formatAddress("To", addr)
	return err
}

// render renders the mail, with its To field or without it, and returns
// where the To field is or would be.
func (m *Mail) render(withTo bool) (data []byte, toAt int, err error) {
	from, err := formatAddress("From", m.From)
	if err != nil {
		return nil, 0, err
	}
	to := ""
	if withTo {
		if to, err = formatAddress("To", m.To); err != nil {
			return nil, 0, err
		}
	}
	if err := checkMsgID("Message-ID", m.MessageID, true); err != nil {
		return nil, 0, err
	}
	replyTo := ""
	if m.ReplyTo != "" {
		if replyTo, err = formatAddress("Reply-To", m.ReplyTo); err != nil {
			return nil, 0, err
		}
	}
	inReplyTo := ""
	if ValidMsgID(m.InReplyTo) {
		inReplyTo = m.InReplyTo
	}
	var refs []string
	for _, r := range m.References {
		if ValidMsgID(r) && !slices.Contains(refs, r) {
			refs = append(refs, r)
		}
	}
	if m.Date.IsZero() {
		return nil, 0, errors.New("mail has no Date: set Mail.Date to the time the reply is made")
	}
	switch m.AutoSubmitted {
	case "auto-replied", "auto-generated":
	default:
		return nil, 0, fmt.Errorf("Auto-Submitted %q is not auto-replied or auto-generated", m.AutoSubmitted)
	}

	body := normalizeNewlines(m.Body)
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	ctype, cte, text, err := encodeText(body)
	if err != nil {
		return nil, 0, err
	}
	var b bytes.Buffer
	b.Grow(maxHeader + len(text))
	field := func(name, value string) { b.WriteString(headerField(name, value)) }
	field("Date", m.Date.Format(time.RFC1123Z))
	field("From", from)
	toAt = b.Len()
	if withTo {
		field("To", to)
	}
	if replyTo != "" {
		field("Reply-To", replyTo)
	}
	field("Subject", encodeSubject(m.Subject))
	field("Message-ID", "<"+m.MessageID+">")
	if inReplyTo != "" {
		field("In-Reply-To", "<"+inReplyTo+">")
	}
	if len(refs) > 0 {
		field("References", "<"+strings.Join(refs, "> <")+">")
	}
	field("Auto-Submitted", m.AutoSubmitted)
	field("MIME-Version", "1.0")
	if len(m.Attachments) > 0 {
		if err := writeMixed(&b, ctype, cte, text, m.Attachments); err != nil {
			return nil, 0, err
		}
		return b.Bytes(), toAt, nil
	}
	field("Content-Type", ctype)
	field("Content-Transfer-Encoding", cte)
	b.WriteString("\r\n")
	b.Write(text)
	return b.Bytes(), toAt, nil
}

// encodeText encodes a text body as Bytes describes: 7-bit text as it is,
// with CRLF line ends; any other as UTF-8 quoted-printable. It returns the
// part's Content-Type and Content-Transfer-Encoding with the encoded text.
func encodeText(body string) (ctype, cte string, data []byte, err error) {
	var b bytes.Buffer
	if isSevenBit(body) { // ASCII: valid UTF-8 as it is
		b.Grow(len(body) + strings.Count(body, "\n"))
		for {
			line, rest, ok := strings.Cut(body, "\n")
			b.WriteString(line)
			if !ok {
				return "text/plain; charset=us-ascii", "7bit", b.Bytes(), nil
			}
			b.WriteString("\r\n")
			body = rest
		}
	}
	body = strings.ToValidUTF8(body, "\uFFFD")
	qp := quotedprintable.NewWriter(&b)
	// The writer turns each "\n" into CRLF and encodes trailing spaces.
	if _, err := qp.Write([]byte(body)); err != nil {
		return "", "", nil, err
	}
	if err := qp.Close(); err != nil {
		return "", "", nil, err
	}
	if body != "" && !bytes.HasSuffix(b.Bytes(), []byte("\r\n")) {
		b.WriteString("\r\n")
	}
	return "text/plain; charset=utf-8", "quoted-printable", b.Bytes(), nil
}

// headerField is one header field, folded, with its CRLF.
func headerField(name, value string) string {
	return foldHeader(name+": "+value) + "\r\n"
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
// for a header in 7-bit ASCII: the address alone when there is no name, the
// name encoded per RFC 2047 when it is not ASCII, a non-ASCII domain as
// punycode, and a non-ASCII local part as an empty group named by the
// address (see Bytes).
func formatAddress(field, v string) (string, error) {
	if strings.TrimSpace(v) == "" {
		return "", fmt.Errorf("mail has no %s address", field)
	}
	a, err := mail.ParseAddress(v)
	if err != nil {
		return "", fmt.Errorf("%s address %q is not an address like alice@example.org: %v", field, v, err)
	}
	local, domain, _ := cutLast(a.Address, "@")
	if !isASCII(domain) {
		ascii, err := idna.Lookup.ToASCII(domain)
		if err != nil {
			return "", fmt.Errorf("%s address %q has a domain that is no internationalized domain name: %v", field, v, err)
		}
		a.Address = local + "@" + ascii
	}
	if !isASCII(local) {
		return mime.BEncoding.Encode("utf-8", a.Address) + ":;", nil
	}
	if a.Name == "" {
		return a.Address, nil
	}
	if isPhrase(a.Name) {
		return a.Name + " <" + a.Address + ">", nil
	}
	return a.String(), nil // quoted or RFC 2047 encoded
}

// cutLast is strings.Cut at the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
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

// MaxMsgIDLen is the longest message id, without brackets, that Bytes
// writes in a header; real ids are well under 100 bytes.
const MaxMsgIDLen = 250

// checkMsgID checks a message id given without brackets.
func checkMsgID(field, id string, required bool) error {
	if id == "" {
		if required {
			return fmt.Errorf("mail has an empty %s: use NewMessageID", field)
		}
		return nil
	}
	if !ValidMsgID(id) {
		return fmt.Errorf("%s %q is not an id like abc@example.org (printable ASCII, no brackets, no spaces, at most %d bytes)", field, id, MaxMsgIDLen)
	}
	return nil
}

// ValidMsgID reports whether id, given without angle brackets, is a msg-id
// of RFC 5322 (3.6.4) that Bytes can write: a left part of atext and dots,
// "@", and a dot-atom domain or a [literal], at most MaxMsgIDLen bytes.
// Dots are not checked for position, as many mailers put them anywhere.
func ValidMsgID(id string) bool {
	if id == "" || len(id) > MaxMsgIDLen {
		return false
	}
	left, right, ok := strings.Cut(id, "@")
	if !ok || left == "" || right == "" {
		return false
	}
	for i := 0; i < len(left); i++ {
		if !isAtext(left[i]) && left[i] != '.' {
			return false
		}
	}
	if len(right) >= 2 && right[0] == '[' && right[len(right)-1] == ']' {
		for i := 1; i < len(right)-1; i++ {
			if c := right[i]; c < 0x21 || c > 0x7e || c == '[' || c == ']' || c == '\\' {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(right); i++ {
		if !isAtext(right[i]) && right[i] != '.' {
			return false
		}
	}
	return true
}

// isAtext reports whether c is an atext character of RFC 5322 (3.2.3).
func isAtext(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return c < 0x80 && strings.IndexByte("!#$%&'*+-/=?^_`{|}~", c) >= 0
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

// maxHeader is room enough for the header Bytes writes, without long
// subjects and references: the buffer grows past it only for those.
const maxHeader = 1024

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

// WithFields returns the mail data with the header fields (name, value
// pairs) put on top, folded as every field the package writes: what one
// recipient's copy gets as it leaves (a return path's List-Unsubscribe).
func WithFields(data []byte, fields ...string) []byte {
	var head strings.Builder
	for i := 0; i+1 < len(fields); i += 2 {
		head.WriteString(headerField(fields[i], fields[i+1]))
	}
	return append([]byte(head.String()), data...)
}
