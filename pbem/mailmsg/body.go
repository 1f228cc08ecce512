package mailmsg

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/emersion/go-message"
)

// partText is the text of a body part and whether it came from plain text
// (as opposed to HTML reduced to text).
type partText struct {
	text  string
	plain bool
}

// bodyReader gathers the text of a mail's body within its limits.
type bodyReader struct {
	lim   Limits
	size  int // bytes of the raw body
	parts int // body parts looked at so far
}

// entityText returns the readable text of e: the text/plain part of a
// multipart/alternative (HTML when there is no plain part) and the inline
// text parts of other multiparts one after the other. Attachments and
// non-text parts give nothing. readErr is the error go-message reported on
// opening e (an unknown charset or transfer encoding).
func (p *bodyReader) entityText(e *message.Entity, readErr error, depth int, root bool) (partText, bool) {
	p.parts++
	mediaType, params, err := e.Header.ContentType()
	mediaType = strings.ToLower(mediaType)
	if err != nil || mediaType == "" {
		mediaType = "text/plain"
	}
	if !root && isAttachment(e, params) {
		return partText{}, false
	}
	if strings.HasPrefix(mediaType, "multipart/") {
		if depth >= p.lim.MaxMIMEDepth {
			return partText{}, false
		}
		return p.multipartText(e, mediaType, depth)
	}
	if mediaType != "text/plain" && mediaType != "text/html" {
		return partText{}, false
	}
	// Plain text beyond MaxTextBytes would be cut anyway; HTML holds
	// little text in many bytes, and its reduction is linear, so it is
	// read whole (its size is bounded by the mail's).
	body := e.Body
	if mediaType == "text/plain" {
		// Room for a charset that widens the bytes (UTF-8 from one byte
		// per character to up to three).
		body = io.LimitReader(body, int64(p.lim.MaxTextBytes)+1)
	}
	var buf bytes.Buffer
	if root {
		// One allocation instead of a series of doublings: the decoded
		// body is rarely larger than the raw one.
		n := p.size
		if mediaType == "text/plain" {
			n = min(n, p.lim.MaxTextBytes+1)
		}
		buf.Grow(n + bytes.MinRead)
	}
	buf.ReadFrom(body) // keep what was decoded before an error
	b := buf.Bytes()
	if !message.IsUnknownCharset(readErr) && utf8.Valid(b) {
		if mediaType == "text/html" {
			// Straight from the buffer: a string copy of a large HTML
			// body would double its cost.
			return partText{text: htmlText(bytes.TrimPrefix(b, []byte("\ufeff")), p.lim.MaxQuoteDepth, p.lim.MaxTextBytes)}, true
		}
	}
	var s string
	if message.IsUnknownCharset(readErr) || !utf8.Valid(b) {
		// go-message left the charset alone (the bytes are only
		// transfer-decoded), or the text is not the UTF-8 it said.
		s, _ = decodeCharset(params["charset"], b)
	} else {
		s = string(b)
	}
	// A byte order mark is no text; iOS puts one before quoted mails.
	s = strings.TrimPrefix(normalizeNewlines(s), "\ufeff")
	if mediaType == "text/html" {
		return partText{text: htmlText([]byte(s), p.lim.MaxQuoteDepth, p.lim.MaxTextBytes)}, true
	}
	if strings.EqualFold(params["format"], "flowed") {
		s = unflow(s, strings.EqualFold(params["delsp"], "yes"))
	}
	return partText{text: s, plain: true}, true
}

// multipartText gathers the text of a multipart entity, up to the limit of
// parts.
func (p *bodyReader) multipartText(e *message.Entity, mediaType string, depth int) (partText, bool) {
	mr := e.MultipartReader()
	if mr == nil {
		return partText{}, false
	}
	var parts []partText
	size := 0
	for p.parts < p.lim.MaxMIMEParts && size <= p.lim.MaxTextBytes {
		part, err := mr.NextPart()
		if part == nil || (err != nil && !message.IsUnknownCharset(err) && !message.IsUnknownEncoding(err)) {
			break
		}
		if t, ok := p.entityText(part, err, depth+1, false); ok {
			parts = append(parts, t)
			size += len(t.text)
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

// cutText returns s cut to at most max bytes, at the end of a line when
// there is one in the last quarter, and never inside a UTF-8 character.
func cutText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	s = s[:max]
	if i := strings.LastIndexByte(s, '\n'); i >= max-max/4 {
		return s[:i+1]
	}
	for range utf8.UTFMax - 1 {
		if r, size := utf8.DecodeLastRuneInString(s); r != utf8.RuneError || size > 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return s
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
