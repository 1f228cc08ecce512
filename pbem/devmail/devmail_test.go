package devmail

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"
	"github.com/pbemd/pbemd/pbem/outbox"
	"github.com/pbemd/pbemd/tests/imaptest"
)

func start(t *testing.T) *Server {
	t.Helper()
	s, err := Start(Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func send(addr, from string, to []string, data string) error {
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.SendMail(from, to, strings.NewReader(data))
}

func TestSMTPToIMAP(t *testing.T) {
	t.Parallel()
	s := start(t)
	s.AddAccount("pbem@localhost", "own-secret")
	mail := "From: alice@localhost\r\nTo: pbem@localhost, Bob@Example.org\r\nSubject: signup alice pw\r\n\r\nhi\r\n"
	if err := send(s.SMTPAddr, "alice@localhost", []string{"pbem@localhost", "Bob@Example.org"}, mail); err != nil {
		t.Fatal(err)
	}
	for _, rcpt := range []struct{ user, pass string }{{"pbem@localhost", "own-secret"}, {"bob@example.org", DefaultPassword}} {
		msgs, err := imaptest.Read(s.IMAPAddr, rcpt.user, rcpt.pass, "INBOX")
		if err != nil {
			t.Fatalf("%s: %v", rcpt.user, err)
		}
		if len(msgs) != 1 {
			t.Fatalf("%s has %d mails; want 1", rcpt.user, len(msgs))
		}
		if got := imaptest.Header(msgs[0].Data, "Return-Path"); got != "<alice@localhost>" {
			t.Errorf("Return-Path = %q; want <alice@localhost>", got)
		}
		if !bytes.HasSuffix(msgs[0].Data, []byte(mail)) {
			t.Errorf("mail changed on the way: %q", msgs[0].Data)
		}
	}
}

func TestLogin(t *testing.T) {
	t.Parallel()
	s := start(t)
	s.AddAccount("pbem@localhost", "own-secret")
	tests := []struct {
		user, pass string
		ok         bool
	}{
		{"carol@localhost", DefaultPassword, true}, // created on first login
		{"carol@localhost", "wrong", false},
		{"pbem@localhost", DefaultPassword, false}, // the server's mailbox has its own password
		{"PBEM@localhost", "own-secret", true},
		{"carol", DefaultPassword, false}, // not an address
	}
	for _, tt := range tests {
		_, err := imaptest.Read(s.IMAPAddr, tt.user, tt.pass, "INBOX")
		if (err == nil) != tt.ok {
			t.Errorf("login %s/%s: err = %v; want ok = %v", tt.user, tt.pass, err, tt.ok)
		}
	}
}

func TestBadRecipient(t *testing.T) {
	t.Parallel()
	s := start(t)
	err := s.Deliver("alice@localhost", []string{"nobody@"}, []byte("Subject: x\r\n\r\n"))
	if err == nil || !strings.Contains(err.Error(), "alice@localhost") {
		t.Errorf("err = %v; want an error naming the form of an address", err)
	}
}

func TestTransport(t *testing.T) {
	t.Parallel()
	s := start(t)
	tr := s.Transport()
	if err := tr.Send(context.Background(), "pbem@localhost", []string{"dave@localhost"}, []byte("Subject: board\r\n\r\nx\r\n")); err != nil {
		t.Fatal(err)
	}
	msgs, err := imaptest.Read(s.IMAPAddr, "dave@localhost", DefaultPassword, "INBOX")
	if err != nil || len(msgs) != 1 || imaptest.Header(msgs[0].Data, "Subject") != "board" {
		t.Errorf("dave's INBOX = %v, %v; want the board", msgs, err)
	}
}

func TestLoopbackOnly(t *testing.T) {
	t.Parallel()
	_, err := Start(Options{IMAPAddr: "0.0.0.0:0", SMTPAddr: "127.0.0.1:0"})
	if err == nil || !strings.Contains(err.Error(), "not a loopback") {
		t.Errorf("err = %v; want a refusal", err)
	}
}

// A mail appended after SELECT but before IDLE is announced when IDLE
// starts, not only with the next mail.
func TestIdleAnnouncesEarlierMail(t *testing.T) {
	t.Parallel()
	s := start(t)
	exists := make(chan uint32, 10)
	c, err := imapclient.DialInsecure(s.IMAPAddr, &imapclient.Options{
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					exists <- *d.NumMessages
				}
			},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("eve@localhost", DefaultPassword).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := s.Deliver("a@localhost", []string{"eve@localhost"}, []byte("Subject: x\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	idle, err := c.Idle()
	if err != nil {
		t.Fatal(err)
	}
	select {
	case n := <-exists:
		if n != 1 {
			t.Errorf("EXISTS %d; want 1", n)
		}
	case <-time.After(5 * time.Second):
		t.Error("IDLE did not announce the mail appended before it")
	}
	idle.Close()
	idle.Wait()
}

// A malformed recipient is refused for good: it would fail the same way
// every time, so the outbox gives the reply up instead of retrying it.
func TestTransportRefusesBadRecipient(t *testing.T) {
	t.Parallel()
	s := start(t)
	err := s.Transport().Send(context.Background(), "pbem@localhost", []string{"no address"}, []byte("Subject: hi\r\n\r\nx\r\n"))
	var rej *outbox.RejectedError
	if !errors.As(err, &rej) {
		t.Errorf("Send to a malformed recipient = %v; want a *outbox.RejectedError", err)
	}
}
