package mailauth

import (
	"bytes"
	"strings"
	"unicode"

	"github.com/emersion/go-msgauth/authres"
)

// Sender returns the one address of raw's From field, lower-case; a mail
// with no From, or several, has none.
func Sender(raw []byte) (string, error) {
	hdr, err := readHeader(raw)
	if err != nil {
		return "", err
	}
	return singleFrom(hdr)
}

// SubmittedField is the Authentication-Results field, with its line end,
// that the server of authserv-id id puts on a mail submitted by a sender
// who logged in as user (RFC 8601, section 2.7.4). Check reads it as
// authenticated when user is the From address.
func SubmittedField(id, user string) string {
	return "Authentication-Results: " + authres.Format(id, []authres.Result{
		&authres.AuthResult{Value: authres.ResultPass, Auth: user}}) + "\r\n"
}

// StripResults returns raw without the Authentication-Results fields whose
// authserv-id is id, read as Check reads them: a server removes them from
// the mail it receives before it adds its own, since anyone may have
// written them (RFC 8601, section 5). It costs one pass over the header.
func StripResults(raw []byte, id string) []byte {
	var out []byte
	kept := 0  // raw[:kept] is in out, or all kept so far
	start := 0 // where the field being read begins
	endField := func(end int) {
		if isResultsOf(raw[start:end], id) {
			out = append(out, raw[kept:start]...)
			kept = end
		}
		start = end
	}
	i := 0
	for i < len(raw) {
		end := len(raw)
		if nl := bytes.IndexByte(raw[i:], '\n'); nl >= 0 {
			end = i + nl + 1
		}
		line := raw[i:end]
		if len(bytes.TrimRight(line, "\r\n")) == 0 {
			break // the blank line that ends the header
		}
		if line[0] != ' ' && line[0] != '\t' && i > start {
			endField(i)
		}
		i = end
	}
	endField(i)
	if kept == 0 {
		return raw
	}
	return append(out, raw[kept:]...)
}

// isResultsOf reports whether field, a whole header field with its
// folded lines, is an Authentication-Results field of authserv-id id.
func isResultsOf(field []byte, id string) bool {
	name, value, ok := bytes.Cut(field, []byte(":"))
	if !ok || !strings.EqualFold(string(bytes.TrimSpace(name)), "Authentication-Results") {
		return false
	}
	// As authres.Parse reads the unfolded value: up to the first ';',
	// the first word.
	v, _, _ := strings.Cut(string(value), ";")
	v = strings.TrimSpace(v)
	if sp := strings.IndexFunc(v, unicode.IsSpace); sp > 0 {
		v = v[:sp]
	}
	return strings.EqualFold(v, id)
}
