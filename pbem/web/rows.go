package web

import (
	"fmt"
	"html/template"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// boardsHTML is the table of a list of boards (a game's page, a player's,
// the front page's), with the column of end dates when ended. It is
// written here rather than by a template because a list has fifty rows
// and each template action costs a reflective call: the template made
// more than half of a game page's CPU in a profile. It writes what the
// template wrote, byte for byte, escaping each text as html/template
// does in its place (escapeText, escapeURL); rows_test.go holds it to
// that.
func boardsHTML(rows []boardRow, ended bool) template.HTML {
	var b strings.Builder
	b.Grow(len(rows) * 300)
	b.WriteString(`<div class="scroll"><table class="boards">` + "\n" +
		`<thead><tr><th scope="col">Board</th><th scope="col">Players</th><th scope="col" class="num">Moves</th><th scope="col">State</th>`)
	if ended {
		b.WriteString(`<th scope="col">Ended</th>`)
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, r := range rows {
		board := strconv.Itoa(r.Board)
		b.WriteString(`<tr><td><a href="/` + escapeURL(r.Kind) + "/" + board + `">` + escapeText(r.Kind) + " " + board + "</a></td><td>")
		for i, p := range r.Players {
			if i > 0 {
				b.WriteString(" – ")
			}
			if p == "" {
				b.WriteString("<i>open</i>")
				continue
			}
			b.WriteString(`<a href="/users/` + escapeURL(url.PathEscape(p)) + `">` + escapeText(p) + "</a>")
		}
		b.WriteString(`</td><td class="num">` + strconv.Itoa(r.Moves) + "</td><td>" + escapeText(r.State) + "</td>")
		if ended {
			b.WriteString("<td>" + escapeText(r.Ended) + "</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table></div>")
	return template.HTML(b.String())
}

// escapeText escapes s as html/template escapes a text in HTML, or in a
// quoted attribute: NUL, quotes, &, +, < and >.
func escapeText(s string) string {
	if !strings.ContainsAny(s, "\x00\"&'+<>") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch r {
		case 0:
			b.WriteString("\uFFFD")
		case '"':
			b.WriteString("&#34;")
		case '&':
			b.WriteString("&amp;")
		case '\'':
			b.WriteString("&#39;")
		case '+':
			b.WriteString("&#43;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		default:
			b.WriteString(s[i : i+w])
		}
		i += w
	}
	return b.String()
}

// escapeURL escapes s as html/template escapes a value in the path of a
// URL in a quoted attribute: it percent-encodes what a URL may not hold
// (keeping valid escapes), then escapes the rest as a text.
func escapeURL(s string) string {
	var b strings.Builder
	written := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			strings.IndexByte("!#$&*+,/:;=?@[]-._~", c) >= 0,
			c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			continue
		}
		b.WriteString(s[written:i])
		fmt.Fprintf(&b, "%%%02x", c)
		written = i + 1
	}
	if written == 0 {
		return escapeText(s)
	}
	b.WriteString(s[written:])
	return escapeText(b.String())
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
