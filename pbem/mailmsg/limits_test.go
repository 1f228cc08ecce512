package mailmsg

import (
	"errors"
	"strings"
	"testing"
)

// TestLimitsConfigured checks that each field of Limits bounds what it says
// when set, and that the zero Limits are the documented defaults.
func TestLimitsConfigured(t *testing.T) {
	t.Parallel()
	def := Limits{}.WithDefaults()
	want := Limits{MaxMailBytes: 10 << 20, MaxHeaderBytes: 128 << 10, MaxHeaderFields: 1000, MaxMIMEDepth: 12,
		MaxMIMEParts: 100, MaxTextBytes: 256 << 10, MaxQuoteDepth: 10}
	if def != want {
		t.Errorf("defaults %+v, want %+v", def, want)
	}
	if got := (Limits{MaxTextBytes: 7}).WithDefaults(); got.MaxTextBytes != 7 || got.MaxMailBytes != want.MaxMailBytes {
		t.Errorf("WithDefaults changed a set field or left a zero one: %+v", got)
	}

	head := "From: a@example.org\r\nSubject: help\r\n"
	refused := func(l Limits, raw, what string) {
		t.Helper()
		m, err := l.ReadMail([]byte(raw))
		var tl *TooLargeError
		if !errors.As(err, &tl) || tl.What != what || m == nil || m.From != "a@example.org" {
			t.Errorf("%+v: got %v, %+v; want the %s too large, with the sender", l, err, m, what)
		}
	}
	refused(Limits{MaxMailBytes: 100}, head+"\r\n"+strings.Repeat("x", 100), "mail")
	refused(Limits{MaxHeaderBytes: 60}, head+"X-A: "+strings.Repeat("a", 30)+"\r\n\r\nbody", "header")
	refused(Limits{MaxHeaderFields: 2}, head+"X-A: b\r\n\r\nbody", "header fields")
	if _, err := (Limits{MaxHeaderFields: 2}).ReadMail([]byte(head + "\r\nbody")); err != nil {
		t.Errorf("two fields with MaxHeaderFields 2: %v", err)
	}

	text := func(l Limits, body, ct string) string {
		t.Helper()
		m, err := l.ReadMail([]byte(head + "Content-Type: " + ct + "\r\n\r\n" + body))
		if err != nil {
			t.Fatal(err)
		}
		return m.Text
	}
	if got := text(Limits{MaxTextBytes: 10}, "line one\nline two\nline three\n", "text/plain"); got != "line one\n" {
		t.Errorf("MaxTextBytes 10 kept %q, want the first line", got)
	}
	if got := text(Limits{MaxQuoteDepth: 2}, "<blockquote><blockquote><blockquote>x", "text/html"); got != ">> x\n" {
		t.Errorf("MaxQuoteDepth 2 gave %q", got)
	}
	parts := strings.Repeat("--b\r\nContent-Type: text/plain\r\n\r\np\r\n", 5) + "--b--\r\n"
	if got := text(Limits{MaxMIMEParts: 3}, parts, "multipart/mixed; boundary=b"); got != "p\np" {
		t.Errorf("MaxMIMEParts 3 (the root and two parts) gave %q", got)
	}
	nested := "--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\nContent-Type: text/plain\r\n\r\ndeep\r\n--c--\r\n--b\r\nContent-Type: text/plain\r\n\r\nshallow\r\n--b--\r\n"
	if got := text(Limits{MaxMIMEDepth: 1}, nested, "multipart/mixed; boundary=b"); got != "shallow" {
		t.Errorf("MaxMIMEDepth 1 gave %q", got)
	}
	if got := text(Limits{}, nested, "multipart/mixed; boundary=b"); got != "deep\nshallow" {
		t.Errorf("default depth gave %q", got)
	}
	if got := text(Limits{MaxHeaderFields: 3}, parts, "multipart/mixed; boundary=b"); got != "p\np\np\n" {
		t.Errorf("MaxHeaderFields 3 (part header lines) gave %q", got)
	}
}

// TestKeyOfBadMessageID checks that a Message-ID no header may carry gives
// a short key, and the same key each time.
func TestKeyOfBadMessageID(t *testing.T) {
	t.Parallel()
	for _, id := range []string{strings.Repeat("x", 40<<10) + "@example.org", "a\x01b@example.org", "j\u00f6rg@example.org"} {
		raw := []byte("From: a@example.org\r\nMessage-ID: <" + id + ">\r\n\r\n")
		m, err := ReadMail(raw)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := ReadMail(raw)
		if !strings.HasPrefix(m.Key, "id-sha256:") || len(m.Key) != len("id-sha256:")+64 || again.Key != m.Key {
			t.Errorf("Message-ID %.20q: Key %.40q, again %.40q", id, m.Key, again.Key)
		}
	}
}
