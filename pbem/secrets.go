package pbem

import (
	"context"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// masked is what a password shows as wherever the request writes text.
const masked = "********"

// Password words the request has seen, by what is known of them.
const (
	named = iota + 1 // in a command's password place, not checked (yet)
	wrong            // checked, and not the account's password
	right            // the account's password (checked, or just set)
)

// secret records a word a command names as a password: every reply, stored
// comment and log line of the request shows it masked, unless it was
// checked and found wrong (no one's password, and masking a wrong guess
// such as "wrong" would garble the reply's text). Words shorter than the
// shortest password are no one's password either.
func (r *request) secret(password string) { r.setSecret(password, named) }

// checked records the outcome of a password check.
func (r *request) checked(password string, ok bool) {
	if ok {
		r.setSecret(password, right)
	} else {
		r.setSecret(password, wrong)
	}
}

func (r *request) setSecret(password string, state int) {
	if len(password) < minPassword {
		return
	}
	if r.secrets == nil {
		r.secrets = map[string]int{}
	}
	if old := r.secrets[password]; old == right || old == wrong && state == named {
		return
	}
	r.secrets[password] = state
}

// mask returns s with every password of the request replaced by ********.
func (r *request) mask(s string) string {
	var words []string
	for p, state := range r.secrets {
		if state == wrong {
			continue
		}
		words = append(words, p)
		if q := strconv.Quote(p); q[1:len(q)-1] != p {
			words = append(words, q[1:len(q)-1]) // as %q writes it
		}
	}
	// Longest first: a password that holds another is masked whole.
	sort.Slice(words, func(i, j int) bool { return len(words[i]) > len(words[j]) })
	for _, w := range words {
		s = maskWord(s, w)
	}
	return s
}

// maskWord replaces each occurrence of w in s that is not part of a longer
// word (no letter or digit right before or after it) by ********.
func maskWord(s, w string) string {
	if w == "" || !strings.Contains(s, w) {
		return s
	}
	var b strings.Builder
	done := 0 // s[:done] is written to b
	for from := 0; ; {
		i := strings.Index(s[from:], w)
		if i < 0 {
			break
		}
		start, end := from+i, from+i+len(w)
		before, _ := utf8.DecodeLastRuneInString(s[:start])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if start > 0 && isWordRune(before) || end < len(s) && isWordRune(after) {
			from = start + 1
			continue
		}
		b.WriteString(s[done:start])
		b.WriteString(masked)
		done, from = end, end
	}
	b.WriteString(s[done:])
	return b.String()
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// logger is the service's logger with the request's passwords masked in
// every message and string value.
func (r *request) logger() *slog.Logger {
	if len(r.secrets) == 0 {
		return r.s.log
	}
	return slog.New(&maskHandler{next: r.s.log.Handler(), mask: r.mask})
}

// maskHandler masks the message and the string values of every record
// before the next handler sees it.
type maskHandler struct {
	next slog.Handler
	mask func(string) string
}

func (h *maskHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h *maskHandler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, h.mask(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.maskAttr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h *maskHandler) maskAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.mask(v.String()))
	case slog.KindGroup:
		var as []any
		for _, g := range v.Group() {
			as = append(as, h.maskAttr(g))
		}
		return slog.Group(a.Key, as...)
	case slog.KindAny:
		// Errors and other values print through fmt: mask what they print.
		return slog.String(a.Key, h.mask(v.String()))
	}
	return slog.Attr{Key: a.Key, Value: v}
}

func (h *maskHandler) WithAttrs(as []slog.Attr) slog.Handler {
	masked := make([]slog.Attr, len(as))
	for i, a := range as {
		masked[i] = h.maskAttr(a)
	}
	return &maskHandler{next: h.next.WithAttrs(masked), mask: h.mask}
}

func (h *maskHandler) WithGroup(name string) slog.Handler {
	return &maskHandler{next: h.next.WithGroup(name), mask: h.mask}
}

// maskedError is an error whose text has the request's passwords masked,
// for the callers of Deliver that log it.
type maskedError struct {
	text string
	err  error
}

func (e *maskedError) Error() string { return e.text }
func (e *maskedError) Unwrap() error { return e.err }

// maskError returns err with its text masked, or err when nothing changes.
func (r *request) maskError(err error) error {
	if err == nil {
		return nil
	}
	if t := r.mask(err.Error()); t != err.Error() {
		return &maskedError{text: t, err: err}
	}
	return err
}
