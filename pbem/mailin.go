package pbem

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"io"
	"mime"
	"net/mail"
	"net/textproto"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/charset"
	"golang.org/x/text/encoding/charmap"
)

// Incoming is one mail as pbemd needs it.
//
// Header is a net/mail.Header: a map from canonical field names
// (textproto.CanonicalMIMEHeaderKey) to the unfolded values, in the order
// the fields appear in the mail. Use Header.Get for the first value.
type Incoming struct {
	MessageID  string      // without angle brackets; "" when absent
	Key        string      // idempotency key: "id:"+MessageID, or "sha256:"+hex of the raw bytes when there is no Message-ID
	From       string      // the sender's address (From header), as written
	FromName   string      // the sender's display name, decoded
	ReturnPath string      // the Return-Path address; "<>" (literally) when the header says <>, "" when absent
	Subject    string      // decoded (RFC 2047), folded whitespace collapsed, trimmed
	Text       string      // the body as plain text with "\n" line ends
	Date       time.Time   // zero when absent or unparsable
	InReplyTo  string      // without brackets
	References []string    // without brackets
	Header     mail.Header // every header field, for the loop guard
}

// maxMIMEDepth bounds the nesting of multipart bodies that ReadMail descends
// into; real mail nests three or four levels, hostile mail thousands.
const maxMIMEDepth = 12

// ReadMail parses one RFC 5322 message. It fails only when the bytes are not
// a mail at all (no header); a body that cannot be decoded (unknown charset,
// broken base64) still gives an Incoming with the best text available.
//
// A leading mbox "From " line, as an MTA writes it before a message piped to
// a program, is skipped, and so are header lines that are not fields.
func ReadMail(raw []byte) (*Incoming, error) {
	hdr, fields, body := splitHeader(raw)
	if len(fields) == 0 {
		return nil, errors.New("mail has no header: a mail must begin with header fields such as From: and Subject:")
	}
	m := &Incoming{Header: hdr}

	if id := msgIDs(hdr.Get("Message-Id")); len(id) > 0 {
		m.MessageID = id[0]
	}
	if m.MessageID != "" {
		m.Key = "id:" + m.MessageID
	} else {
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

	var clean bytes.Buffer
	for _, f := range fields {
		clean.WriteString(f)
		clean.WriteString("\r\n")
	}
	clean.WriteString("\r\n")
	clean.Write(body)
	e, err := message.Read(&clean)
	if e == nil {
		// The header was checked above; go-message failing anyway leaves
		// a mail without a readable body.
		return m, nil
	}
	if t, ok := entityText(e, err, 0, true); ok {
		m.Text = t.text
	}
	return m, nil
}

// splitHeader separates the header of raw from its body. It returns the
// header fields as a map, the fields as unfolded "Key: value" lines (only
// well-formed ones) and the body.
func splitHeader(raw []byte) (mail.Header, []string, []byte) {
	hdr := mail.Header{}
	var fields []string
	rest := raw
	first := true
	for len(rest) > 0 {
		line, next, _ := bytes.Cut(rest, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			return hdr, fields, next
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
		k = textproto.CanonicalMIMEHeaderKey(k)
		v = strings.TrimSpace(v)
		hdr[k] = append(hdr[k], v)
		fields = append(fields, k+": "+v)
	}
	return hdr, fields, nil
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

// partText is the text of a body part and whether it came from plain text
// (as opposed to HTML reduced to text).
type partText struct {
	text  string
	plain bool
}

// entityText returns the readable text of e: the text/plain part of a
// multipart/alternative (HTML when there is no plain part) and the inline
// text parts of other multiparts one after the other. Attachments and
// non-text parts give nothing. readErr is the error go-message reported on
// opening e (an unknown charset or transfer encoding).
func entityText(e *message.Entity, readErr error, depth int, root bool) (partText, bool) {
	mediaType, params, err := e.Header.ContentType()
	mediaType = strings.ToLower(mediaType)
	if err != nil || mediaType == "" {
		mediaType = "text/plain"
	}
	if !root && isAttachment(e, params) {
		return partText{}, false
	}
	if strings.HasPrefix(mediaType, "multipart/") {
		if depth >= maxMIMEDepth {
			return partText{}, false
		}
		return multipartText(e, mediaType, depth)
	}
	if mediaType != "text/plain" && mediaType != "text/html" {
		return partText{}, false
	}
	b, _ := io.ReadAll(e.Body) // keep what was decoded before an error
	var s string
	if message.IsUnknownCharset(readErr) {
		// go-message left the charset alone: the bytes are only transfer-decoded.
		s, _ = decodeCharset(params["charset"], b)
	} else {
		s = string(b)
		if !utf8.ValidString(s) {
			s, _ = decodeCharset(params["charset"], b)
		}
	}
	// A byte order mark is no text; iOS puts one before quoted mails.
	s = strings.TrimPrefix(normalizeNewlines(s), "\ufeff")
	if mediaType == "text/html" {
		return partText{text: htmlText(s)}, true
	}
	if strings.EqualFold(params["format"], "flowed") {
		s = unflow(s, strings.EqualFold(params["delsp"], "yes"))
	}
	return partText{text: s, plain: true}, true
}

// multipartText gathers the text of a multipart entity.
func multipartText(e *message.Entity, mediaType string, depth int) (partText, bool) {
	mr := e.MultipartReader()
	if mr == nil {
		return partText{}, false
	}
	var parts []partText
	for {
		p, err := mr.NextPart()
		if p == nil || (err != nil && !message.IsUnknownCharset(err) && !message.IsUnknownEncoding(err)) {
			break
		}
		if t, ok := entityText(p, err, depth+1, false); ok {
			parts = append(parts, t)
		}
	}
	if len(parts) == 0 {
		return partText{}, false
	}
	if mediaType == "multipart/alternative" {
		// Plain text, unless it is blank and another part is not (some
		// web mailers send an empty text/plain beside the HTML).
		for _, p := range parts {
			if p.plain && strings.TrimSpace(p.text) != "" {
				return p, true
			}
		}
		for i := len(parts) - 1; i >= 0; i-- {
			if strings.TrimSpace(parts[i].text) != "" {
				return parts[i], true
			}
		}
		return parts[0], true
	}
	var all strings.Builder
	plain := false
	for _, p := range parts {
		if all.Len() > 0 && !strings.HasSuffix(all.String(), "\n") {
			all.WriteByte('\n')
		}
		all.WriteString(p.text)
		plain = plain || p.plain
	}
	return partText{text: all.String(), plain: plain}, true
}

// isAttachment reports whether a body part is a file rather than text to
// read: Content-Disposition attachment, or a part with a file name.
func isAttachment(e *message.Entity, ctParams map[string]string) bool {
	disp, params, _ := e.Header.ContentDisposition()
	if strings.EqualFold(disp, "attachment") {
		return true
	}
	return params["filename"] != "" || ctParams["name"] != ""
}

// normalizeNewlines turns CRLF and lone CR line ends into "\n".
func normalizeNewlines(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// unflow undoes format=flowed (RFC 3676): lines ending in a space continue
// on the next line of the same quote depth; space-stuffing is removed.
func unflow(s string, delSp bool) string {
	lines := strings.Split(s, "\n")
	var out []string
	var cur strings.Builder
	curDepth, open := 0, false
	flush := func() {
		if open {
			out = append(out, quoteLine(curDepth, cur.String()))
			cur.Reset()
			open = false
		}
	}
	for _, line := range lines {
		depth := 0
		for depth < len(line) && line[depth] == '>' {
			depth++
		}
		text := line[depth:]
		text = strings.TrimPrefix(text, " ") // space-stuffing
		if open && depth != curDepth {
			flush()
		}
		flowed := strings.HasSuffix(text, " ") && text != "-- "
		if flowed && delSp {
			text = text[:len(text)-1]
		}
		cur.WriteString(text)
		curDepth, open = depth, true
		if !flowed {
			flush()
		}
	}
	flush()
	return strings.Join(out, "\n")
}

// quoteLine returns line quoted depth times: "> line", ">> line", ">" alone
// for an empty line.
func quoteLine(depth int, line string) string {
	if depth == 0 {
		return line
	}
	if line == "" {
		return strings.Repeat(">", depth)
	}
	return strings.Repeat(">", depth) + " " + line
}

// htmlText reduces an HTML body to plain text: block elements end lines,
// blockquotes become "> " quotes, scripts and styles vanish, entities are
// decoded.
func htmlText(s string) string {
	var out []string
	var line strings.Builder
	quote, pre := 0, false
	emit := func(hard bool) {
		t := strings.TrimRight(line.String(), " ")
		if !pre {
			t = strings.TrimLeft(t, " ")
		}
		if t != "" || hard {
			out = append(out, quoteLine(quote, t))
		}
		line.Reset()
	}
	// paragraph ends the line and leaves a blank line after it.
	paragraph := func() {
		emit(false)
		if len(out) > 0 && out[len(out)-1] != "" {
			out = append(out, "")
		}
	}
	text := func(raw string) {
		t := html.UnescapeString(raw)
		t = strings.ReplaceAll(t, "\u00a0", " ")
		if pre {
			for i, seg := range strings.Split(t, "\n") {
				if i > 0 {
					emit(true)
				}
				line.WriteString(seg)
			}
			return
		}
		if t == "" {
			return
		}
		lead := isHTMLSpace(rune(t[0]))
		trail := isHTMLSpace(rune(t[len(t)-1]))
		words := strings.FieldsFunc(t, isHTMLSpace)
		if lead && line.Len() > 0 {
			line.WriteByte(' ')
		}
		line.WriteString(strings.Join(words, " "))
		if trail && len(words) > 0 {
			line.WriteByte(' ')
		}
	}
	for len(s) > 0 {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			text(s)
			break
		}
		text(s[:i])
		s = s[i:]
		if strings.HasPrefix(s, "<!--") {
			end := strings.Index(s, "-->")
			if end < 0 {
				break
			}
			s = s[end+3:]
			continue
		}
		end := strings.IndexByte(s, '>')
		if end < 0 {
			break
		}
		tag := s[1:end]
		s = s[end+1:]
		closing := strings.HasPrefix(tag, "/")
		tag = strings.TrimPrefix(tag, "/")
		name := tag
		if j := strings.IndexAny(name, " \t\r\n/"); j >= 0 {
			name = name[:j]
		}
		name = strings.ToLower(name)
		switch name {
		case "script", "style", "head", "title":
			if !closing {
				s = skipTo(s, "</"+name)
			}
		case "br":
			emit(true)
		case "blockquote":
			emit(false)
			if closing {
				if quote > 0 {
					quote--
				}
			} else {
				quote++
			}
		case "pre":
			emit(false)
			pre = !closing
		case "p", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "dl":
			paragraph()
		case "div", "tr", "li", "hr", "dd", "dt", "section", "article", "header", "footer":
			emit(false)
		}
	}
	emit(false)
	// Trim blank lines at both ends and squeeze runs of blank lines.
	var res []string
	for _, l := range out {
		if l == "" && (len(res) == 0 || res[len(res)-1] == "") {
			continue
		}
		res = append(res, l)
	}
	for len(res) > 0 && res[len(res)-1] == "" {
		res = res[:len(res)-1]
	}
	if len(res) == 0 {
		return ""
	}
	return strings.Join(res, "\n") + "\n"
}

// skipTo returns s from the first occurrence of the lower case tag on,
// matched case-insensitively, or "" when there is none.
func skipTo(s, tag string) string {
	for i := 0; i+len(tag) <= len(s); i++ {
		if s[i] == '<' && strings.EqualFold(s[i:i+len(tag)], tag) {
			return s[i:]
		}
	}
	return ""
}

func isHTMLSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f'
}

// decodeCharset converts b from the named charset to UTF-8 with
// go-message's charset tables (every charset x/text knows; ISO-8859-1 read
// as windows-1252, see init). For an unknown charset it returns an error and the
// best text there is: b itself when it is valid UTF-8, else b read as
// windows-1252.
func decodeCharset(label string, b []byte) (string, error) {
	cs := strings.ToLower(strings.Trim(label, `" `))
	switch cs {
	case "", "us-ascii", "ascii", "us", "ansi_x3.4-1968", "iso646-us":
		// Mail that says ASCII (or nothing) but holds 8-bit bytes was
		// nearly always written in windows-1252 or UTF-8.
		if utf8.Valid(b) {
			return string(b), nil
		}
		return windows1252(b), nil
	case "utf-8", "utf8":
		return strings.ToValidUTF8(string(b), "\uFFFD"), nil
	}
	if r, err := charset.Reader(cs, bytes.NewReader(b)); err == nil {
		if d, err := io.ReadAll(r); err == nil {
			return strings.ToValidUTF8(string(d), "\uFFFD"), nil
		}
	}
	err := fmt.Errorf("unknown charset %q", label)
	if utf8.Valid(b) {
		return string(b), err
	}
	return windows1252(b), err
}

func init() {
	// As browsers do (WHATWG), read ISO-8859-1 as its superset windows-1252:
	// Outlook labels windows-1252 text so, and the two differ only in bytes
	// 0x80-0x9F, which ISO-8859-1 text never uses.
	for _, name := range []string{"iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "cp819"} {
		charset.RegisterEncoding(name, charmap.Windows1252)
	}
}

// windows1252 reads b as windows-1252, which gives every byte a character.
func windows1252(b []byte) string {
	d, _ := charmap.Windows1252.NewDecoder().Bytes(b)
	return string(d)
}

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

// Comment is the part of a mail body players wrote for everyone: the text
// before the first quoted block ("> " lines), before the reply attribution
// that introduces it ("On <date>, <name> wrote:", Apple Mail's
// "On <date>, at <time>, <name> wrote:", Outlook's "-----Original
// Message-----" or "From: ... Sent: ..." block) and before a signature ("-- ",
// "--" alone, "Sent from my iPhone" and other mobile footers). Blank lines at
// both ends and trailing spaces go; the lines are kept.
func Comment(text string) string {
	lines := strings.Split(normalizeNewlines(text), "\n")
	lines = lines[:bodyEnd(lines)]
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// CommandLines is the body of a "multiple" mail as commands: each non-empty
// line, trimmed, before the signature. It stops where Comment stops (a quoted
// block or its attribution also ends the commands): a quoted line is never a
// command, and running an old board's lines would only produce errors.
func CommandLines(text string) []string {
	lines := strings.Split(normalizeNewlines(text), "\n")
	var cmds []string
	for _, l := range lines[:bodyEnd(lines)] {
		if l = strings.TrimSpace(strings.TrimPrefix(l, "\ufeff")); l != "" {
			cmds = append(cmds, l)
		}
	}
	return cmds
}

// bodyEnd returns the index of the first line that the writer did not write
// for this mail: a quote, an attribution, a forwarded or original message, or
// a signature.
func bodyEnd(lines []string) int {
	for i, line := range lines {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, ">"):
			return attributionBefore(lines, i)
		case isSignature(line):
			return i
		case isSeparator(t):
			return i
		case isUnderline(t) && nextIsHeaderBlock(lines, i+1):
			return i
		case isHeaderBlock(lines, i):
			return i
		case attributionAt(lines, i):
			return i
		}
	}
	return len(lines)
}

// attributionEnds are the endings of attribution lines, in the languages
// players of pbmserv wrote in.
var attributionEnds = []string{
	"wrote:", "writes:", "schrieb:", "a écrit :", "a écrit:", "escribió:",
	"ha scritto:", "schreef:", "skrev:", "kirjoitti:", "napisał:",
}

// attributionStarts are the first words of attribution lines that name a
// date before the writer ("On Sat, Nov 21, 2026 at 9:15 AM Alice wrote:").
var attributionStarts = []string{"On ", "Am ", "Le ", "El ", "Il ", "Op ", "Den ", "W dniu "}

func isAttributionEnd(t string) bool {
	for _, e := range attributionEnds {
		if strings.HasSuffix(t, e) {
			return true
		}
	}
	return false
}

func isAttributionStart(t string) bool {
	for _, s := range attributionStarts {
		if strings.HasPrefix(t, s) {
			return true
		}
	}
	return false
}

// attributionBefore returns where the quote starting at line q begins,
// including the attribution just above it: a line ending in "wrote:" (or its
// translation), or a block of up to three lines that starts like "On <date>"
// and ends in a colon, as in Thunderbird's German "Am <date> schrieb
// <name>:". Clients wrap long attributions over several lines.
func attributionBefore(lines []string, q int) int {
	j := q - 1
	for j >= 0 && strings.TrimSpace(lines[j]) == "" {
		j--
	}
	if j < 0 {
		return q
	}
	last := strings.TrimSpace(lines[j])
	if !strings.HasSuffix(last, ":") {
		return q
	}
	for k := j; k >= 0 && k > j-3; k-- {
		t := strings.TrimSpace(lines[k])
		if t == "" {
			break
		}
		if isAttributionStart(t) {
			return k
		}
	}
	if isAttributionEnd(last) {
		return j
	}
	return q
}

// attributionAt reports whether an "On <date>, <name> wrote:" attribution
// starts at line i, whether or not a quote follows (Outlook and some mobile
// clients quote without "> ").
func attributionAt(lines []string, i int) bool {
	t := strings.TrimSpace(lines[i])
	if !isAttributionStart(t) {
		return false
	}
	n := 0
	for k := i; k < len(lines) && k < i+3; k++ {
		t := strings.TrimSpace(lines[k])
		n += len(t)
		if t == "" || n > 300 {
			return false
		}
		if isAttributionEnd(t) {
			return true
		}
	}
	return false
}

// isSignature reports whether line starts a signature: the "-- " separator,
// "--" alone, or a mobile client's footer.
func isSignature(line string) bool {
	if strings.TrimRight(line, " \t") == "--" {
		return true
	}
	t := strings.ToLower(strings.TrimSpace(line))
	if len(t) > 60 {
		return false
	}
	for _, p := range []string{"sent from my ", "sent from mail for windows", "sent from outlook", "get outlook for ", "sent from yahoo mail", "sent from proton mail", "sent with proton mail", "von meinem iphone gesendet", "envoyé de mon iphone"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// isSeparator reports whether t introduces an earlier mail: "-----Original
// Message-----" (Outlook), "---------- Forwarded message ---------" (Gmail),
// "Begin forwarded message:" (Apple Mail) and their kin.
func isSeparator(t string) bool {
	if strings.HasPrefix(t, "--") || strings.HasPrefix(t, "__") {
		core := strings.ToLower(strings.TrimSpace(strings.Trim(t, "-_ ")))
		switch core {
		case "original message", "forwarded message", "ursprüngliche nachricht", "message d'origine", "weitergeleitete nachricht", "message transféré":
			return true
		}
	}
	return t == "Begin forwarded message:"
}

// isUnderline reports whether t is the rule of underscores Outlook puts
// above the header block of the mail it answers.
func isUnderline(t string) bool {
	return len(t) >= 10 && strings.Trim(t, "_") == ""
}

func nextIsHeaderBlock(lines []string, i int) bool {
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	return i < len(lines) && isHeaderBlock(lines, i)
}

// isHeaderBlock reports whether line i starts the header block of a quoted
// mail as Outlook writes it: "From: ..." and, within the next lines,
// "Sent: ..." or "Date: ...". Outlook's plain text marks the names bold
// ("*From:*").
func isHeaderBlock(lines []string, i int) bool {
	field := func(s string) string {
		s = strings.TrimLeft(strings.TrimSpace(s), "*")
		name, _, ok := strings.Cut(s, ":")
		if !ok {
			return ""
		}
		return strings.ToLower(strings.TrimRight(name, " *"))
	}
	switch field(lines[i]) {
	case "from", "von", "de":
	default:
		return false
	}
	for k := i + 1; k < len(lines) && k <= i+4; k++ {
		switch field(lines[k]) {
		case "sent", "date", "gesendet", "datum", "envoyé", "date d'envoi":
			return true
		}
	}
	return false
}
