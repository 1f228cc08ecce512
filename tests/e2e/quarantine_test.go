package e2e

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// On Dovecot: a mail over limits.largest_mail is answered once from its
// header and moved to the quarantine folder without its body being read;
// the mail after it is handled as usual.
func TestTooLargeDovecot(t *testing.T) {
	w := newDovecotWorld(t, "")
	cfg, err := os.ReadFile(w.config)
	if err != nil {
		t.Fatal(err)
	}
	cfg = bytes.Replace(cfg, []byte("\nlimits:\n"), []byte("\nlimits:\n  largest_mail: 65536\n"), 1)
	if err := os.WriteFile(w.config, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	p := w.start(t)
	defer p.stop()
	big := append(mailText(player("alice"), "signup alice secret", "big@localhost"), strings.Repeat("a line of a large mail\r\n", 10000)...)
	if err := w.dc.Deliver(player("alice"), server, big); err != nil {
		t.Fatal(err)
	}
	w.send(t, player("bob"), "signup bob secret", "small@localhost")
	replies := waitReplies(t, w, 2)
	if replies[0].Subject != "pbemd: mail too large" || replies[0].To != player("alice") || !strings.Contains(replies[0].Body, "65536 bytes") {
		t.Errorf("first reply %+v; want alice told of the 65536-byte limit", replies[0])
	}
	if replies[1].Subject != "pbemd: welcome bob" {
		t.Errorf("second reply %q; want bob's welcome", replies[1].Subject)
	}
	waitUntil(t, "the large mail in the quarantine folder", 5*time.Second, func() bool {
		return len(w.mailbox(t, "pbemd-quarantine")) == 1 && len(w.mailbox(t, "INBOX")) == 0
	})
	if !strings.Contains(p.Output(), "mail too large") {
		t.Errorf("the log does not mention the large mail:\n%s", p.Output())
	}
}
