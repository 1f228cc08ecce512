package record

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Parse reads a record as String writes it. It is lenient where PGN is
// (any whitespace between tokens, move numbers optional, CRLF line ends)
// and refuses, with the line and what was expected, anything else: more
// than MaxBytes, MaxTags, MaxMoves, a tag or comment too long, invalid
// UTF-8, variations, annotations, a second game. Moves are not checked
// here (Replay does that with the game's rules); their seats are left 0.
func Parse(text string) (*Record, error) {
	if len(text) > MaxBytes {
		return nil, fmt.Errorf("the record has %d bytes; a record has at most %d", len(text), MaxBytes)
	}
	if !utf8.ValidString(text) {
		return nil, fmt.Errorf("the record is not valid UTF-8 text")
	}
	p := &parser{text: text, line: 1}
	r := &Record{}
	if err := p.tags(r); err != nil {
		return nil, err
	}
	if err := p.movetext(r); err != nil {
		return nil, err
	}
	return r, nil
}

type parser struct {
	text string
	i    int
	line int
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("line %d: %s", p.line, fmt.Sprintf(format, args...))
}

// space skips whitespace, counting lines.
func (p *parser) space() {
	for p.i < len(p.text) {
		switch p.text[p.i] {
		case '\n':
			p.line++
		case ' ', '\t', '\r', '\f', '\v':
		default:
			return
		}
		p.i++
	}
}

// tags reads the tag pairs: [Name "Value"], each on a line of its own.
func (p *parser) tags(r *Record) error {
	for {
		p.space()
		if p.i >= len(p.text) || p.text[p.i] != '[' {
			return nil
		}
		if len(r.Tags) == MaxTags {
			return p.errorf("more than %d tags; a record has at most %d", MaxTags, MaxTags)
		}
		p.i++
		start := p.i
		for p.i < len(p.text) && isNameByte(p.text[p.i]) {
			p.i++
		}
		name := p.text[start:p.i]
		if name == "" || len(name) > 64 {
			return p.errorf(`a tag starts with [, a name of letters, digits and _ (at most 64), then a value in quotes, like [White "alice"]`)
		}
		for p.i < len(p.text) && (p.text[p.i] == ' ' || p.text[p.i] == '\t') {
			p.i++
		}
		value, err := p.quoted(name)
		if err != nil {
			return err
		}
		for p.i < len(p.text) && (p.text[p.i] == ' ' || p.text[p.i] == '\t') {
			p.i++
		}
		if p.i >= len(p.text) || p.text[p.i] != ']' {
			return p.errorf("tag %s: its value is followed by ] and the end of the line", name)
		}
		p.i++
		if hasTag(r, name) {
			return p.errorf("tag %s is given twice; each tag comes once", name)
		}
		r.Tags = append(r.Tags, Tag{name, value})
	}
}

func hasTag(r *Record, name string) bool {
	for _, t := range r.Tags {
		if t.Name == name {
			return true
		}
	}
	return false
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// quoted reads a tag's value in quotes, with \" and \\ inside.
func (p *parser) quoted(name string) (string, error) {
	if p.i >= len(p.text) || p.text[p.i] != '"' {
		return "", p.errorf(`tag %s: its value goes in quotes, like [%s "value"]`, name, name)
	}
	p.i++
	var b strings.Builder
	for {
		if p.i >= len(p.text) || p.text[p.i] == '\n' {
			return "", p.errorf(`tag %s: its value has no closing quote on its line; write \" for a quote inside`, name)
		}
		c := p.text[p.i]
		p.i++
		switch c {
		case '"':
			return b.String(), nil
		case '\\':
			if p.i >= len(p.text) || p.text[p.i] != '"' && p.text[p.i] != '\\' {
				return "", p.errorf(`tag %s: a backslash in a value comes before " or \ alone`, name)
			}
			b.WriteByte(p.text[p.i])
			p.i++
		default:
			if c < ' ' && c != '\t' {
				return "", p.errorf("tag %s: its value holds a control character", name)
			}
			b.WriteByte(c)
		}
		if b.Len() > MaxTagText {
			return "", p.errorf("tag %s: its value is longer than %d bytes", name, MaxTagText)
		}
	}
}

// movetext reads the moves, comments and move numbers up to the result,
// which ends the record.
func (p *parser) movetext(r *Record) error {
	for {
		p.space()
		if p.i >= len(p.text) {
			return p.errorf("the record ends without a result; the moves end in 1-0, 0-1, 1/2-1/2 or *")
		}
		switch c := p.text[p.i]; c {
		case '{':
			text, err := p.comment()
			if err != nil {
				return err
			}
			r.Comments = append(r.Comments, Comment{After: len(r.Moves), Text: text})
			continue
		case '(', ')':
			return p.errorf("%q: a record holds no variations, only the moves played", c)
		case '$', ';', '%', '[':
			return p.errorf("%q: a record holds moves, move numbers and comments in braces here", c)
		}
		start, line := p.i, p.line
		for p.i < len(p.text) && !isSpace(p.text[p.i]) && p.text[p.i] != '{' {
			p.i++
		}
		tok := p.text[start:p.i]
		switch {
		case isResult(tok):
			if want := r.Result(); hasTag(r, "Result") && tok != want {
				return p.errorf("the moves end in %s, but the Result tag says %s", tok, want)
			}
			r.Set("Result", tok)
			p.space()
			if p.i < len(p.text) {
				return p.errorf("text after the result %s; a record is one game", tok)
			}
			return nil
		case isMoveNumber(tok):
			continue
		case len(tok) > maxMoveLen:
			p.line = line
			return p.errorf("move %d is longer than %d bytes", len(r.Moves)+1, maxMoveLen)
		}
		if len(r.Moves) == MaxMoves {
			return p.errorf("more than %d moves; a record has at most %d", MaxMoves, MaxMoves)
		}
		r.Moves = append(r.Moves, Move{Text: tok})
	}
}

// comment reads a comment in braces: "\\" is a backslash, "\x7d" a closing
// brace, and runs of whitespace are one space.
func (p *parser) comment() (string, error) {
	start := p.line
	p.i++ // {
	var b strings.Builder
	for {
		if p.i >= len(p.text) {
			p.line = start
			return "", p.errorf("a comment { has no closing }")
		}
		c := p.text[p.i]
		switch {
		case c == '}':
			p.i++
			return strings.Join(strings.Fields(b.String()), " "), nil
		case c == '\\' && strings.HasPrefix(p.text[p.i:], `\\`):
			b.WriteByte('\\')
			p.i += 2
		case c == '\\' && strings.HasPrefix(p.text[p.i:], `\x7d`):
			b.WriteByte('}')
			p.i += 4
		case c == '\\':
			return "", p.errorf(`a backslash in a comment comes before \ or x7d (a closing brace) alone`)
		default:
			if c == '\n' {
				p.line++
			}
			if c < ' ' && !isSpace(c) {
				return "", p.errorf("a comment holds a control character")
			}
			b.WriteByte(c)
			p.i++
		}
		if b.Len() > MaxComment {
			p.line = start
			return "", p.errorf("a comment is longer than %d bytes", MaxComment)
		}
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v'
}

func isResult(tok string) bool {
	return tok == WhiteWins || tok == BlackWins || tok == DrawResult || tok == Unfinished
}

// isMoveNumber reports whether tok is a move number: digits and "." or
// "...".
func isMoveNumber(tok string) bool {
	digits := strings.TrimRight(tok, ".")
	dots := len(tok) - len(digits)
	if digits == "" || dots != 1 && dots != 3 || len(digits) > 6 {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}
