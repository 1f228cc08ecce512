package pbem

import (
	"context"
	"log/slog"
	"slices"
	"sort"
	"strconv"
	"strings"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/store"
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
	return maskWords(s, words)
}

// maskWords replaces every occurrence of each word in s by ********,
// whatever stands beside it: a password written next to a letter or digit
// ("密码secret2", "2secret2") is still the password, and a longer word
// that holds it would give it away. The longest words go first, so that a
// password that holds another is masked whole.
func maskWords(s string, words []string) string {
	words = slices.Clone(words)
	sort.Slice(words, func(i, j int) bool { return len(words[i]) > len(words[j]) })
	for _, w := range words {
		if w != "" {
			s = strings.ReplaceAll(s, w, masked)
		}
	}
	return s
}

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

// passwordGuesses returns the words of a command that stand where a
// password would, found without running the command: for a line of a
// multiple mail beyond the limit, a command whose word was mistyped, a
// mail kept in quarantine. A password is signup's second word, or the word
// after the first known user id (for "change" and "reset", the two words
// after it: old and new password, or code and new password). At most the
// first 16 words are read, so a line costs at most 16 lookups.
func passwordGuesses(tx *store.Tx, words []string) []string {
	words = words[:min(len(words), 16)]
	var guesses []string
	if len(words) > 2 && strings.EqualFold(words[0], "signup") {
		guesses = append(guesses, words[2])
	}
	for i := 1; i+1 < len(words); i++ {
		// A user whose record does not read is still a user.
		if _, err := tx.User(words[i]); errNotFound(err) {
			continue
		}
		guesses = append(guesses, words[i+1])
		if (strings.EqualFold(words[0], "change") || strings.EqualFold(words[0], "reset")) && i+2 < len(words) {
			guesses = append(guesses, words[i+2])
		}
		break
	}
	return guesses
}

// guessSecrets records as passwords the words that stand where a password
// would in a command that was not run or not understood (passwordGuesses):
// the reply that quotes it shows them masked.
func (r *request) guessSecrets(words []string) {
	for _, w := range passwordGuesses(r.tx, words) {
		r.secret(w)
	}
}

// maskLines masks a reply's text as mask does, line by line: a line of
// prose that the mask made wider than model.LineWidth (a short password's mask
// is longer) is wrapped again, as model.WrapText does; quoted lines ("> ") stay
// as they are.
func (r *request) maskLines(text string) string {
	masked := r.mask(text)
	if masked == text {
		return text
	}
	// A mask holds no line break: the lines correspond.
	was, lines := strings.Split(text, "\n"), strings.Split(masked, "\n")
	if len(was) != len(lines) {
		return masked
	}
	for i, l := range lines {
		if l != was[i] && len(l) > model.LineWidth && !strings.HasPrefix(l, ">") {
			lines[i] = model.WrapText(l)
		}
	}
	return strings.Join(lines, "\n")
}
