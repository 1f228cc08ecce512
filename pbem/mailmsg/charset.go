package mailmsg

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/emersion/go-message/charset"
	"golang.org/x/text/encoding/charmap"
)

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
