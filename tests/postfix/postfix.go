// Package postfix runs a private Postfix for tests: its own configuration,
// queue and data directories, smtpd on a loopback port, started with
// "postfix -c DIR start". Postfix comes from the distribution's packages
// (apt-get install postfix; the package's own instance is never used).
// When it is missing, Start skips the test, or fails it when the
// environment variable CI is set, so that CI cannot pass by skipping. It
// skips when the test does not run as root, which "postfix start" needs.
package postfix

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/pbemd/pbemd/tests/testenv"
)

// Options set up a Server.
type Options struct {
	// Domain is the mail domain the server takes mail for (mydestination).
	Domain string
	// Main are lines for main.cf as an operator writes them for the
	// packaged Postfix: the files they name in /etc/postfix are looked
	// for in the server's own configuration directory.
	Main string
	// Maps are the lookup tables the lines of Main use, by file name in
	// /etc/postfix; each is compiled with postmap, as for hash: tables.
	Maps map[string]string
}

// A Server is a running Postfix.
type Server struct {
	SMTPAddr string // host:port of smtpd

	bin string // the postfix program
	dir string // etc (configuration), queue, data, maillog
	t   testing.TB
}

// Start runs Postfix until the test ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	bin := testenv.Program(t, "apt-get install postfix", "postfix", "/usr/sbin/postfix")
	if os.Geteuid() != 0 {
		// Even in CI: a CI that runs its tests as a user cannot run these.
		t.Skip("postfix start needs root; the tests run as uid " + strconv.Itoa(os.Geteuid()) + "; skipping")
	}
	owner, err := user.Lookup("postfix")
	if err != nil {
		t.Fatalf("postfix is installed but its user is missing: %v", err)
	}
	dir := testenv.OpenDir(t, "postfix")
	s := &Server{SMTPAddr: testenv.FreeAddr(t), bin: bin, dir: dir, t: t}
	for _, d := range []string{"etc", "queue", "data"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
		os.Chmod(filepath.Join(dir, d), 0o755) // past the umask
	}
	uid, _ := strconv.Atoi(owner.Uid)
	if err := os.Chown(filepath.Join(dir, "data"), uid, -1); err != nil {
		t.Fatal(err)
	}
	etc := filepath.Join(dir, "etc")
	main := s.mainCF(opts.Domain) + strings.ReplaceAll(opts.Main, "/etc/postfix/", etc+"/")
	s.write("main.cf", main)
	s.write("master.cf", s.masterCF())
	for name, table := range opts.Maps {
		s.write(name, table)
		s.run(s.tool("postmap"), "-c", etc, "hash:"+filepath.Join(etc, name))
	}
	s.run(bin, "-c", etc, "start")
	t.Cleanup(s.stop)
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", s.SMTPAddr)
		if err == nil {
			c.Close()
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("postfix did not listen on %s: %v\n%s", s.SMTPAddr, err, s.Log())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// mainCF is the instance's own part of main.cf: its directories and
// loopback address, mail for domain only, nothing delivered to the
// machine's mailboxes, and retries of deferred mail within seconds.
func (s *Server) mainCF(domain string) string {
	return fmt.Sprintf(`# written by tests/postfix
compatibility_level = 3.6
queue_directory = %[1]s/queue
data_directory = %[1]s/data
maillog_file_prefixes = %[1]s
maillog_file = %[1]s/maillog
myhostname = mta.postfix.test
mydestination = %[2]s
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
relayhost =
alias_maps =
alias_database =
local_transport = discard:no local mailboxes in tests
smtpd_tls_security_level = none
smtp_tls_security_level = none
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 2s
`, s.dir, domain)
}

// masterCF runs smtpd on the loopback port and the services a delivery
// needs, none chrooted.
func (s *Server) masterCF() string {
	return s.SMTPAddr + ` inet n - n - - smtpd
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
proxymap  unix  -       -       n       -       -       proxymap
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
lmtp      unix  -       -       n       -       -       lmtp
smtp      unix  -       -       n       -       -       smtp
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
`
}

func (s *Server) write(name, content string) {
	s.t.Helper()
	if err := os.WriteFile(filepath.Join(s.dir, "etc", name), []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

func (s *Server) run(name string, args ...string) {
	s.t.Helper()
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		s.t.Fatalf("%s %s: %v\n%s\n%s", name, strings.Join(args, " "), err, out, s.Log())
	}
}

// tool is the path of one of Postfix's commands, beside postfix.
func (s *Server) tool(name string) string { return filepath.Join(filepath.Dir(s.bin), name) }

func (s *Server) stop() {
	exec.Command(s.bin, "-c", filepath.Join(s.dir, "etc"), "stop").Run()
}

// Log returns Postfix's log so far.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "maillog"))
	return string(b)
}

// Send submits one mail over SMTP, as a player's mail server would.
func (s *Server) Send(from string, to []string, data []byte) error {
	c, err := smtp.Dial(s.SMTPAddr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.SendMail(from, to, bytes.NewReader(data)); err != nil {
		return err
	}
	return c.Quit()
}

// A Queued is one mail Postfix holds, with why each recipient waits.
type Queued struct {
	Queue      string `json:"queue_name"` // incoming, active, deferred, hold
	ID         string `json:"queue_id"`
	Recipients []struct {
		Address string `json:"address"`
		Reason  string `json:"delay_reason"`
	} `json:"recipients"`
}

// Queue lists the mails Postfix holds.
func (s *Server) Queue() []Queued {
	s.t.Helper()
	out, err := exec.Command(s.tool("postqueue"), "-c", filepath.Join(s.dir, "etc"), "-j").Output()
	if err != nil {
		s.t.Fatalf("postqueue -j: %v\n%s", err, s.Log())
	}
	var q []Queued
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var m Queued
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			s.t.Fatalf("postqueue -j printed %q: %v", sc.Text(), err)
		}
		q = append(q, m)
	}
	return q
}

// Reasons returns why the queued mails wait, one per recipient.
func Reasons(q []Queued) []string {
	var rs []string
	for _, m := range q {
		for _, r := range m.Recipients {
			rs = append(rs, r.Reason)
		}
	}
	return rs
}
