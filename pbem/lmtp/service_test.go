package lmtp_test

import (
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/intake"
	"github.com/pbemd/pbemd/pbem/lmtp"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

var quiet = slog.New(slog.DiscardHandler)

// serve runs the real service over LMTP on loopback, through an intake
// reading at most largest bytes of a mail.
func serve(t *testing.T, largest int64) (*store.DB, *lmtp.Server) {
	t.Helper()
	db := storetest.New(t)
	return db, serveOn(t, db, t.TempDir(), largest)
}

// serveOn runs the real service on db over LMTP, with its spool in dir.
func serveOn(t *testing.T, db *store.DB, dir string, largest int64) *lmtp.Server {
	t.Helper()
	svc := pbem.New(db, pbem.Config{Address: "pbem@example.org", Log: quiet})
	s, err := lmtp.Listen(lmtp.Options{Addr: "127.0.0.1:0", Recipients: []string{"pbem@example.org"},
		Logger: quiet, Spool: dir}, intake.New(svc, intake.Options{Largest: largest, Logger: quiet}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// outbox waits until the store's outbox holds n mails, and returns them.
func outbox(t *testing.T, db *store.DB, n int) []store.Outgoing {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		out, err := db.Pending(time.Now().Add(time.Hour), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(out) >= n || time.Now().After(deadline) {
			return out
		}
		time.Sleep(time.Millisecond)
	}
}

// lmtpClient connects and says LHLO.
func lmtpClient(t testing.TB, s *lmtp.Server) *smtp.Client {
	t.Helper()
	conn, err := net.Dial("tcp", s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c := smtp.NewClientLMTP(conn)
	t.Cleanup(func() { c.Close() })
	if err := c.Hello("mta.example.org"); err != nil {
		t.Fatal(err)
	}
	return c
}

// deliver hands one mail over and returns the server's answer to it, or
// the client's error at an earlier step.
func deliver(c *smtp.Client, data string) error {
	if err := c.Mail("alice@example.org", nil); err != nil {
		return err
	}
	if err := c.Rcpt("pbem@example.org", nil); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write([]byte(data)); err != nil {
		return err
	}
	_, err = w.CloseWithLMTPResponse()
	return err
}

// Through the real service: a signup delivered over LMTP is stored, with
// its reply in the outbox, once the MTA has heard 250.
func TestDeliverToService(t *testing.T) {
	t.Parallel()
	db, s := serve(t, 0)
	c := lmtpClient(t, s)
	for i, subj := range []string{"signup alice pw-alice", "help"} {
		data := fmt.Sprintf("From: alice@example.org\r\nTo: pbem@example.org\r\nSubject: %s\r\nMessage-ID: <m%d@example.org>\r\n\r\n\r\n", subj, i)
		if err := deliver(c, data); err != nil {
			t.Fatalf("%s: %v", subj, err)
		}
		out := outbox(t, db, i+1)
		if len(out) != i+1 || !strings.Contains(string(out[i].Data), "alice@example.org") {
			t.Fatalf("after %q was acknowledged the outbox holds %d mails; want %d", subj, len(out), i+1)
		}
	}
	c.Quit()
}

// A mail that can never be handled (it has no header) is not answered
// 451 for ever, to bounce from the MTA's queue days later: it is kept in
// the store's quarantine and acknowledged with 250, at the first try and
// when it comes again.
func TestUnreadableMailQuarantined(t *testing.T) {
	t.Parallel()
	db, s := serve(t, 0)
	c := lmtpClient(t, s)
	for try := range 2 {
		if err := deliver(c, "no header here, only words\r\nand more words\r\n"); err != nil {
			t.Fatalf("try %d: a mail with no header was answered %v; want 250", try, err)
		}
	}
	s.Close() // every mail acknowledged is decided on
	q, err := db.Quarantined()
	if err != nil {
		t.Fatal(err)
	}
	if len(q) != 1 || !strings.Contains(string(q[0].Data), "only words") || !strings.Contains(q[0].Why, "no header") {
		t.Fatalf("the store's quarantine holds %+v; want the mail once, with why", q)
	}
}

// A mail over the largest size read is read on but not kept: its sender
// is answered from its header, and the MTA hears 250, not a bounce.
func TestTooLargeMailAnswered(t *testing.T) {
	t.Parallel()
	db, s := serve(t, 64<<10)
	c := lmtpClient(t, s)
	body := strings.Repeat(strings.Repeat("x", 98)+"\r\n", 2000) // 200 KB
	data := "From: alice@example.org\r\nTo: pbem@example.org\r\nSubject: help\r\nMessage-ID: <big@example.org>\r\n\r\n" + body
	if err := deliver(c, data); err != nil {
		t.Fatalf("a mail of 200 KB, 64 KiB read: %v; want 250", err)
	}
	out := outbox(t, db, 1)
	if len(out) != 1 || !strings.Contains(string(out[0].Data), "too large") {
		t.Fatalf("the outbox holds %d mails; want the one answer that the mail is too large", len(out))
	}
}

// A crash between a mail's commit and its spool's deletion hands the mail
// to the service again at the next start: it is not played twice (its
// processed-mail key), while a mail of the same spool not yet handled is.
func TestSpoolReplayHandlesOnce(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	signup := "From: alice@example.org\r\nTo: pbem@example.org\r\nSubject: signup alice pw-alice\r\nMessage-ID: <s1@example.org>\r\n\r\n\r\n"
	c := lmtpClient(t, serveOn(t, db, t.TempDir(), 0))
	if err := deliver(c, signup); err != nil {
		t.Fatal(err)
	}
	if out := outbox(t, db, 1); len(out) != 1 {
		t.Fatalf("the outbox holds %d mails after the signup; want 1", len(out))
	}
	help := "From: alice@example.org\r\nTo: pbem@example.org\r\nSubject: help\r\nMessage-ID: <h1@example.org>\r\n\r\n\r\n"
	left := t.TempDir()
	lmtp.WriteSegment(t, left, signup, help)
	serveOn(t, db, left, 0).Close()
	out := outbox(t, db, 2)
	if len(out) != 2 || !strings.Contains(string(out[1].Data), "help") && !strings.Contains(string(out[0].Data), "help") {
		t.Fatalf("the outbox holds %d mails after the spool was handled again; want 2: the signup's answer once, and help's", len(out))
	}
	if entries, _ := os.ReadDir(left); len(entries) != 0 {
		t.Errorf("the spool holds %d files once handled; want none", len(entries))
	}
}
