package pbem

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/store"
)

// A MailError is why a mail was not handled. Temporary errors (the store
// could not be written) may pass when tried again; the others (a mail that
// cannot be read, a command that crashed) would fail the same way again, so
// the mail belongs in quarantine: see Quarantine.
type MailError struct {
	Err       error
	temporary bool
}

func (e *MailError) Error() string { return e.Err.Error() }
func (e *MailError) Unwrap() error { return e.Err }

// Temporary reports whether trying the mail again later may succeed.
func (e *MailError) Temporary() bool { return e.temporary }

func temporary(err error) error { return &MailError{Err: err, temporary: true} }
func permanent(err error) error { return &MailError{Err: err} }

// IsTemporary reports whether err, returned for a mail, may pass when the
// mail is tried again. Errors of unknown kind count as temporary.
func IsTemporary(err error) bool {
	var t interface{ Temporary() bool }
	return !errors.As(err, &t) || t.Temporary()
}

// errPanic is the error of a command that panicked: a bug, which the same
// mail would hit again.
type errPanic struct {
	value any
	stack []byte
}

func (e *errPanic) Error() string { return fmt.Sprintf("the command crashed the server: %v", e.value) }

// safely runs fn, turning a panic into an *errPanic.
func safely(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &errPanic{value: p, stack: debug.Stack()}
		}
	}()
	return fn()
}

// readMailSafely is ReadMail that turns a panic of the parser into an error.
func readMailSafely(lim mailmsg.Limits, raw []byte) (m *mailmsg.Incoming, err error) {
	err = safely(func() error {
		m, err = lim.ReadMail(raw)
		return err
	})
	return m, err
}

// Quarantine answers, once, a mail that will not be handled, and marks it
// handled so that it is never answered or tried again. why says what went
// wrong, for the log and the administrator; the answer says only that the
// server failed on the mail, since why may name files of the server. The
// answer quotes nothing of the mail, which may hold a password. With keep,
// the mail itself is kept in the store (bounded by the largest mail read,
// its passwords masked) for the administrator, as pbem/intake does for
// every way in; the IMAP watcher also keeps it, as it came, in a folder.
//
// It returns the outbox ids of the answer, for "pbemd deliver -print".
func (s *Service) Quarantine(raw []byte, why string, keep bool) ([]uint64, error) {
	var stored *store.Quarantined
	if keep {
		stored = &store.Quarantined{Data: raw}
	}
	return s.answerOnce(headerOf(raw), contentKey(raw), "pbemd: mail not handled", "quarantined", map[string]any{"Why": "the server failed on it"}, why, stored)
}

// TooLarge answers, once, a mail of size bytes that is larger than limit,
// the largest mail the server reads: header is its header alone (or the
// mail's first bytes; the body is ignored). The header is kept in the
// store's quarantine, so that pbemd admin lists the mail with the others.
// It returns the outbox ids of the answer.
func (s *Service) TooLarge(header []byte, size, limit int64) ([]uint64, error) {
	h := headerOf(header)
	why := fmt.Sprintf("the mail has %d bytes, more than the %d read", size, limit)
	key := contentKey(append(h, fmt.Sprintf("\x00%d", size)...))
	return s.answerOnce(h, key, "pbemd: mail too large", "toolarge", map[string]any{"Size": size, "Limit": limit}, why,
		&store.Quarantined{Data: h, Kind: store.TooLarge, Size: size})
}

// headerOf is the header of raw with an empty body, at most 256 KiB of
// it: all the answer to a mail that is not handled needs.
func headerOf(raw []byte) []byte {
	const most = 256 << 10
	end := len(raw)
	for _, sep := range []string{"\r\n\r\n", "\n\n"} {
		if i := bytes.Index(raw, []byte(sep)); i >= 0 && i+len(sep) < end {
			end = i + len(sep)
		}
	}
	end = min(end, most)
	h := append([]byte(nil), raw[:end]...)
	if !bytes.HasSuffix(h, []byte("\n\n")) && !bytes.HasSuffix(h, []byte("\r\n\r\n")) {
		h = append(h, "\r\n\r\n"...)
	}
	return h
}

// contentKey is the processed-mail key of a mail that cannot be read.
func contentKey(raw []byte) string {
	sum := sha256.Sum256(raw)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// answerOnce replies with the template to the sender of the mail whose
// header is given, unless the mail was handled before or is one never to
// answer, and marks the mail handled. key is used when the header has no
// Message-ID. With keep not nil, the mail (keep.Data) is also stored in
// quarantine.
func (s *Service) answerOnce(header []byte, key, subject, template string, data map[string]any, why string, keep *store.Quarantined) ([]uint64, error) {
	m, err := readMailSafely(s.cfg.Mail, header)
	if err != nil {
		m = nil // no sender to answer: only mark it, and keep it
	} else if m.MessageID != "" {
		key = m.Key
	}
	answer := m != nil && m.From != "" && m.Ignore(s.own()) == ""
	if m != nil {
		s.log.Warn("mail not handled", "from", m.From, "id", m.MessageID, "why", why)
	} else {
		s.log.Warn("unreadable mail not handled", "key", key, "why", why)
	}
	var body string
	if answer {
		if body, err = render(template, data); err != nil {
			return nil, err
		}
	}
	var ids []uint64
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.cfg.Now()
	err = s.db.Update(func(tx *store.Tx) error {
		if done, err := tx.Processed(key); err != nil || done {
			return err
		}
		if keep != nil {
			rec := *keep
			rec.Key, rec.At, rec.Why, rec.Data = key, now, why, s.maskStored(tx, keep.Data)
			if m != nil {
				rec.From = m.From
			}
			if err := tx.Quarantine(&rec); err != nil {
				return err
			}
			if _, err := s.pruneQuarantine(tx, now); err != nil {
				return err
			}
		}
		if answer {
			r := &request{s: s, tx: tx, mail: m, now: now}
			ok, err := r.allowSender()
			if err != nil {
				return err
			}
			if ok {
				r.replyText(r.sender(), subject, body)
			}
			if err := r.compose(); err != nil {
				return err
			}
			ids = nil
			for _, out := range r.out {
				if err := tx.Enqueue(out); err != nil {
					return err
				}
				ids = append(ids, out.ID)
			}
		}
		return tx.MarkProcessed(key, now)
	})
	if err != nil {
		return nil, temporary(fmt.Errorf("storing the answer to a mail not handled: %w", err))
	}
	return ids, nil
}

// pruneQuarantine forgets, at most pruneBatch at a time, the quarantined
// mails older than Limits.KeepQuarantined, and the oldest while they
// take more than Limits.QuarantineBytes: "pbemd deliver" keeps a mail
// there whenever one fails, and a mail may have up to largest_mail bytes.
func (s *Service) pruneQuarantine(tx *store.Tx, now time.Time) (int, error) {
	return tx.PruneQuarantine(now.Add(-s.limits.KeepQuarantined), s.limits.QuarantineBytes, pruneBatch)
}

// Check reports whether the store takes a small write now. After a mail
// failed for a temporary reason it tells a failing mail from a failing
// store: bbolt reuses free pages, so a small write may pass while a large
// one fails on a full disk, and then the mail is at fault.
func (s *Service) Check() error {
	return s.db.Update(func(tx *store.Tx) error {
		return tx.SetNote("check", s.cfg.Now().UTC().Format(time.RFC3339Nano))
	})
}

// CountFailure counts, in the store, one more temporary failure of the mail
// while the store itself works, and returns the count, so that every way in
// and every try (a "pbemd deliver" per try of the mail system, a restarted
// daemon) share it. At most it forgets the count: the caller then sets the
// mail aside for good. The count is a counter that expires
// Limits.KeepQuarantined after the last failure, so that the counts of
// mails that went through at a later try are forgotten.
func (s *Service) CountFailure(raw []byte, most int) (int, error) {
	key := contentKey(raw)
	if m, err := readMailSafely(s.cfg.Mail, raw); err == nil {
		key = m.Key
	}
	counter := failuresKey(key)
	var n int
	err := s.db.Update(func(tx *store.Tx) error {
		now := s.cfg.Now()
		c, err := tx.Counter(counter)
		if err != nil {
			c = store.Counter{} // one that does not read counts afresh
		}
		n = c.Count + 1
		if n >= most {
			return tx.PutCounter(counter, store.Counter{Start: now, Expires: now})
		}
		if c.Start.IsZero() {
			c.Start = now
		}
		c.Count, c.Expires = n, now.Add(s.limits.KeepQuarantined)
		return tx.PutCounter(counter, c)
	})
	if err != nil {
		return 0, temporary(err)
	}
	return n, nil
}

// failuresKey is the counter of a mail's failed tries: a hash of its key.
func failuresKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return "failures:" + hex.EncodeToString(sum[:])
}

// maskStored returns the raw mail with the words its commands name as
// passwords shown as ******** wherever they occur, so that a mail kept for
// the administrator keeps no one's password. The passwords are guessed
// from the Subject and the first maxStoredLines command lines
// (passwordGuesses).
//
// Where the raw text holds them as they are, the mail is kept as it came
// with them masked. Where they are encoded (a quoted-printable or base64
// body, an encoded Subject), masking the raw bytes would miss them: the
// mail is kept as read instead, its header fields that name it and its
// decoded Subject and text, masked (see decodedCopy).
func (s *Service) maskStored(tx *store.Tx, raw []byte) []byte {
	m, err := readMailSafely(s.cfg.Mail, raw)
	if err != nil {
		return raw // not a mail: no command, so no password in its place
	}
	secrets := passwordGuesses(tx, commandWords(m.Subject))
	for i, l := range mailmsg.CommandLines(m.Text) {
		if i == maxStoredLines {
			break
		}
		secrets = append(secrets, passwordGuesses(tx, commandWords(l))...)
	}
	secrets = slices.DeleteFunc(secrets, func(w string) bool { return len(w) < minPassword })
	mask := func(text string) string { return maskWords(text, secrets) }
	if plainMail(m, raw) {
		kept := []byte(mask(string(raw)))
		if k, err := readMailSafely(s.cfg.Mail, kept); err == nil && mask(k.Subject) == k.Subject && mask(k.Text) == k.Text {
			return kept
		}
	}
	return decodedCopy(m, mask)
}

// maxStoredLines bounds the command lines of a quarantined mail read for
// passwords: 16 lookups each, some 16,000 for a mail that is all lines.
const maxStoredLines = 1000

// plainMail reports whether the mail's bytes are its text: one part,
// neither base64 nor quoted-printable, no encoded word in its header. Only
// such a mail is kept as it came, masked; in any other a password may be
// encoded (in a part the commands were not read from, as the HTML half of
// a multipart/alternative) where masking the bytes cannot find it.
func plainMail(m *mailmsg.Incoming, raw []byte) bool {
	header, _, _ := bytes.Cut(raw, []byte("\r\n\r\n"))
	if bytes.Contains(header, []byte("=?")) {
		return false
	}
	ct := strings.ToLower(m.Header.Get("Content-Type"))
	switch strings.ToLower(strings.TrimSpace(m.Header.Get("Content-Transfer-Encoding"))) {
	case "", "7bit", "8bit", "binary":
		return !strings.HasPrefix(ct, "multipart/") && !strings.HasPrefix(ct, "message/")
	}
	return false
}

// decodedCopy is the mail m as it was read, a plain text mail: the header
// fields that name the mail and thread it, its decoded Subject and text,
// all passed through mask, and a note that it was decoded.
func decodedCopy(m *mailmsg.Incoming, mask func(string) string) []byte {
	var b strings.Builder
	for _, name := range []string{"Date", "From", "To", "Cc", "Message-Id", "In-Reply-To", "References"} {
		for _, v := range m.Header[name] {
			fmt.Fprintf(&b, "%s: %s\r\n", name, mask(v))
		}
	}
	fmt.Fprintf(&b, "Subject: %s\r\n", mime.QEncoding.Encode("utf-8", mask(m.Subject)))
	b.WriteString("X-Pbemd-Quarantine: decoded by pbemd, passwords masked\r\n")
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n")
	b.WriteString(strings.ReplaceAll(mask(m.Text), "\n", "\r\n"))
	return []byte(b.String())
}
