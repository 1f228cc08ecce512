package mailmsg

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// maxHTMLToken is the largest HTML token htmlText reads: 1 MiB holds an
// inline image or a style sheet.
const maxHTMLToken = 1 << 20

// htmlText reduces an HTML body to plain text with x/net/html's tokenizer:
// block elements end lines, paragraphs and lists leave a blank line,
// blockquotes become "> " quotes (at most maxQuote deep), preformatted text
// keeps its spaces and lines, table cells are parted by a space, scripts,
// styles and the head vanish, entities are decoded. It stops once maxText
// bytes of text are written, and at a token over maxHTMLToken bytes.
//
// Time and memory are linear in len(s): the tokenizer holds one token at a
// time, nesting is counted, not stacked, and a line's quote prefix is at
// most maxQuote bytes, so each tag adds at most maxQuote+3 bytes of output.
func htmlText(s []byte, maxQuote, maxText int) string {
	w := &htmlWriter{maxQuote: maxQuote, maxText: maxText}
	z := html.NewTokenizer(bytes.NewReader(s))
	// One token (a text, a tag with its attributes, a comment) is held
	// whole; one larger than this, which no mail needs for its text, ends
	// the text there.
	z.SetMaxBuf(maxHTMLToken)
	for w.out.Len() <= maxText {
		tt := z.Next()
		if tt == html.ErrorToken {
			break // io.EOF, or html.ErrBufferExceeded
		}
		switch tt {
		case html.TextToken:
			if w.skip == 0 && w.out.Len()+w.line.Len() <= maxText {
				w.text(z.Text())
			}
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			w.tag(string(name), tt)
		}
	}
	return w.result(maxText)
}

// htmlWriter is the state of htmlText: the lines written, the line being
// filled and the nesting it is in.
type htmlWriter struct {
	maxQuote, maxText int

	out     strings.Builder // the finished lines, each ending in "\n"
	line    strings.Builder // the line being filled
	pending bool            // a blank line is due before the next line written
	started bool            // a line has been written
	quote   int             // blockquote depth, counted whole; shown up to maxQuote
	pre     int             // pre depth
	skip    int             // depth of elements whose text is no content (script, style, head)
}

// tag handles one tag.
func (w *htmlWriter) tag(name string, tt html.TokenType) {
	start := tt == html.StartTagToken
	end := tt == html.EndTagToken
	switch name {
	case "script", "style", "head", "title", "template", "svg":
		if start {
			w.skip++
		} else if end && w.skip > 0 {
			w.skip--
		}
		return
	case "body":
		// A body ends a head that was never closed.
		if start {
			w.skip = 0
		}
		return
	}
	if w.skip > 0 {
		return
	}
	switch name {
	case "br":
		w.emit(true)
	case "blockquote":
		w.emit(false)
		switch {
		case start:
			w.quote++
		case end && w.quote > 0:
			w.quote--
		}
	case "pre", "textarea", "listing", "xmp", "plaintext":
		w.emit(false)
		switch {
		case start:
			w.pre++
		case end && w.pre > 0:
			w.pre--
		}
	case "p", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "dl", "menu", "figure", "fieldset", "details":
		w.paragraph()
	case "div", "tr", "li", "hr", "dd", "dt", "section", "article", "header", "footer", "nav", "aside", "main",
		"address", "center", "form", "caption", "thead", "tbody", "tfoot", "figcaption", "summary", "legend", "option":
		w.emit(false)
	case "td", "th":
		if start && w.line.Len() > 0 && !strings.HasSuffix(w.line.String(), " ") {
			w.line.WriteByte(' ')
		}
	}
}

// text adds the decoded text of a text token to the line: runs of white
// space (no-break spaces included) become one space, except inside pre,
// where lines and spaces are kept.
func (w *htmlWriter) text(t []byte) {
	if w.pre > 0 {
		for len(t) > 0 && w.out.Len()+w.line.Len() <= w.maxText {
			seg, rest, found := bytes.Cut(t, []byte("\n"))
			w.line.WriteString(strings.ReplaceAll(string(seg), "\u00a0", " "))
			if found {
				w.emit(true)
			}
			t = rest
		}
		return
	}
	if len(t) == 0 {
		return
	}
	space := func(r rune) bool { return r == '\u00a0' || r < 0x80 && isHTMLSpace(byte(r)) }
	first, _ := utf8.DecodeRune(t)
	last, _ := utf8.DecodeLastRune(t)
	if space(first) && w.line.Len() > 0 && !strings.HasSuffix(w.line.String(), " ") {
		w.line.WriteByte(' ')
	}
	n := 0
	for word := range bytes.FieldsFuncSeq(t, space) {
		if w.line.Len() > w.maxText {
			return // htmlText stops before this line is written
		}
		if n > 0 {
			w.line.WriteByte(' ')
		}
		w.line.Write(word)
		n++
	}
	if space(last) && n > 0 {
		w.line.WriteByte(' ')
	}
}

// emit ends the line being filled. An empty line is written only when hard
// (a <br>); blank lines are squeezed and dropped at both ends.
func (w *htmlWriter) emit(hard bool) {
	t := strings.TrimRight(w.line.String(), " ")
	if w.pre == 0 {
		t = strings.TrimLeft(t, " ")
	}
	w.line.Reset()
	if t == "" && !hard {
		return
	}
	line := quoteLine(min(w.quote, w.maxQuote), t)
	if line == "" {
		w.pending = w.started
		return
	}
	if w.pending {
		w.out.WriteByte('\n')
		w.pending = false
	}
	w.out.WriteString(line)
	w.out.WriteByte('\n')
	w.started = true
}

// paragraph ends the line and leaves a blank line after it.
func (w *htmlWriter) paragraph() {
	w.emit(false)
	w.pending = w.started
}

// result ends the last line and returns the text, cut to maxText bytes.
func (w *htmlWriter) result(maxText int) string {
	w.emit(false)
	return cutText(w.out.String(), maxText)
}

func isHTMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}
