package daemon

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/devmail"
	"github.com/pbemd/pbemd/pbem/mailauth"
	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/tests/smtpsink"
	"github.com/pbemd/pbemd/tests/testcert"
)

// A clinic is a machine where everything the daemon needs is right: a
// data directory with a store and a DKIM key, an IMAP server, an SMTP
// server with a trusted certificate, an LMTP socket, and DNS publishing
// the key, SPF and DMARC. Each test plants one fault in it.
type clinic struct {
	cfg  *config.Config
	zone map[string][]string
}

func newClinic(t *testing.T, certUntil time.Time) *clinic {
	t.Helper()
	tmp := t.TempDir()
	data := filepath.Join(tmp, "data")
	db, err := store.Open(store.PathIn(data), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := mailauth.NewKey(filepath.Join(data, "dkim-s1.pem"), "ed25519"); err != nil {
		t.Fatal(err)
	}

	dm, err := devmail.Start(devmail.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dm.Close() })
	dm.AddAccount("pbem@example.org", "imap-secret")

	pair, err := testcert.NewUntil(tmp, certUntil)
	if err != nil {
		t.Fatal(err)
	}
	sink, err := smtpsink.Start(smtpsink.Options{TLSConfig: pair.Server, Username: "pbem", Password: "smtp-secret"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sink.Close() })

	cfg := config.Default()
	cfg.Address = "pbem@example.org"
	cfg.Data = data
	cfg.IMAP.Server = server(t, dm.IMAPAddr, mailconn.Plain, "pbem@example.org", "imap-secret")
	cfg.SMTP.Server = server(t, sink.Addr, mailconn.StartTLS, "pbem", "smtp-secret")
	cfg.SMTP.Host = "127.0.0.1"
	cfg.SMTP.CAFile = pair.CAFile
	cfg.DKIM = config.DKIM{Domain: "example.org", Selector: "s1"}
	cfg.LMTP.Listen = filepath.Join(tmp, "lmtp.sock")
	cfg.LMTP.SocketGroup = strconv.Itoa(os.Getgid())
	greet(t, cfg.LMTP.Listen, 0o660)

	signer, err := cfg.Signer()
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := signer.Record()
	return &clinic{cfg: cfg, zone: map[string][]string{
		signer.RecordName():  {rec},
		"example.org":        {"google-site-verification=abc", "v=spf1 ip4:192.0.2.1 -all"},
		"_dmarc.example.org": {"v=DMARC1; p=none"},
	}}
}

func server(t *testing.T, addr string, sec mailconn.Security, user, password string) config.Server {
	t.Helper()
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := strconv.Atoi(port)
	return config.Server{Host: host, Port: p, Security: sec, Username: user, Password: config.Secret(password)}
}

// greet listens on a Unix socket of the mode given, greeting as an LMTP
// server does, until the test ends.
func greet(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("220 example.org LMTP ready\r\n"))
			c.Close()
		}
	}()
}

// examine runs the doctor against the clinic's DNS and returns the
// findings by check, and whether it failed.
func (c *clinic) examine(t *testing.T) (map[string]Finding, bool) {
	t.Helper()
	c.cfg.DKIMResolver = pbemtest.ServeZone(t, c.zone)
	found := map[string]Finding{}
	failed := Doctor(context.Background(), c.cfg, DoctorOptions{Configured: true, Timeout: 10 * time.Second}, func(f Finding) {
		t.Log(f)
		found[f.Check] = f
	})
	return found, failed
}

// expect fails the test unless the check came out at level, saying want.
func expect(t *testing.T, found map[string]Finding, check string, level Level, want string) {
	t.Helper()
	f, ok := found[check]
	if !ok {
		t.Errorf("no finding for %s", check)
		return
	}
	if f.Level != level || !strings.Contains(f.Detail, want) {
		t.Errorf("%s: %v; want %v saying %q", check, f, level, want)
	}
}

func TestDoctorHealthy(t *testing.T) {
	c := newClinic(t, time.Now().Add(90*24*time.Hour))
	found, failed := c.examine(t)
	for _, check := range []string{"data", "owners", "store", "imap", "smtp", "lmtp", "dkim", "spf", "dmarc"} {
		expect(t, found, check, OK, "")
	}
	if failed {
		t.Error("the doctor failed a healthy machine")
	}
	expect(t, found, "smtp", OK, "certificate valid until")
	expect(t, found, "store", OK, "every page whole")
}

// Planted: a store restored by root into the daemon user's directory.
func TestDoctorWrongOwner(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to give the data directory to another user")
	}
	c := newClinic(t, time.Now().Add(90*24*time.Hour))
	if err := os.Chown(c.cfg.Data, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	found, failed := c.examine(t)
	expect(t, found, "owners", Fail, store.FileName+" (uid 0:0)")
	if !failed {
		t.Error("a store the daemon cannot write passed")
	}
}

// An empty data directory, as systemd makes it before the first start,
// and no store yet: warned of, not failed.
func TestDoctorEmptyDataDir(t *testing.T) {
	cfg := config.Default()
	cfg.Data = t.TempDir()
	found := map[string]Finding{}
	failed := Doctor(context.Background(), cfg, DoctorOptions{}, func(f Finding) { found[f.Check] = f })
	expect(t, found, "owners", OK, "the 0 files")
	expect(t, found, "store", Warn, "no database at")
	expect(t, found, "imap", Skip, "no configuration file")
	if failed {
		t.Errorf("an empty data directory failed: %v", found)
	}
}

// Planted: a world-writable data directory.
func TestDoctorDataMode(t *testing.T) {
	c := newClinic(t, time.Now().Add(90*24*time.Hour))
	if err := os.Chmod(c.cfg.Data, 0o777); err != nil {
		t.Fatal(err)
	}
	found, failed := c.examine(t)
	expect(t, found, "data", Fail, "mode 0777")
	if !failed {
		t.Error("a data directory anyone may write passed")
	}
}

// Planted: the SMTP server's certificate ran out yesterday, and another
// runs out in a week.
func TestDoctorCertificate(t *testing.T) {
	c := newClinic(t, time.Now().Add(-24*time.Hour))
	found, failed := c.examine(t)
	expect(t, found, "smtp", Fail, "ran out on "+time.Now().Add(-24*time.Hour).UTC().Format(time.DateOnly))
	if !failed {
		t.Error("an expired certificate passed")
	}

	c = newClinic(t, time.Now().Add(7*24*time.Hour))
	found, failed = c.examine(t)
	expect(t, found, "smtp", Warn, "runs out in 6 days")
	if failed {
		t.Error("a certificate valid for a week more failed")
	}
}

// Planted: DNS lacks the DKIM record, or publishes another key; lacks SPF
// and DMARC; has two SPF records.
func TestDoctorDNS(t *testing.T) {
	c := newClinic(t, time.Now().Add(90*24*time.Hour))
	signer, _ := c.cfg.Signer()
	delete(c.zone, signer.RecordName())
	delete(c.zone, "_dmarc.example.org")
	c.zone["example.org"] = []string{"google-site-verification=abc"}
	found, failed := c.examine(t)
	expect(t, found, "dkim", Fail, "s1._domainkey.example.org has no TXT record")
	expect(t, found, "spf", Warn, "example.org has no SPF record")
	expect(t, found, "dmarc", Warn, "_dmarc.example.org has no DMARC record")
	if !failed {
		t.Error("a missing DKIM record passed")
	}

	c.zone["example.org"] = []string{"v=spf1 mx -all", "v=spf1 ip4:192.0.2.1 -all"}
	found, _ = c.examine(t)
	expect(t, found, "spf", Fail, "example.org has 2 SPF records")

	other := newClinic(t, time.Now().Add(90*24*time.Hour))
	os.Remove(other.cfg.DKIMKeyFile("s1"))
	if _, err := mailauth.NewKey(other.cfg.DKIMKeyFile("s1"), "ed25519"); err != nil {
		t.Fatal(err)
	}
	found, _ = other.examine(t) // the zone publishes the old key
	expect(t, found, "dkim", Fail, "publishes another key")
}

// Offline: a DNS server that does not answer is a warning, not a failure.
func TestDoctorOffline(t *testing.T) {
	c := newClinic(t, time.Now().Add(90*24*time.Hour))
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close() // reads nothing: every question goes unanswered
	c.cfg.DKIMResolver = pc.LocalAddr().String()
	found := map[string]Finding{}
	failed := Doctor(context.Background(), c.cfg, DoctorOptions{Configured: true, Timeout: 300 * time.Millisecond}, func(f Finding) { found[f.Check] = f })
	for _, check := range []string{"dkim", "spf", "dmarc"} {
		expect(t, found, check, Warn, "DNS did not answer")
	}
	if failed {
		t.Errorf("offline, the doctor failed: %v", found)
	}
}

// Planted: the LMTP socket is the daemon user's alone, or not of the MTA's
// group, so the MTA cannot connect; then a file that is no socket.
func TestDoctorLMTPSocket(t *testing.T) {
	c := newClinic(t, time.Now().Add(90*24*time.Hour))
	os.Chmod(c.cfg.LMTP.Listen, 0o600)
	found, failed := c.examine(t)
	expect(t, found, "lmtp", Fail, "mode is 0600, want 0660")
	if !failed {
		t.Error("a socket the MTA cannot use passed")
	}

	os.Chmod(c.cfg.LMTP.Listen, 0o660)
	c.cfg.LMTP.SocketGroup = strconv.Itoa(os.Getgid() + 1) // the MTA's, which the socket lacks
	found, _ = c.examine(t)
	expect(t, found, "lmtp", Fail, fmt.Sprintf("its group is %d, want %d", os.Getgid(), os.Getgid()+1))

	c.cfg.LMTP.Listen = filepath.Join(t.TempDir(), "not-a-socket")
	os.WriteFile(c.cfg.LMTP.Listen, nil, 0o660)
	found, _ = c.examine(t)
	expect(t, found, "lmtp", Fail, "is not a socket")
}

// Planted: the IMAP password is wrong; the SMTP server is gone.
func TestDoctorServers(t *testing.T) {
	c := newClinic(t, time.Now().Add(90*24*time.Hour))
	c.cfg.IMAP.Password = "wrong"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c.cfg.SMTP.Server = server(t, ln.Addr().String(), mailconn.StartTLS, "pbem", "smtp-secret")
	ln.Close()
	found, failed := c.examine(t)
	expect(t, found, "imap", Fail, "refused the login")
	expect(t, found, "smtp", Fail, "cannot be reached")
	if !failed {
		t.Error("servers that cannot be used passed")
	}
}
