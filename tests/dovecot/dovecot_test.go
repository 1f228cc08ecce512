package dovecot

import (
	"testing"

	"github.com/pbemd/pbemd/tests/imaptest"
)

func TestDeliverAndRead(t *testing.T) {
	s := Start(t, map[string]string{"pbem@localhost": "pw"})
	if err := s.Deliver("alice@localhost", "pbem@localhost", []byte("From: alice@localhost\r\nSubject: hello\r\n\r\nhi\r\n")); err != nil {
		t.Fatalf("LMTP: %v\n%s", err, s.Log())
	}
	msgs, err := imaptest.Read(s.IMAPAddr, "pbem@localhost", "pw", "INBOX")
	if err != nil {
		t.Fatalf("IMAP: %v\n%s", err, s.Log())
	}
	if len(msgs) != 1 || imaptest.Header(msgs[0].Data, "Subject") != "hello" || imaptest.Header(msgs[0].Data, "Return-Path") != "<alice@localhost>" {
		t.Fatalf("INBOX = %v", msgs)
	}
	s.Restart()
	msgs, err = imaptest.Read(s.IMAPAddr, "pbem@localhost", "pw", "INBOX")
	if err != nil || len(msgs) != 1 {
		t.Fatalf("after restart: %v, %d mails", err, len(msgs))
	}
}
