package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/devmail"
	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/tests/imaptest"
	"github.com/pbemd/pbemd/tests/smtpsink"
	"github.com/pbemd/pbemd/tests/testenv"
)

// The daemon counts each mail once, by the way it came, and serves its
// metrics at /metrics on a listener of its own: a mail by IMAP and one by
// LMTP, their replies sent, the sweep's ticks, the store's size.
func TestDaemonMetrics(t *testing.T) {
	dm, err := devmail.Start(devmail.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer dm.Close()
	dm.AddAccount("pbem@example.org", "imap-secret")
	sink, err := smtpsink.Start(smtpsink.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()

	cfg := config.Default()
	cfg.Address = "pbem@example.org"
	cfg.Data = filepath.Join(t.TempDir(), "data")
	cfg.IMAP.Server = server(t, dm.IMAPAddr, mailconn.Plain, "pbem@example.org", "imap-secret")
	cfg.IMAP.BackoffMin = 10 * time.Millisecond
	cfg.SMTP.Server = server(t, sink.Addr, mailconn.Plain, "", "")
	cfg.SMTP.Connections = 1
	cfg.HTTP = "off"
	cfg.Metrics = testenv.FreeAddr(t)
	cfg.LMTP.Listen = testenv.FreeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, Options{Config: cfg, Logger: slog.New(slog.DiscardHandler)}) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()

	metrics := func() string {
		resp, err := http.Get("http://" + cfg.Metrics + "/metrics")
		if err != nil {
			return ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	until := func(what string, ok func(string) bool) string {
		t.Helper()
		for range 1000 {
			if m := metrics(); ok(m) {
				return m
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("%s: never; metrics:\n%s", what, metrics())
		return ""
	}
	has := func(lines ...string) func(string) bool {
		return func(m string) bool {
			for _, l := range lines {
				if !strings.Contains(m, "\n"+l+"\n") {
					return false
				}
			}
			return true
		}
	}
	until("metrics served", has("pbemd_replies_waiting 0"))

	mail := "From: alice@example.org\r\nTo: pbem@example.org\r\nSubject: help\r\nMessage-ID: <%s@client.example>\r\n\r\n"
	if err := imaptest.Append(dm.IMAPAddr, "pbem@example.org", "imap-secret", "INBOX", fmt.Appendf(nil, mail, "by-imap")); err != nil {
		t.Fatal(err)
	}
	var conn net.Conn
	for range 1000 { // the LMTP listener starts after the login to IMAP and SMTP
		if conn, err = net.Dial("tcp", cfg.LMTP.Listen); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	c := smtp.NewClientLMTP(conn)
	if err := c.SendMail("alice@example.org", []string{"pbem@example.org"}, strings.NewReader(fmt.Sprintf(mail, "by-lmtp"))); err != nil {
		t.Fatal(err)
	}
	c.Close()

	m := until("both mails counted and answered", has(
		`pbemd_mails_in_total{result="done",way="imap"} 1`,
		`pbemd_mails_in_total{result="done",way="lmtp"} 1`,
		`pbemd_replies_sent_total 2`,
		`pbemd_replies_waiting 0`,
		`pbemd_oldest_reply_waiting_seconds 0`,
		`pbemd_robot_turns_waiting 0`,
		`pbemd_leader 1`, // the one node of a bbolt store always leads
	))
	for _, want := range []string{"\npbemd_sweep_seconds_count ", "\npbemd_store_bytes ", "\npbemd_store_free_pages ", "\ngo_goroutines ", "\npbemd_build_info{version=\"pbemd "} {
		if !strings.Contains(m, want) {
			t.Errorf("no %q in the metrics:\n%s", want, m)
		}
	}
	if strings.Contains(m, "\npbemd_store_bytes 0\n") || strings.Contains(m, "\npbemd_sweep_seconds_count 0\n") {
		t.Errorf("the store's size or the sweep's ticks not read:\n%s", m)
	}
}
