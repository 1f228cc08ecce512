package config

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}

var secrets = env(map[string]string{
	"PBEMD_IMAP_PASSWORD": "imap-hunter2",
	"PBEMD_SMTP_PASSWORD": "smtp-hunter2",
})

func TestExampleFile(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../config.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(data, secrets)
	if err != nil {
		t.Fatalf("config.example.yaml does not load: %v", err)
	}
	// The example shows the defaults: apart from the settings that have
	// none, it must say exactly what Default says.
	d := Default()
	d.Address = c.Address
	d.IMAP.Server = c.IMAP.Server
	d.SMTP.Server = c.SMTP.Server
	if fmt.Sprintf("%+v", c) != fmt.Sprintf("%+v", d) {
		t.Errorf("example differs from the defaults:\n got %+v\nwant %+v", c, d)
	}
	if c.IMAP.Password.Reveal() != "imap-hunter2" || c.SMTP.Password.Reveal() != "smtp-hunter2" {
		t.Errorf("passwords not taken from the environment")
	}
	if c.IMAP.Port != 993 || c.SMTP.Port != 587 {
		t.Errorf("default ports = %d, %d; want 993, 587", c.IMAP.Port, c.SMTP.Port)
	}
}

const minimal = `
address: pbem@example.org
imap:
  host: imap.example.org
  username: pbem
  password_env: PBEMD_IMAP_PASSWORD
smtp:
  host: smtp.example.org
`

func TestParse(t *testing.T) {
	t.Parallel()
	c, err := Parse([]byte(minimal+"sweep_interval: 30m\nimap:\n"), secrets)
	if err == nil {
		t.Fatalf("a repeated key was accepted: %+v", c)
	}
	c, err = Parse([]byte(minimal+"sweep_interval: 30m\n"), secrets)
	if err != nil {
		t.Fatal(err)
	}
	if c.SweepInterval != 30*time.Minute || c.IMAP.Mailbox != "INBOX" || c.IMAP.Addr() != "imap.example.org:993" || c.SMTP.Connections != 4 {
		t.Errorf("got %+v", c)
	}
}

func TestRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, yaml, want string
		env              map[string]string
	}{
		{"unknown key", minimal + "imap_host: x\n", "field imap_host not found", nil},
		{"unknown nested key", strings.Replace(minimal, "  username:", "  user_name: x\n  username:", 1), "field user_name not found", nil},
		{"no address", strings.Replace(minimal, "address: pbem@example.org", "", 1), "address is missing", nil},
		{"bad address", strings.Replace(minimal, "pbem@example.org", "PBEM <pbem@example.org>", 1), "not a plain mail address", nil},
		{"plain smtp to remote", minimal + "  security: plain\n", "smtp.security is plain, which would send mail and password unencrypted to smtp.example.org", nil},
		{"plain imap to remote", strings.Replace(minimal, "  host: imap.example.org", "  host: imap.example.org\n  security: plain", 1), "imap.security is plain", nil},
		{"unknown security", minimal + "  security: ssl\n", `smtp.security "ssl" is unknown`, nil},
		{"env missing", minimal, "PBEMD_IMAP_PASSWORD, but that environment variable is not set", map[string]string{}},
		{"both passwords", strings.Replace(minimal, "  username: pbem", "  username: pbem\n  password: x", 1), "both password and password_env", nil},
		{"smtp user without password", minimal + "  username: bob\n", "set both username and a password", nil},
		{"metrics no port", minimal + "metrics: 127.0.0.1\n", "not host:port or :port", nil},
		{"tiny duration", minimal + "sweep_interval: 5ms\n", "sweep_interval is 5ms; want at least 1s", nil},
		{"done is inbox", strings.Replace(minimal, "  username: pbem", "  username: pbem\n  done_folder: inbox", 1), "is the watched mailbox", nil},
		{"two documents", minimal + "---\naddress: x@y\n", "more than one YAML document", nil},
		{"log level", minimal + "log:\n  level: loud\n", `log.level "loud" is unknown`, nil},
		{"lmtp not local", minimal + "lmtp: 0.0.0.0:2424\n", "only local MTAs may reach it", nil},
		{"lmtp mapping not local", minimal + "lmtp:\n  listen: 192.0.2.1:2424\n", "only local MTAs may reach it", nil},
		{"lmtp socket mode", minimal + "lmtp:\n  listen: /run/pbemd/lmtp\n  socket_mode: rw-rw----\n", "want octal permission bits such as 0660", nil},
		{"lmtp socket mode locks out", minimal + "lmtp:\n  socket_mode: \"0066\"\n", "want the owner to read and write", nil},
		{"lmtp per peer", minimal + "lmtp:\n  connections: 8\n  connections_per_peer: 9\n", "lmtp.connections_per_peer is 9; want 0", nil},
		{"lmtp idle", minimal + "lmtp:\n  idle_timeout: 10ms\n", "lmtp.idle_timeout is 10ms", nil},
		{"tiny largest mail", minimal + "limits:\n  largest_mail: 1000\n", "limits.largest_mail is 1000 bytes; want 65536", nil},
		{"huge largest mail", minimal + "limits:\n  largest_mail: 10000000000\n", "limits.largest_mail is 10000000000 bytes", nil},
		{"small quarantine", minimal + "limits:\n  quarantine_bytes: 1000000\n", "limits.quarantine_bytes is 1000000; want at least twice limits.largest_mail (20971520)", nil},
		{"short quarantine", minimal + "limits:\n  keep_quarantined: 1m\n", "limits.keep_quarantined is 1m0s; want at least 1h0m0s", nil},
		{"quarantine is done", strings.Replace(minimal, "  username: pbem", "  username: pbem\n  quarantine_folder: pbem-done", 1), "quarantine_folder \"pbem-done\" must be set and differ", nil},
		{"tiny batch bytes", strings.Replace(minimal, "  username: pbem", "  username: pbem\n  batch_bytes: 10", 1), "imap.batch_bytes is 10", nil},
		{"no smtp connection", minimal + "  connections: 0\n", "smtp.connections is 0; want 1 to 32", nil},
		{"too many smtp connections", minimal + "  connections: 33\n", "smtp.connections is 33; want 1 to 32", nil},
		{"robot move time", minimal + "robots:\n  move_time: 2h\n", "robots.move_time is 2h0m0s; want 10ms to 1m", nil},
		{"authserv-id with a space", minimal + "trusted_authserv_ids: [\"mx.example.org; dmarc=pass\"]\n", "is not an authserv-id", nil},
		{"empty authserv-id", minimal + "trusted_authserv_ids: [\"\"]\n", "is not an authserv-id", nil},
		{"dkim timeout", minimal + "dkim_timeout: 10m\n", "dkim_timeout is 10m0s; want 100ms to 1m", nil},
		{"dkim resolver", minimal + "dkim_resolver: 127.0.0.1\n", "dkim_resolver \"127.0.0.1\" is not host:port", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			look := secrets
			if tt.env != nil {
				look = env(tt.env)
			}
			_, err := Parse([]byte(tt.yaml), look)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v; want it to say %q", err, tt.want)
			}
		})
	}
}

func TestPlainToLoopback(t *testing.T) {
	t.Parallel()
	for _, host := range []string{"127.0.0.1", "localhost", "::1", "127.0.0.53"} {
		y := strings.ReplaceAll(minimal, "host: imap.example.org", "host: '"+host+"'\n  security: plain")
		y = strings.ReplaceAll(y, "host: smtp.example.org", "host: '"+host+"'\n  security: plain")
		c, err := Parse([]byte(y), secrets)
		if err != nil {
			t.Errorf("%s: %v", host, err)
			continue
		}
		if c.IMAP.Port != 143 || c.SMTP.Port != 25 {
			t.Errorf("%s: ports %d, %d; want 143, 25", host, c.IMAP.Port, c.SMTP.Port)
		}
	}
}

func TestSecretNeverShown(t *testing.T) {
	t.Parallel()
	c, err := Parse([]byte(minimal), secrets)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "%v %+v %#v %s\n", c, c, c, c.IMAP.Password)
	for _, format := range []string{"text", "json"} {
		log := Log{Level: "debug", Format: format}.Logger(&buf)
		log.Info("config", "config", c, "imap", c.IMAP, "password", c.IMAP.Password)
		log.Info("grouped", slog.Any("server", c.IMAP.Server))
	}
	if strings.Contains(buf.String(), "hunter2") {
		t.Errorf("password shown:\n%s", buf.String())
	}
	if !strings.Contains(buf.String(), "[redacted]") {
		t.Errorf("no redaction marker in:\n%s", buf.String())
	}
}

func TestLimits(t *testing.T) {
	t.Parallel()
	c, err := Parse([]byte(minimal+"limits:\n  addresses: 5\n  commands: 7\n  robot_games: 1\n"), secrets)
	if err != nil {
		t.Fatal(err)
	}
	l := c.Limits.Service()
	if l.Addresses != 5 || l.Commands != 7 || l.RobotGames != 1 || l.Mails != 60 || l.Strangers != 200 ||
		l.Repeats != 24*time.Hour || l.KeepQuarantined != 30*24*time.Hour || l.QuarantineBytes != 100<<20 {
		t.Errorf("limits %+v", l)
	}
	if l := Default().Limits.Service(); l.RobotGames != 3 {
		t.Errorf("default robot_games %d; want 3", l.RobotGames)
	}
	for _, name := range []string{"recipients", "robot_games"} {
		if _, err := Parse([]byte(minimal+"limits:\n  "+name+": 0\n"), secrets); err == nil || err.Error() != "limits."+name+" is 0; want at least 1" {
			t.Errorf("%s 0: %v", name, err)
		}
	}
	c, err = Parse([]byte(minimal+"limits:\n  answer_bytes: 1000\n  address_answer_bytes: 2000\n  all_answer_bytes: 3000\n"), secrets)
	if err != nil {
		t.Fatal(err)
	}
	if l := c.Limits.Service(); l.AnswerBytes != 1000 || l.AddressAnswerBytes != 2000 || l.AllAnswerBytes != 3000 {
		t.Errorf("answer bounds %+v", l)
	}
}

func TestWebSettings(t *testing.T) {
	t.Parallel()
	base := "address: pbem@example.org\nimap: {host: imap.example.org, username: u, password: p}\nsmtp: {host: smtp.example.org}\n"
	c, err := Parse([]byte(base), env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.HTTP != "" || c.PublicURL != "" {
		t.Errorf("defaults: http %q public_url %q; want both unset (the daemon's default address)", c.HTTP, c.PublicURL)
	}
	if c, err := Parse([]byte(base+"http: "+DefaultHTTP+"\n"), env(nil)); err != nil || c.HTTP != DefaultHTTP {
		t.Errorf("http written as the default address: %q, %v; want it kept as chosen", c.HTTP, err)
	}
	for _, ok := range []string{"http: off", "http: 0.0.0.0:80", "http: '[::1]:8080'", "public_url: https://pbem.example.org/games"} {
		if _, err := Parse([]byte(base+ok+"\n"), env(nil)); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for bad, want := range map[string]string{
		"http: 8080":                    `http "8080" is not host:port`,
		"http: on":                      `http "on" is not host:port`,
		"public_url: pbem.example.org":  "is not a web address",
		"public_url: ftp://example.org": "is not a web address",
		"public_url: https://x.org/?a":  "is not a web address",
	} {
		_, err := Parse([]byte(base+bad+"\n"), env(nil))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", bad, err, want)
		}
	}
}

// The lmtp setting is the address alone, as it was, or a mapping with the
// socket's mode and group and the bounds of the sessions.
func TestLMTPSettings(t *testing.T) {
	t.Parallel()
	c, err := Parse([]byte(minimal+"lmtp: 127.0.0.1:2424\n"), secrets)
	if err != nil {
		t.Fatal(err)
	}
	want := LMTP{Listen: "127.0.0.1:2424", SocketMode: 0o660, Connections: 64, IdleTimeout: 2 * time.Minute}
	if c.LMTP != want {
		t.Errorf("lmtp as an address: %+v; want %+v", c.LMTP, want)
	}
	c, err = Parse([]byte(minimal+"lmtp:\n  listen: /run/pbemd/lmtp\n  socket_mode: \"0620\"\n  socket_group: mail\n  connections: 10\n  connections_per_peer: 4\n  idle_timeout: 1m\n"), secrets)
	if err != nil {
		t.Fatal(err)
	}
	want = LMTP{Listen: "/run/pbemd/lmtp", SocketMode: 0o620, SocketGroup: "mail", Connections: 10, ConnectionsPerPeer: 4, IdleTimeout: time.Minute}
	if c.LMTP != want {
		t.Errorf("lmtp as a mapping: %+v; want %+v", c.LMTP, want)
	}
}

// A metrics port alone listens on the loopback interface; a host written
// is kept.
func TestMetricsAddress(t *testing.T) {
	for in, want := range map[string]string{":9125": "127.0.0.1:9125", "0.0.0.0:9125": "0.0.0.0:9125", "[::1]:9125": "[::1]:9125"} {
		c, err := Parse([]byte(minimal+"metrics: \""+in+"\"\n"), secrets)
		if err != nil || c.Metrics != want {
			t.Errorf("metrics %s: %q, %v; want %s", in, c.Metrics, err, want)
		}
	}
}
