package config

import (
	"strings"
	"testing"
)

const lmtpOnly = `
address: pbem@example.org
smtp:
  host: smtp.example.org
  username: pbem
  password_env: PBEMD_SMTP_PASSWORD
lmtp: /run/pbemd/lmtp
`

// With lmtp.listen and no imap.host, pbemd serve reads no mailbox: the
// configuration needs no IMAP login, and an empty imap block is no
// mailbox on localhost.
func TestLMTPOnly(t *testing.T) {
	t.Parallel()
	for name, y := range map[string]string{
		"no imap block":    lmtpOnly,
		"empty imap block": lmtpOnly + "imap: {}\n",
		"null imap block":  lmtpOnly + "imap:\n",
		"defaults written": lmtpOnly + "imap:\n  mailbox: INBOX\n  security: tls\n",
	} {
		c, err := Parse([]byte(y), secrets)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !c.LMTPOnly() {
			t.Errorf("%s: not LMTPOnly: %+v", name, c.IMAP)
		}
		if c.IMAP.Host != "" || c.IMAP.Port != 0 {
			t.Errorf("%s: imap is %s; want no server at all", name, c.IMAP.Addr())
		}
		if c.SMTP.Password.Reveal() != "smtp-hunter2" {
			t.Errorf("%s: the SMTP password was not read", name)
		}
	}
	// The IMAP password's variable is not asked for.
	if _, err := Parse([]byte(lmtpOnly), env(map[string]string{"PBEMD_SMTP_PASSWORD": "x"})); err != nil {
		t.Errorf("without PBEMD_IMAP_PASSWORD: %v", err)
	}
	// Both ways in at once.
	c, err := Parse([]byte(minimal+"lmtp: 127.0.0.1:2424\n"), secrets)
	if err != nil || c.LMTPOnly() {
		t.Errorf("imap and lmtp: LMTPOnly %v, %v; want the mailbox read too", c != nil && c.LMTPOnly(), err)
	}
	// The programs that read no mail need neither.
	noWayIn := "address: pbem@example.org\nsmtp:\n  host: smtp.example.org\n"
	if _, err := parseFor([]byte(noWayIn), secrets, UsesSMTP); err != nil {
		t.Errorf("deliver without imap or lmtp: %v", err)
	}
}

// A reading program without a way for mail to come in is told what to
// set; imap settings without a host beside LMTP would be ignored, so they
// are refused rather than dropped.
func TestNoWayIn(t *testing.T) {
	t.Parallel()
	for name, tt := range map[string]struct{ yaml, want string }{
		"neither": {"address: pbem@example.org\nsmtp:\n  host: smtp.example.org\n",
			"imap.host is missing, and so is lmtp.listen: set imap.host (with username and password_env) for pbemd to read a mailbox, or lmtp.listen for your MTA to hand it the mail over LMTP"},
		"empty imap block, no lmtp": {"address: pbem@example.org\nimap: {}\nsmtp:\n  host: smtp.example.org\n",
			"imap.host is missing, and so is lmtp.listen"},
		"empty lmtp": {"address: pbem@example.org\nsmtp:\n  host: smtp.example.org\nlmtp: ''\n",
			"imap.host is missing, and so is lmtp.listen"},
		"imap login, no host": {lmtpOnly + "imap:\n  username: pbem\n  password_env: PBEMD_IMAP_PASSWORD\n",
			"imap has settings but no host: set imap.host to read that mailbox beside LMTP, or leave out the imap block"},
		"imap folder, no host": {lmtpOnly + "imap:\n  done_folder: archive\n",
			"imap has settings but no host"},
		"address still first": {strings.Replace(lmtpOnly, "lmtp: /run/pbemd/lmtp", "", 1)[len("\naddress: pbem@example.org"):],
			"address is missing"},
	} {
		c, err := Parse([]byte(tt.yaml), secrets)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v (%+v); want an error saying %q", name, err, c, tt.want)
		}
	}
}
