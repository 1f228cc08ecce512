// Package dovecot runs a private Dovecot (IMAP and LMTP on loopback ports)
// for tests, from a temporary configuration. Dovecot is installed from the
// distribution's packages (dovecot-imapd, dovecot-lmtpd); when it is
// missing, Start skips the test, or fails it when the environment variable
// CI is set, so that CI cannot pass by skipping.
package dovecot

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/pbemd/pbemd/tests/testenv"
)

// A Server is a running Dovecot.
type Server struct {
	IMAPAddr  string // host:port of plain IMAP
	LMTPAddr  string // host:port of LMTP
	IMAPSAddr string // host:port of IMAP over TLS, when started by StartTLS

	certFile, keyFile string // the TLS pair of StartTLS

	bin  string // the dovecot program
	dir  string
	conf string
	cmd  *exec.Cmd
	t    testing.TB
}

// Start runs Dovecot with the given users (address -> password) until the
// test ends.
func Start(t testing.TB, users map[string]string) *Server {
	t.Helper()
	return start(t, users, "", "")
}

// StartTLS is Start with IMAP over TLS too (at IMAPSAddr), with the
// certificate and key in PEM files.
func StartTLS(t testing.TB, users map[string]string, certFile, keyFile string) *Server {
	t.Helper()
	return start(t, users, certFile, keyFile)
}

func start(t testing.TB, users map[string]string, certFile, keyFile string) *Server {
	t.Helper()
	bin := testenv.Program(t, "apt-get install dovecot-imapd dovecot-lmtpd", "dovecot", "/usr/sbin/dovecot")
	dir := testenv.OpenDir(t, "dovecot")
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(home, 0o777) // past the umask: mail is written as another user
	var passwd strings.Builder
	for u, p := range users {
		fmt.Fprintf(&passwd, "%s:{PLAIN}%s\n", u, p)
	}
	if err := os.WriteFile(filepath.Join(dir, "passwd"), []byte(passwd.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &Server{IMAPAddr: testenv.FreeAddr(t), LMTPAddr: testenv.FreeAddr(t), bin: bin, dir: dir, t: t, certFile: certFile, keyFile: keyFile}
	if certFile != "" {
		s.IMAPSAddr = testenv.FreeAddr(t)
	}
	s.conf = filepath.Join(dir, "dovecot.conf")
	if err := os.WriteFile(s.conf, []byte(s.config()), 0o644); err != nil {
		t.Fatal(err)
	}
	s.start()
	t.Cleanup(s.Kill)
	return s
}

func port(addr string) string {
	_, p, _ := net.SplitHostPort(addr)
	return p
}

func (s *Server) config() string {
	mailUser, mailGroup := "nobody", "nogroup"
	var users string
	if os.Geteuid() != 0 {
		// As an ordinary user everything runs as that user.
		u, _ := user.Current()
		g, _ := user.LookupGroupId(u.Gid)
		mailUser, mailGroup = u.Username, g.Name
		users = fmt.Sprintf("default_internal_user = %[1]s\ndefault_login_user = %[1]s\ndefault_internal_group = %[2]s\n", mailUser, mailGroup)
	}
	return fmt.Sprintf(`# written by tests/dovecot
protocols = imap lmtp
listen = 127.0.0.1
base_dir = %[1]s/run
state_dir = %[1]s/state
log_path = %[1]s/dovecot.log
%[7]s
disable_plaintext_auth = no
auth_mechanisms = plain
%[5]s
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%%u %[1]s/passwd
}
userdb {
  driver = static
  args = uid=%[2]s gid=%[3]s home=%[1]s/home/%%u allow_all_users=yes
}
mail_location = maildir:~/Maildir
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = %[4]s
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = %[8]s
  }
}
service lmtp {
  unix_listener lmtp {
    mode = 0666
  }
  inet_listener lmtp {
    address = 127.0.0.1
    port = %[6]s
  }
}
service anvil {
  chroot =
}
service pop3-login {
  inet_listener pop3 {
    port = 0
  }
}
`, s.dir, mailUser, mailGroup, port(s.IMAPAddr), users, port(s.LMTPAddr), s.ssl(), s.imapsPort())
}

// ssl is the configuration's TLS settings: off, or the pair of StartTLS.
func (s *Server) ssl() string {
	if s.certFile == "" {
		return "ssl = no"
	}
	return fmt.Sprintf("ssl = yes\nssl_cert = <%s\nssl_key = <%s", s.certFile, s.keyFile)
}

func (s *Server) imapsPort() string {
	if s.IMAPSAddr == "" {
		return "0"
	}
	return port(s.IMAPSAddr)
}

func (s *Server) start() {
	s.t.Helper()
	cmd := exec.Command(s.bin, "-F", "-c", s.conf)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.cmd = cmd
	// Ready when both ports answer.
	deadline := time.Now().Add(10 * time.Second)
	for _, a := range []string{s.IMAPAddr, s.LMTPAddr, s.IMAPSAddr} {
		if a == "" {
			continue
		}
		for {
			c, err := net.Dial("tcp", a)
			if err == nil {
				c.Close()
				break
			}
			if time.Now().After(deadline) {
				log, _ := os.ReadFile(filepath.Join(s.dir, "dovecot.log"))
				s.t.Fatalf("dovecot did not start: %v\n%s\n%s", err, out.String(), log)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// Kill kills Dovecot and all its processes at once, like a crash.
func (s *Server) Kill() {
	if s.cmd == nil {
		return
	}
	syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	s.cmd.Wait()
	s.cmd = nil
}

// Restart starts Dovecot again on the same ports and mail after Kill.
func (s *Server) Restart() {
	s.t.Helper()
	s.Kill()
	s.start()
}

// Log returns Dovecot's log so far.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "dovecot.log"))
	return string(b)
}

// An LMTP is one LMTP connection for delivering many mails quickly.
type LMTP struct {
	c *smtp.Client
}

// DialLMTP opens an LMTP connection.
func (s *Server) DialLMTP() (*LMTP, error) { return DialLMTPAt(s.LMTPAddr) }

// DialLMTPAt opens an LMTP connection to any LMTP server (pbemd's too).
func DialLMTPAt(addr string) (*LMTP, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	c := smtp.NewClientLMTP(conn)
	if err := c.Hello("localhost"); err != nil {
		c.Close()
		return nil, err
	}
	return &LMTP{c}, nil
}

// Deliver hands one mail for rcpt to the server (Dovecot puts it into
// rcpt's INBOX), as an MTA would.
func (l *LMTP) Deliver(from, rcpt string, data []byte) error {
	return l.c.SendMail(from, []string{rcpt}, bytes.NewReader(data))
}

// Close ends the connection.
func (l *LMTP) Close() error { return l.c.Quit() }

// Deliver puts one mail into the INBOX of rcpt over a new LMTP connection.
func (s *Server) Deliver(from, rcpt string, data []byte) error {
	return DeliverAt(s.LMTPAddr, from, rcpt, data)
}

// DeliverAt hands one mail for rcpt to any LMTP server (pbemd's too) over
// a new connection.
func DeliverAt(addr, from, rcpt string, data []byte) error {
	l, err := DialLMTPAt(addr)
	if err != nil {
		return err
	}
	defer l.Close()
	return l.Deliver(from, rcpt, data)
}
