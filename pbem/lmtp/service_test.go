package lmtp_test

import (
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/lmtp"
	"github.com/pbemd/pbemd/store"
)

// Through the real service: a signup delivered over LMTP is stored, with
// its reply in the outbox, by the time the MTA hears 250.
func TestDeliverToService(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := pbem.New(db, pbem.Config{Address: "pbem@example.org", Log: slog.New(slog.DiscardHandler)})
	s, err := lmtp.Listen(lmtp.Options{Addr: "127.0.0.1:0", Recipients: []string{"pbem@example.org"},
		Logger: slog.New(slog.DiscardHandler)}, svc)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	conn, err := net.Dial("tcp", s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c := smtp.NewClientLMTP(conn)
	defer c.Close()
	if err := c.Hello("mta.example.org"); err != nil {
		t.Fatal(err)
	}
	for i, subj := range []string{"signup alice pw-alice", "help"} {
		if err := c.Mail("alice@example.org", nil); err != nil {
			t.Fatal(err)
		}
		if err := c.Rcpt("pbem@example.org", nil); err != nil {
			t.Fatal(err)
		}
		w, err := c.Data()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(w, "From: alice@example.org\r\nTo: pbem@example.org\r\nSubject: %s\r\nMessage-ID: <m%d@example.org>\r\n\r\n\r\n", subj, i)
		if _, err := w.CloseWithLMTPResponse(); err != nil {
			t.Fatalf("%s: %v", subj, err)
		}
		out, err := db.Pending(time.Now().Add(time.Hour), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(out) != i+1 || !strings.Contains(string(out[i].Data), "alice@example.org") {
			t.Fatalf("after %q was acknowledged the outbox holds %d mails; want %d", subj, len(out), i+1)
		}
	}
	c.Quit()
}
