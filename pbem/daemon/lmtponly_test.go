package daemon

import (
	"context"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
	"github.com/pbemd/pbemd/tests/smtpsink"
	"github.com/pbemd/pbemd/tests/testenv"
)

// lmtpOnly is a configuration with an LMTP listener, no IMAP server at
// all, and for the replies an SMTP sink that takes the login pbem with
// the password smtp-secret; the configuration logs in with password.
func lmtpOnly(t *testing.T, password string) (*config.Config, *smtpsink.Sink) {
	t.Helper()
	sink, err := smtpsink.Start(smtpsink.Options{Username: "pbem", Password: "smtp-secret"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sink.Close() })
	cfg := config.Default()
	cfg.Address = "pbem@example.org"
	cfg.Data = filepath.Join(t.TempDir(), "data")
	cfg.SMTP.Server = server(t, sink.Addr, mailconn.Plain, "pbem", password)
	cfg.SMTP.Connections = 1
	cfg.HTTP = "off"
	cfg.LMTP.Listen = testenv.FreeAddr(t)
	if err := cfg.Validate(); err != nil {
		t.Fatalf("an LMTP-only configuration: %v", err)
	}
	if !cfg.LMTPOnly() {
		t.Fatal("the configuration is not LMTPOnly")
	}
	return cfg, sink
}

// With lmtp.listen and no imap.host the daemon reads no mailbox: it logs
// in to SMTP alone at start, says imap=off, and answers a mail its MTA
// hands it over LMTP with a reply sent through SMTP. A mail too large to
// read is answered, acknowledged and kept in the store's quarantine, as
// there is no IMAP folder to move it to.
func TestServeLMTPOnly(t *testing.T) {
	cfg, sink := lmtpOnly(t, "smtp-secret")
	cfg.Limits.LargestMail = 64 << 10

	var logged syncBuffer
	log := slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, Options{Config: cfg, Logger: log}) }()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}
	defer stop()

	var conn net.Conn
	var err error
	for range 1000 { // the listener starts after the SMTP login
		if conn, err = net.Dial("tcp", cfg.LMTP.Listen); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("nothing listens on %s: %v\n%s", cfg.LMTP.Listen, err, logged.String())
	}
	c := smtp.NewClientLMTP(conn)
	mail := "From: alice@example.org\r\nTo: pbem@example.org\r\nSubject: help\r\nMessage-ID: <lmtp-only@client.example>\r\n\r\n"
	if err := c.SendMail("alice@example.org", []string{"pbem@example.org"}, strings.NewReader(mail)); err != nil {
		t.Fatalf("LMTP delivery: %v", err)
	}
	huge := "From: bob@example.org\r\nTo: pbem@example.org\r\nSubject: help\r\nMessage-ID: <lmtp-huge@client.example>\r\n\r\n" +
		strings.Repeat("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\r\n", 2048)
	if err := c.SendMail("bob@example.org", []string{"pbem@example.org"}, strings.NewReader(huge)); err != nil {
		t.Fatalf("LMTP delivery of a mail too large: %v; want it acknowledged once set aside", err)
	}
	c.Close()

	got := sink.Wait(2, time.Minute)
	if len(got) != 2 {
		t.Fatalf("%d replies sent through SMTP; want 2\n%s", len(got), logged.String())
	}
	answered := map[string]string{}
	for _, r := range got {
		answered[strings.Join(r.To, ",")] = string(r.Data)
	}
	if !strings.Contains(answered["alice@example.org"], "<lmtp-only@client.example>") ||
		!strings.Contains(answered["bob@example.org"], "<lmtp-huge@client.example>") {
		t.Errorf("the replies do not answer each sender's mail: %v", got)
	}
	stop()
	db := storetest.Open(t, store.PathIn(cfg.Data), nil)
	kept, err := db.Quarantined()
	if err != nil || len(kept) != 1 || kept[0].Kind != store.TooLarge || kept[0].From != "bob@example.org" {
		t.Errorf("quarantined %+v, %v; want bob's mail too large", kept, err)
	}
	out := logged.String()
	if !strings.Contains(out, `msg="pbemd serving"`) || !strings.Contains(out, " imap=off ") {
		t.Errorf("no \"pbemd serving\" line with imap=off:\n%s", out)
	}
	if strings.Contains(out, "part=mailbox") || strings.Contains(out, "IMAP") {
		t.Errorf("the daemon spoke of an IMAP mailbox it has not:\n%s", out)
	}
}

// The start-up check still logs in to SMTP when there is no mailbox: a
// refused login stops the start and names the settings to fix.
func TestServeLMTPOnlyChecksSMTP(t *testing.T) {
	cfg, sink := lmtpOnly(t, "forged-guess")
	err := Run(context.Background(), Options{Config: cfg, Logger: slog.New(slog.DiscardHandler)})
	if err == nil || !strings.Contains(err.Error(), "smtp: "+sink.Addr+" refused the login") {
		t.Fatalf("Run with a wrong SMTP password: %v; want the refused login named", err)
	}
	if strings.Contains(err.Error(), "forged-guess") {
		t.Errorf("the error quotes the password: %v", err)
	}
}

// pbemd doctor checks no mailbox of an LMTP-only configuration: its IMAP
// line says why it is skipped, and the SMTP server is still checked.
func TestDoctorLMTPOnly(t *testing.T) {
	c := newClinic(t, time.Now().Add(90*24*time.Hour))
	c.cfg.IMAP = config.Default().IMAP
	found, failed := c.examine(t)
	expect(t, found, "imap", Skip, "LMTP only")
	for _, check := range []string{"smtp", "lmtp"} {
		expect(t, found, check, OK, "")
	}
	if failed {
		t.Error("the doctor failed a healthy LMTP-only machine")
	}
}
