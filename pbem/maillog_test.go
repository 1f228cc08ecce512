package pbem

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
)

// logLines gives the harness a JSON logger and returns a function that
// reads the "mail" lines logged since the last call.
func logLines(t *testing.T, h *harness) (func() []map[string]any, *bytes.Buffer) {
	var buf bytes.Buffer
	h.svc.log = slog.New(slog.NewJSONHandler(&buf, nil))
	read := 0
	return func() []map[string]any {
		t.Helper()
		var lines []map[string]any
		for _, l := range strings.Split(strings.TrimSpace(buf.String()[read:]), "\n") {
			if l == "" {
				continue
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("log line %q: %v", l, err)
			}
			if m["msg"] == "mail" {
				lines = append(lines, m)
			}
		}
		read = buf.Len()
		return lines
	}, &buf
}

// Every mail gets one log line with its sender, a hash of its Message-ID,
// the command, game, board, user, the result and why, the replies queued
// and the milliseconds; no password shows anywhere in the log.
func TestMailLogLine(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	lines, buf := logLines(t, h)
	h.signup("alice", "bob")
	lines()
	g := gameNames()[0]
	h.send("alice@example.org", g+" challenge alice bob", "")
	lines()

	type want struct {
		from, subject       string
		command, game, user string
		board               float64
		result, why         string
		replies             float64
	}
	cases := []want{
		{from: "bob@example.org", subject: g + " show 101", command: "show", game: g, user: "bob", board: 101, result: "played", replies: 1},
		{from: "alice@example.org", subject: g + " move 101 alice pw-bob xx", command: "move", game: g, user: "alice", board: 101,
			result: "refused", why: "The password for alice is wrong", replies: 1},
		{from: "bob@example.org", subject: "change password bob pw-bob n3wSecret", command: "change", user: "bob", result: "played", replies: 1},
		{from: "bob@example.org", subject: "reset bob sixsixsix n3wSecret2", command: "reset", user: "bob", result: "refused",
			why: "bob has no reset code", replies: 1},
		{from: "mallory@evil.example", subject: "chess", command: "", result: "refused", why: "no command, from a stranger: sent how to sign up", replies: 1},
		{from: "mallory@evil.example", subject: "chess", command: "", result: "ignored", why: "no command, from a stranger; the how-to note went out today already"},
	}
	for _, c := range cases {
		h.send(c.from, c.subject, "")
		got := lines()
		if len(got) != 1 {
			t.Fatalf("%q: %d log lines %v; want one", c.subject, len(got), got)
		}
		l := got[0]
		check := func(key string, v any) {
			if l[key] != v {
				t.Errorf("%q: %s = %v; want %v (line %v)", c.subject, key, l[key], v, l)
			}
		}
		check("from", c.from)
		check("command", c.command)
		check("game", c.game)
		check("user", c.user)
		check("board", c.board)
		check("result", c.result)
		check("replies", c.replies)
		if why, _ := l["why"].(string); !strings.HasPrefix(why, c.why) || c.why == "" && why != "" {
			t.Errorf("%q: why = %q; want it to start with %q", c.subject, why, c.why)
		}
		if id, _ := l["msgid"].(string); len(id) != 12 || strings.Contains(id, "@") {
			t.Errorf("%q: msgid = %q; want a 12-digit hash", c.subject, id)
		}
		if _, ok := l["ms"].(float64); !ok {
			t.Errorf("%q: no ms in %v", c.subject, l)
		}
	}

	// Ignored: a bounce (loop guard), the same mail again, a banned sender,
	// a locked account.
	bounce := []byte("From: MAILER-DAEMON@example.org\r\nSubject: failure\r\nMessage-ID: <b1@x>\r\n\r\nx\r\n")
	h.deliver(bounce)
	again := h.mail("alice@example.org", g+" show 101", "")
	h.deliver(again)
	lines()
	h.deliver(again)
	if _, err := h.svc.Ban("carol@example.org", true, h.now); err != nil {
		t.Fatal(err)
	}
	h.send("carol@example.org", "signup carol pw-carol", "")
	got := lines()
	for i, why := range []string{"already handled", "the sender's address is banned"} {
		if i >= len(got) || got[i]["result"] != "ignored" || !strings.HasPrefix(got[i]["why"].(string), why) {
			t.Errorf("ignored mail %d: %v; want result ignored, why %q", i, got, why)
		}
	}
	if !strings.Contains(buf.String(), `"from":"MAILER-DAEMON@example.org","msgid":"`) {
		t.Errorf("the bounce has no log line:\n%s", buf.String())
	}
	for _, secret := range []string{"pw-alice", "pw-bob", "n3wSecret", "n3wSecret2", "pw-carol"} {
		if strings.Contains(buf.String(), secret) {
			t.Errorf("the log shows the password %q:\n%s", secret, buf.String())
		}
	}
}
