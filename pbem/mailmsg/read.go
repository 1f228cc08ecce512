// Package mailmsg reads and writes mail messages for a play-by-email server,
// and knows nothing of the server: ReadMail turns the bytes of a mail into
// an Incoming (its sender, subject and body reduced to plain text, within
// Limits), Comment and CommandLines take from that text what the writer
// wrote, Ignore is the loop guard that says which mails must never be
// answered, Excerpt shortens a mail for quoting, and Mail.Bytes composes a
// reply whose header is always valid 7-bit.
package mailmsg

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"net/mail"
	"net/textproto"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message"
)

// Incoming is one mail as pbemd needs it.
//
// Header is a net/mail.Header: a map from canonical field names
// (textproto.CanonicalMIMEHeaderKey) to the unfolded values, in the order
// the fields appear in the mail. Use Header.Get for the first value.
type Incoming struct {
	MessageID  string      // without angle brackets; "" when absent
	Key        string      // idempotency key: "id:"+MessageID; "id-sha256:"+hex of the id's SHA-256 when it is no valid msg-id (see ValidMsgID); "sha256:"+hex of the raw bytes when there is no Message-ID
	From       string      // the sender's address (From header), as written
	FromName   string      // the sender's display name, decoded
	ReturnPath string      // the Return-Path address; "<>" (literally) when the header says <>, "" when absent
	Subject    string      // decoded (RFC 2047), folded whitespace collapsed, trimmed
	Text       string      // the body as plain text with "\n" line ends, at most Limits.MaxTextBytes
	Date       time.Time   // zero when absent or unparsable
	InReplyTo  string      // without brackets
	References []string    // without brackets
	Header     mail.Header // every header field, for the loop guard
}

// ReadMail parses one RFC 5322 message within the default Limits; see
// Limits.ReadMail.
func ReadMail(raw []byte) (*Incoming, error) {
	return Limits{}.ReadMail(raw)
}

// ReadMail parses one RFC 5322 message. It fails when the bytes are not a
// mail at all (no header), and when the mail breaks one of l's size bounds:
// then the error is a *TooLargeError and the Incoming holds the header
// fields read up to the bound, with no text, so that the caller can answer
// the sender. A body that cannot be decoded (unknown charset, broken
// base64, broken MIME) still gives an Incoming with the best text
// available.
//
// A leading mbox "From " line, as an MTA writes it before a message piped to
// a program, is skipped, and so are header lines that are not fields.
//
// Time and memory grow linearly with len(raw), whatever the bytes.
func (l Limits) ReadMail(raw []byte) (*Incoming, error) {
	l = l.WithDefaults()
	hdr, fields, body, tooLarge := splitHeader(raw, l)
	if len(fields) == 0 && tooLarge == nil {
		return nil, errors.New("mail has no header: a mail begins with header fields such as From and Subject")
	}
	if tooLarge == nil && int64(len(raw)) > l.MaxMailBytes {
		tooLarge = &TooLargeError{What: "mail", Size: int64(len(raw)), Limit: l.MaxMailBytes}
	}
	m := &Incoming{Header: hdr}

	if id := msgIDs(hdr.Get("Message-Id")); len(id) > 0 {
		m.MessageID = id[0]
	}
	switch {
	case ValidMsgID(m.MessageID):
		m.Key = "id:" + m.MessageID
	case m.MessageID != "":
		// An id no header may carry, as long as a whole mail maybe, is
		// kept short and printable for the store.
		sum := sha256.Sum256([]byte(m.MessageID))
		m.Key = "id-sha256:" + hex.EncodeToString(sum[:])
	default:
		sum := sha256.Sum256(raw)
		m.Key = "sha256:" + hex.EncodeToString(sum[:])
	}
	m.From, m.FromName = parseFrom(hdr.Get("From"))
	m.ReturnPath = parseReturnPath(hdr.Get("Return-Path"))
	m.Subject = collapseSpace(decodeWords(hdr.Get("Subject")))
	if d, err := mail.ParseDate(hdr.Get("Date")); err == nil {
		m.Date = d
	}
	if id := msgIDs(hdr.Get("In-Reply-To")); len(id) > 0 {
		m.InReplyTo = id[0]
	}
	m.References = msgIDs(strings.Join(hdr["References"], " "))
	if tooLarge != nil {
		return m, tooLarge
	}

	if mt, _, _ := mime.ParseMediaType(hdr.Get("Content-Type")); strings.HasPrefix(mt, "multipart/") {
		body = cutPartHeaders(body, l.MaxHeaderFields)
	}
	// go-message reads the fields as splitHeader kept them, unfolded and
	// well formed, followed by the body.
	var clean strings.Builder
	for _, f := range fields {
		clean.WriteString(f)
		clean.WriteString("\r\n")
	}
	clean.WriteString("\r\n")
	e, err := message.Read(io.MultiReader(strings.NewReader(clean.String()), bytes.NewReader(body)))
	if e == nil {
		// The header was checked above; go-message failing anyway leaves
		// a mail without a readable body.
		return m, nil
	}
	p := &bodyReader{lim: l, size: len(body)}
	if t, ok := p.entityText(e, err, 0, true); ok {
		m.Text = cutText(t.text, l.MaxTextBytes)
	}
	return m, nil
}

// cutPartHeaders returns body up to the line where the header lines of its
// body parts, counted together, pass max. go-message keeps a part's header
// in a map at a few hundred bytes a field, so that a mail of nothing but
// part header lines would cost fifty times its size. A part header is
// counted from a line that starts with "--" (a boundary, or what may be
// one) to the next empty line.
func cutPartHeaders(body []byte, max int) []byte {
	n := 0
	inHeader := false
	for i := 0; i < len(body); {
		end := len(body)
		if j := bytes.IndexByte(body[i:], '\n'); j >= 0 {
			end = i + j + 1
		}
		line := bytes.TrimRight(body[i:end], "\r\n")
		switch {
		case bytes.HasPrefix(line, []byte("--")):
			inHeader = true
		case len(line) == 0:
			inHeader = false
		case inHeader:
			if n++; n > max {
				return body[:i]
			}
		}
		i = end
	}
	return body
}

// splitHeader separates the header of raw from its body. It returns the
// header fields as a map, the fields as unfolded "Key: value" lines (only
// well-formed ones) and the body. It stops at the limits of header bytes
// and fields, and then says so with a *TooLargeError.
func splitHeader(raw []byte, l Limits) (mail.Header, []string, []byte, *TooLargeError) {
	hdr := mail.Header{}
	var fields []string
	rest := raw
	first := true
	tooLarge := func() *TooLargeError {
		// The header's size: up to the blank line, or the whole mail.
		n := bytes.Index(raw, []byte("\n\r\n"))
		if m := bytes.Index(raw, []byte("\n\n")); m >= 0 && (n < 0 || m < n) {
			n = m
		}
		if n < 0 {
			n = len(raw)
		}
		return &TooLargeError{What: "header", Size: int64(n), Limit: int64(l.MaxHeaderBytes)}
	}
	for len(rest) > 0 {
		line, next, _ := bytes.Cut(rest, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			return hdr, fields, next, nil
		}
		if len(raw)-len(next) > l.MaxHeaderBytes {
			return hdr, fields, nil, tooLarge()
		}
		if first && bytes.HasPrefix(line, []byte("From ")) {
			rest = next
			first = false
			continue
		}
		first = false
		// Gather continuation lines.
		var vb strings.Builder
		vb.Write(line)
		for len(next) > 0 && (next[0] == ' ' || next[0] == '\t') {
			var cont []byte
			cont, next, _ = bytes.Cut(next, []byte("\n"))
			if len(raw)-len(next) > l.MaxHeaderBytes {
				return hdr, fields, nil, tooLarge()
			}
			vb.WriteByte(' ')
			vb.Write(bytes.TrimSpace(cont))
		}
		value := vb.String()
		rest = next
		k, v, ok := strings.Cut(value, ":")
		k = strings.TrimRight(k, " \t")
		if !ok || !validFieldName(k) {
			continue
		}
		if len(fields) == l.MaxHeaderFields {
			return hdr, fields, nil, &TooLargeError{What: "header fields", Size: int64(len(fields) + 1), Limit: int64(l.MaxHeaderFields)}
		}
		k = textproto.CanonicalMIMEHeaderKey(k)
		v = strings.TrimSpace(v)
		hdr[k] = append(hdr[k], v)
		fields = append(fields, k+": "+v)
	}
	return hdr, fields, nil, nil
}

// validFieldName reports whether k is a header field name (RFC 5322 2.2).
func validFieldName(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] <= ' ' || k[i] > '~' || k[i] == ':' {
			return false
		}
	}
	return true
}

// wordDecoder decodes RFC 2047 encoded words, with the charsets of
// decodeCharset.
var wordDecoder = &mime.WordDecoder{
	CharsetReader: func(charset string, r io.Reader) (io.Reader, error) {
		b, err := io.ReadAll(r)
		if err != nil {
			return nil, err
		}
		s, _ := decodeCharset(charset, b) // best text even when unknown
		return strings.NewReader(s), nil
	},
}

// decodeWords decodes the encoded words of a header value. A value that
// cannot be decoded is returned as it is, made valid UTF-8.
func decodeWords(s string) string {
	if d, err := wordDecoder.DecodeHeader(s); err == nil {
		s = d
	}
	if !utf8.ValidString(s) {
		s = windows1252([]byte(s))
	}
	return s
}

// collapseSpace replaces every run of white space in s with one space and
// trims it.
func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// parseFrom returns the address and the display name of a From value.
func parseFrom(v string) (addr, name string) {
	if v == "" {
		return "", ""
	}
	p := mail.AddressParser{WordDecoder: wordDecoder}
	if a, err := p.Parse(v); err == nil {
		return a.Address, a.Name
	}
	if list, err := p.ParseList(v); err == nil && len(list) > 0 {
		return list[0].Address, list[0].Name
	}
	// Not RFC 5322: take what is in angle brackets, or the word with an @.
	if i := strings.LastIndex(v, "<"); i >= 0 {
		a := v[i+1:]
		if j := strings.IndexAny(a, "> \t("); j >= 0 {
			a = a[:j]
		}
		if strings.Contains(a, "@") {
			name = strings.Trim(strings.TrimSpace(v[:i]), `"`)
			return a, decodeWords(name)
		}
	}
	for _, w := range strings.Fields(v) {
		if strings.Contains(w, "@") {
			return strings.Trim(w, "<>()\",;"), ""
		}
	}
	return "", ""
}

// parseReturnPath returns the address of a Return-Path value: "<>" for the
// null path, "" when there is none.
func parseReturnPath(v string) string {
	v = strings.TrimSpace(v)
	if v == "" {
		return ""
	}
	if strings.Trim(v, "<> \t") == "" {
		return "<>"
	}
	if a, err := mail.ParseAddress(v); err == nil {
		return a.Address
	}
	return strings.Trim(v, "<> \t")
}

// msgIDs returns the message ids of a Message-ID, In-Reply-To or References
// value, without brackets. A value with no brackets at all, as some broken
// clients write it, counts as one id per word.
func msgIDs(v string) []string {
	var ids []string
	rest := v
	for {
		i := strings.IndexByte(rest, '<')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], '>')
		if j < 0 {
			break
		}
		if id := strings.TrimSpace(rest[i+1 : i+j]); id != "" && !strings.ContainsAny(id, " \t") {
			ids = append(ids, id)
		}
		rest = rest[i+j+1:]
	}
	if ids == nil && !strings.ContainsAny(v, "<>") {
		for _, w := range strings.Fields(v) {
			if strings.Contains(w, "@") {
				ids = append(ids, w)
			}
		}
	}
	return ids
}
