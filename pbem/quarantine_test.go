package pbem

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/store"
)

// crashOn adds a command "crash" that panics, as a bug in a command would,
// for the length of the test.
func crashOn(t *testing.T) {
	globalCommands["crash"] = &commandRow{name: "crash", run: func(c *cmd, args []string) error { panic("crash for the test") }}
	t.Cleanup(func() { delete(globalCommands, "crash") })
}

// A command that panics fails its mail for good (not temporarily), leaves no
// trace in the store, and in a batch costs the other mails only a retry.
func TestPanickingCommandFailsItsMailOnly(t *testing.T) {
	h := newHarness(t)
	crashOn(t)
	good1 := h.mail("alice@example.org", "signup alice pw-alice", "")
	bad := h.mail("bob@example.org", "crash", "")
	good2 := h.mail("carol@example.org", "signup carol pw-carol", "")
	errs := h.svc.DeliverAll([][]byte{good1, bad, good2})
	if errs[1] == nil || IsTemporary(errs[1]) || !strings.Contains(errs[1].Error(), "crash") {
		t.Fatalf("the crashing mail: %v; want a permanent error naming the crash", errs[1])
	}
	for _, i := range []int{0, 2} {
		if errs[i] == nil || !IsTemporary(errs[i]) {
			t.Fatalf("mail %d of the failed batch: %v; want a temporary error", i, errs[i])
		}
	}
	if out := h.outbox(); len(out) != 0 {
		t.Fatalf("a failed batch left replies %v", subjects(out))
	}
	// One at a time, as the watcher retries them: the good ones pass.
	for _, raw := range [][]byte{good1, good2} {
		if out := h.deliver(raw); len(out) != 1 || !strings.Contains(out[0].Subject, "welcome") {
			t.Fatalf("retried alone: %v", subjects(out))
		}
	}
	if err := h.svc.Deliver(bad); err == nil || IsTemporary(err) {
		t.Fatalf("the crashing mail alone: %v; want a permanent error", err)
	}
}

// A quarantined mail is answered once, kept in the store, and never handled
// afterwards, however often it comes again.
func TestQuarantineAnswersOnce(t *testing.T) {
	h := newHarness(t)
	crashOn(t)
	bad := h.mail("bob@example.org", "crash", "")
	if err := h.svc.Deliver(bad); err == nil {
		t.Fatal("the crashing mail passed")
	}
	for range 2 {
		if _, err := h.svc.Quarantine(bad, "the command crashed the server", true); err != nil {
			t.Fatal(err)
		}
	}
	r := one(t, h.outbox(), "bob@example.org")
	golden(t, "quarantined", []reply{r})
	if r.Subject != "pbemd: mail not handled" || !strings.Contains(r.Body, "Your mail could not be handled: the server failed on it.") {
		t.Errorf("quarantine answer:\nSubject: %s\n\n%s", r.Subject, r.Body)
	}
	if r.InReplyTo == "" {
		t.Error("the answer does not thread to the mail")
	}
	if err := h.svc.Deliver(bad); err != nil {
		t.Errorf("the quarantined mail delivered again: %v; want nil (already handled)", err)
	}
	if out := h.outbox(); len(out) != 0 {
		t.Errorf("the quarantined mail delivered again got replies %v", subjects(out))
	}
	list, err := h.db.Quarantined()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || string(list[0].Data) != string(bad) || list[0].From != "bob@example.org" || list[0].Why == "" {
		t.Fatalf("quarantine holds %d mails: %+v; want the crashing mail once", len(list), list)
	}
}

// Mail that cannot be read at all is quarantined without an answer.
func TestQuarantineUnreadable(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	raw := []byte("\x00\x01\x02 not a mail")
	if _, err := h.svc.Quarantine(raw, "unreadable", true); err != nil {
		t.Fatal(err)
	}
	if out := h.outbox(); len(out) != 0 {
		t.Errorf("an unreadable mail got replies %v", subjects(out))
	}
	if list, err := h.db.Quarantined(); err != nil || len(list) != 1 {
		t.Errorf("quarantine: %d mails, %v; want 1", len(list), err)
	}
}

// A mail too large to read is answered once from its header, saying the
// limit; robots get no answer.
func TestTooLargeAnswer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	head := []byte("From: alice@example.org\r\nSubject: ultima move 101 alice s3cret e2e4\r\nMessage-ID: <big@client.example>\r\n\r\n")
	for range 2 {
		if _, err := h.svc.TooLarge(head, 50<<20, 10<<20); err != nil {
			t.Fatal(err)
		}
	}
	r := one(t, h.outbox(), "alice@example.org")
	golden(t, "toolarge", []reply{r})
	if r.Subject != "pbemd: mail too large" || !strings.Contains(r.Body, "52428800 bytes, more than the 10485760 bytes this server\nreads") || strings.Contains(string(r.Raw), "s3cret") {
		t.Errorf("too-large answer:\nSubject: %s\n\n%s", r.Subject, r.Body)
	}
	robot := []byte("From: MAILER-DAEMON@example.org\r\nSubject: failure notice\r\n\r\n")
	if _, err := h.svc.TooLarge(robot, 50<<20, 10<<20); err != nil {
		t.Fatal(err)
	}
	if out := h.outbox(); len(out) != 0 {
		t.Errorf("a robot's large mail got replies %v", subjects(out))
	}
}

// A mail too large to read is listed in the quarantine with the others,
// by its header and its size, but it cannot be handled again (issue 28).
func TestTooLargeKept(t *testing.T) {
	h := newHarness(t)
	h.signup("alice")
	head := []byte("From: alice@example.org\r\nSubject: ultima move 101 alice pw-alice e2e4\r\nMessage-ID: <big@client.example>\r\n\r\n")
	for range 2 {
		if _, err := h.svc.TooLarge(head, 50<<20, 10<<20); err != nil {
			t.Fatal(err)
		}
	}
	list, err := h.db.Quarantined()
	if err != nil || len(list) != 1 {
		t.Fatalf("quarantine: %d mails, %v; want the too large one once", len(list), err)
	}
	q := list[0]
	if q.Kind != store.TooLarge || q.Size != 50<<20 || q.From != "alice@example.org" || !strings.Contains(string(q.Data), "Message-ID: <big@client.example>") {
		t.Errorf("kept %+v; want kind %q, size %d, the header", q, store.TooLarge, 50<<20)
	}
	if strings.Contains(string(q.Data), "pw-alice") {
		t.Errorf("the kept header shows the password:\n%s", q.Data)
	}
	if _, err := h.svc.Release(q.ID); err == nil || !strings.Contains(err.Error(), "only its header was kept") {
		t.Errorf("release of a header: %v; want a refusal", err)
	}
	if list, _ := h.db.Quarantined(); len(list) != 1 {
		t.Errorf("after the refused release %d mails in quarantine; want it kept", len(list))
	}
}

// A store that cannot be written fails the mail temporarily.
func TestStoreFailureIsTemporary(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.db.Close()
	err := h.svc.Deliver(h.mail("alice@example.org", "signup alice pw-alice", ""))
	if err == nil || !IsTemporary(err) {
		t.Fatalf("Deliver on a closed store: %v; want a temporary error", err)
	}
}

// A mail kept in quarantine keeps no one's password: the words its commands
// name as passwords show as ********, the rest as sent.
func TestQuarantineKeepsNoPassword(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("bob")
	bad := h.mail("bob@example.org", "multiple", "ultima move 101 bob pw-bob e2-e4\nchange password bob pw-bob New-Secret-9\nsignup carol Carol-Pass-1\n")
	if _, err := h.svc.Quarantine(bad, "the command crashed the server", true); err != nil {
		t.Fatal(err)
	}
	list, err := h.db.Quarantined()
	if err != nil || len(list) != 1 {
		t.Fatalf("quarantine: %v, %d mails; want 1", err, len(list))
	}
	kept := string(list[0].Data)
	for _, pw := range []string{"pw-bob", "New-Secret-9", "Carol-Pass-1"} {
		if strings.Contains(kept, pw) {
			t.Errorf("the kept mail holds the password %q:\n%s", pw, kept)
		}
	}
	if !strings.Contains(kept, "ultima move 101 bob ******** e2-e4") {
		t.Errorf("the kept mail lost what is not a password:\n%s", kept)
	}
}

// A mail whose body (or Subject) is encoded, quoted-printable or base64,
// holds its passwords encoded: the kept copy is the mail as read, decoded,
// with them masked, and still reads as the commands it held.
func TestQuarantineKeepsNoEncodedPassword(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("bob")
	text := "ultima move 101 bob pw-bob e2-e4\nchange password bob pw-bob New-Secret-9\nsignup carol Carol-Pass-1 caf\u00e9@example.org\n"
	// As mail clients write it: a soft line break and escapes, here inside
	// the passwords.
	qp := "ultima move 101 bob pw=2Dbob e2-e4\nchange password bob pw-b=\nob New-Sec=\nret-9\nsignup carol =43arol-Pass-1 caf=C3=A9@example.org\n"
	b64 := base64.StdEncoding.EncodeToString([]byte(text))
	for i, c := range []struct{ name, subject, encoding, body string }{
		{"quoted-printable", "multiple", "quoted-printable", qp},
		{"base64", "multiple", "base64", b64},
		{"encoded subject", "=?utf-8?b?" + base64.StdEncoding.EncodeToString([]byte("ultima move 101 bob pw-bob e2-e4")) + "?=", "7bit", "a comment"},
	} {
		raw := fmt.Sprintf("From: bob@example.org\r\nTo: pbem@example.org\r\nSubject: %s\r\nMessage-ID: <enc%d@client.example>\r\n"+
			"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: %s\r\n\r\n%s\r\n",
			c.subject, i, c.encoding, strings.ReplaceAll(c.body, "\n", "\r\n"))
		if _, err := h.svc.Quarantine([]byte(raw), "the command crashed the server", true); err != nil {
			t.Fatal(err)
		}
		list, err := h.db.Quarantined()
		if err != nil || len(list) != i+1 {
			t.Fatalf("%s: quarantine: %v, %d mails; want %d", c.name, err, len(list), i+1)
		}
		kept := list[i].Data
		m, err := mailmsg.ReadMail(kept)
		if err != nil {
			t.Fatalf("%s: the kept mail cannot be read: %v\n%s", c.name, err, kept)
		}
		for _, pw := range []string{"pw-bob", "New-Secret-9", "Carol-Pass-1"} {
			if strings.Contains(m.Subject+m.Text+string(kept), pw) {
				t.Errorf("%s: the kept mail holds the password %q:\n%s", c.name, pw, kept)
			}
		}
		if m.From != "bob@example.org" || m.MessageID != fmt.Sprintf("enc%d@client.example", i) {
			t.Errorf("%s: the kept mail is from %q, id %q", c.name, m.From, m.MessageID)
		}
		if i < 2 {
			has(t, m.Text, "ultima move 101 bob ******** e2-e4\nchange password bob ******** ********\nsignup carol ******** caf\u00e9@example.org\n")
		} else if m.Subject != "ultima move 101 bob ******** e2-e4" || m.Text != "a comment\n" {
			t.Errorf("%s: kept %q, %q", c.name, m.Subject, m.Text)
		}
	}
}

// A multipart/alternative mail, as most clients send: a plain part that
// masks cleanly and an HTML part, base64, with the same password. The kept
// copy must hold the password in no form.
func TestQuarantineKeepsNoPasswordInAnotherPart(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("bob")
	html := base64.StdEncoding.EncodeToString([]byte("<p>change password bob pw-bob New-Secret-9</p>"))
	raw := "From: bob@example.org\r\nTo: pbem@example.org\r\nSubject: multiple\r\nMessage-ID: <alt@client.example>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n" +
		"--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nchange password bob pw-bob New-Secret-9\r\n" +
		"--b\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" + html + "\r\n--b--\r\n"
	if _, err := h.svc.Quarantine([]byte(raw), "crashed", true); err != nil {
		t.Fatal(err)
	}
	list, err := h.db.Quarantined()
	if err != nil || len(list) != 1 {
		t.Fatalf("quarantine: %v, %d", err, len(list))
	}
	if strings.Contains(string(list[0].Data), html) {
		t.Errorf("the kept mail holds New-Secret-9 base64-encoded in its HTML part:\n%s", list[0].Data)
	}
}

// Issue 25, item 9: the quarantine keeps mails for KeepQuarantined and
// within QuarantineBytes, whatever the mails; the counts of failed tries
// of mails that went through at a later try are forgotten after
// KeepQuarantined; the notes in which an older pbemd kept them go at once.
func TestQuarantineAndFailuresPruned(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.svc.cfg.Limits.KeepQuarantined = 10 * 24 * time.Hour
	h.svc.cfg.Limits.QuarantineBytes = 300 << 10
	h.restart()
	start := h.now
	// Five mails of 100 KiB, a day apart: the byte bound keeps the
	// newest two (a record is the mail in base64, 4/3 of it, and more).
	for i := range 5 {
		raw := h.mail("bob@example.org", fmt.Sprint("mail ", i), strings.Repeat("x", 100<<10))
		if _, err := h.svc.Quarantine(raw, "the command crashed the server", true); err != nil {
			t.Fatal(err)
		}
		h.now = h.now.Add(24 * time.Hour)
	}
	kept := func() []string {
		t.Helper()
		list, err := h.db.Quarantined()
		if err != nil {
			t.Fatal(err)
		}
		var subjects []string
		for _, q := range list {
			m, err := mailmsg.ReadMail(q.Data)
			if err != nil {
				t.Fatal(err)
			}
			subjects = append(subjects, m.Subject)
		}
		return subjects
	}
	if got := kept(); !slices.Equal(got, []string{"mail 3", "mail 4"}) {
		t.Errorf("kept %q; want the newest two within 300 KiB", got)
	}
	h.outbox()

	// A mail that failed twice at the start, then went through; a
	// legacy note.
	h.now = start
	ok := h.mail("carol@example.org", "signup carol pw-carol", "")
	for range 2 {
		if n, err := h.svc.CountFailure(ok, 5); n >= 5 || err != nil {
			t.Fatalf("CountFailure: %v, %v", n, err)
		}
	}
	h.deliver(ok)
	err := h.db.Update(func(tx *store.Tx) error { return tx.SetNote("failures:0123", "3") })
	if err != nil {
		t.Fatal(err)
	}
	failures := func() (int, bool) {
		t.Helper()
		var n int
		var legacy bool
		err := h.db.View(func(tx *store.Tx) error {
			c, err := tx.Counter(failuresKey(mustRead(t, ok).Key))
			n = c.Count
			_, legacy, _ = tx.Note("failures:0123")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return n, legacy
	}
	if n, _ := failures(); n != 2 {
		t.Fatalf("the failures counted %d; want 2", n)
	}

	// Nine days on: mail 3 was set aside 6 days ago, and stays; the
	// count of failures too; the legacy note goes.
	h.now = start.Add(9 * 24 * time.Hour)
	if err := h.svc.Sweep(h.now); err != nil {
		t.Fatal(err)
	}
	if got := kept(); !slices.Equal(got, []string{"mail 3", "mail 4"}) {
		t.Errorf("after 9 days kept %q; want mail 3 and 4", got)
	}
	if n, legacy := failures(); n != 2 || legacy {
		t.Errorf("after 9 days: failures %d, legacy note %v; want 2 and gone", n, legacy)
	}
	// 13.5 days on: mail 3 is 10.5 days old and goes, mail 4 stays;
	// the count goes, 13.5 days after the last failure.
	h.now = start.Add(13*24*time.Hour + 12*time.Hour)
	if err := h.svc.Sweep(h.now); err != nil {
		t.Fatal(err)
	}
	if got := kept(); !slices.Equal(got, []string{"mail 4"}) {
		t.Errorf("after 13 days kept %q; want mail 4", got)
	}
	if n, _ := failures(); n != 0 {
		t.Errorf("after 13 days the count of failures is %d; want it forgotten", n)
	}
}

func mustRead(t *testing.T, raw []byte) *mailmsg.Incoming {
	t.Helper()
	m, err := mailmsg.ReadMail(raw)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
