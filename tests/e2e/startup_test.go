package e2e

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/tests/dovecot"
	"github.com/pbemd/pbemd/tests/smtpsink"
	"github.com/pbemd/pbemd/tests/testcert"
)

// startFailure runs pbemd serve with the config and the environment and
// checks that it stops at start with status 1, naming want, and without
// printing any password of the environment.
func startFailure(t *testing.T, config string, env []string, want ...string) {
	t.Helper()
	p := startPbemd(t, env, "serve", "-config", config)
	err := p.wait()
	out := p.Output()
	if err == nil || !strings.Contains(err.Error(), "exit status 1") {
		t.Fatalf("pbemd serve: %v, want exit status 1; it said:\n%s", err, out)
	}
	t.Logf("pbemd serve said:\n%s", out)
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("the message does not say %q:\n%s", w, out)
		}
	}
	for _, e := range env {
		if _, secret, _ := strings.Cut(e, "="); strings.Contains(out, secret) {
			t.Errorf("pbemd printed the password %q:\n%s", secret, out)
		}
	}
}

// A wrong IMAP password stops serve at start, with the settings to fix,
// rather than "reconnecting" forever.
func TestStartWrongIMAPPassword(t *testing.T) {
	w := newDovecotWorld(t, "")
	startFailure(t, w.config, []string{"PBEMD_IMAP_PASSWORD=not-the-imap-secret"},
		"imap: "+w.dc.IMAPAddr+" refused the login of \"pbem@localhost\"", "fix imap.username and the password")
}

// A wrong SMTP password too.
func TestStartWrongSMTPPassword(t *testing.T) {
	sink, err := smtpsink.Start(smtpsink.Options{Username: "pbem", Password: "smtp-secret"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sink.Close() })
	dc := dovecot.Start(t, map[string]string{server: serverPass})
	config := writeConfig(t, dc.IMAPAddr, "plain", "", fmt.Sprintf(
		"smtp:\n  host: 127.0.0.1\n  port: %s\n  security: plain\n  username: pbem\n  password_env: PBEMD_SMTP_PASSWORD\n", portOf(sink.Addr)))
	startFailure(t, config, []string{"PBEMD_IMAP_PASSWORD=" + serverPass, "PBEMD_SMTP_PASSWORD=not-the-smtp-secret"},
		"smtp: "+sink.Addr+" refused the login of \"pbem\"", "fix smtp.username and the password")
}

// A certificate no authority of the system signed stops serve at start,
// naming imap.ca_file; with ca_file naming its authority serve starts.
func TestStartUntrustedCertificate(t *testing.T) {
	pair, err := testcert.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dc := dovecot.StartTLS(t, map[string]string{server: serverPass}, pair.CAFile, pair.KeyFile)
	env := []string{"PBEMD_IMAP_PASSWORD=" + serverPass}
	config := writeConfig(t, dc.IMAPSAddr, "tls", "", "")
	startFailure(t, config, env, "imap: the certificate of "+dc.IMAPSAddr+" is not trusted", "set imap.ca_file")

	config = writeConfig(t, dc.IMAPSAddr, "tls", "  ca_file: "+pair.CAFile+"\n", "")
	p := startPbemd(t, env, "serve", "-config", config)
	p.waitLine(`IMAP connected`)
	p.stop()
}

// With no trusted server and no DKIM check of its own nothing can vouch
// for a sender: serve says so at start, and what to set.
func TestStartWarnsNothingAuthenticates(t *testing.T) {
	dc := dovecot.Start(t, map[string]string{server: serverPass})
	env := []string{"PBEMD_IMAP_PASSWORD=" + serverPass}
	config := writeConfig(t, dc.IMAPAddr, "plain", "", "")
	const warning = "no mail can be authenticated"
	for _, c := range []struct {
		extra string
		warns bool
	}{{"", false}, {"verify_dkim: false\n", true}} {
		f, err := os.OpenFile(config, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(c.extra)
		f.Close()
		p := startPbemd(t, env, "serve", "-config", config)
		p.waitLine(`IMAP connected`)
		p.stop()
		if strings.Contains(p.Output(), warning) != c.warns || !strings.Contains(p.Output(), "verify_dkim=") {
			t.Errorf("with %q added, want a warning %v:\n%s", c.extra, c.warns, p.Output())
		}
	}
}

// writeConfig writes a config reading the IMAP server at imapAddr; smtp,
// when empty, is a sink that takes everything.
func writeConfig(t *testing.T, imapAddr, security, imapExtra, smtp string) string {
	t.Helper()
	if smtp == "" {
		sink, err := smtpsink.Start(smtpsink.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { sink.Close() })
		smtp = fmt.Sprintf("smtp:\n  host: 127.0.0.1\n  port: %s\n  security: plain\n", portOf(sink.Addr))
	}
	dir := t.TempDir()
	config := filepath.Join(dir, "pbemd.yaml")
	yaml := fmt.Sprintf("address: %s\ndata: %s\nhttp: off\nimap:\n  host: 127.0.0.1\n  port: %s\n  security: %s\n  username: %s\n  password_env: PBEMD_IMAP_PASSWORD\n%s%s",
		server, filepath.Join(dir, "data"), portOf(imapAddr), security, server, imapExtra, smtp)
	if err := os.WriteFile(config, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	return config
}

func portOf(addr string) string {
	_, p, _ := net.SplitHostPort(addr)
	return p
}
