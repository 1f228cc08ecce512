// Black-box tests of pbemd serve: they build the binary, start it on
// temporary data against a real Dovecot and an SMTP sink (or against its
// own embedded mail server), and play by mail.
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/mail"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/pbemd/pbemd/pbem/devmail"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/store/etcdtest"
	"github.com/pbemd/pbemd/tests/dovecot"
	"github.com/pbemd/pbemd/tests/imaptest"
	"github.com/pbemd/pbemd/tests/smtpsink"
	"github.com/pbemd/pbemd/tests/testenv"
)

var pbemdBinary string

func TestMain(m *testing.M) {
	etcdtest.MemberMain() // the members of TestClusterFault's cluster run this binary
	dir, err := os.MkdirTemp("", "pbemd-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pbemdBinary = filepath.Join(dir, "pbemd")
	out, err := exec.Command("go", "build", "-o", pbemdBinary, "github.com/pbemd/pbemd/cmd/pbemd").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building pbemd: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const (
	server     = "pbem@localhost"
	serverPass = "imap-secret"
)

// A proc is a running pbemd.
type proc struct {
	t      testing.TB
	cmd    *exec.Cmd
	mu     sync.Mutex
	out    bytes.Buffer // stdout and stderr
	lines  chan string  // every output line, for waiting on one
	done   chan struct{}
	status error
}

func startPbemd(t testing.TB, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{t: t, cmd: exec.Command(pbemdBinary, args...), lines: make(chan string, 10000), done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), env...)
	r, w := io.Pipe()
	p.cmd.Stdout, p.cmd.Stderr = w, w
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			p.mu.Lock()
			p.out.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			select {
			case p.lines <- sc.Text():
			default:
			}
		}
	}()
	go func() {
		p.status = p.cmd.Wait()
		w.Close()
		<-scanned // the last lines are in Output once done is closed
		close(p.done)
	}()
	t.Cleanup(func() { p.kill() })
	return p
}

// Output returns what pbemd has printed so far.
func (p *proc) Output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// waitLine waits for an output line matching re and returns its submatches.
func (p *proc) waitLine(re string) []string {
	p.t.Helper()
	rx := regexp.MustCompile(re)
	timeout := time.After(20 * time.Second)
	for {
		select {
		case l := <-p.lines:
			if m := rx.FindStringSubmatch(l); m != nil {
				return m
			}
		case <-p.done:
			p.t.Fatalf("pbemd exited (%v) before printing %q:\n%s", p.status, re, p.Output())
		case <-timeout:
			p.t.Fatalf("pbemd did not print %q:\n%s", re, p.Output())
		}
	}
}

// stop sends SIGTERM and waits; the daemon must exit 0.
func (p *proc) stop() {
	p.t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(20 * time.Second):
		p.t.Fatalf("pbemd did not stop on SIGTERM:\n%s", p.Output())
	}
	if p.status != nil {
		p.t.Fatalf("pbemd exited with %v after SIGTERM:\n%s", p.status, p.Output())
	}
}

// kill sends SIGKILL and waits.
func (p *proc) kill() {
	p.cmd.Process.Kill()
	<-p.done
}

// wait waits for pbemd to exit by itself and returns its status.
func (p *proc) wait() error {
	select {
	case <-p.done:
	case <-time.After(20 * time.Second):
		p.t.Fatalf("pbemd did not exit:\n%s", p.Output())
	}
	return p.status
}

// counters reads the metrics of a daemon (see tryCounters).
func counters(t testing.TB, metrics string) map[string]int {
	t.Helper()
	c, err := readCounters(metrics)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// counterNames are the daemon's metrics the tests read, by short name:
// mails_in counts the mails handled (done), whichever way they came.
var counterNames = map[string]string{
	"pbemd_mails_in_total": "mails_in", "pbemd_moves_total": "moves", "pbemd_errors_total": "errors",
	"pbemd_replies_sent_total": "replies_sent", "pbemd_replies_failed_total": "replies_failed",
	"pbemd_imap_reconnects_total": "reconnects", "pbemd_replies_waiting": "outbox_length",
	"pbemd_failed_replies": "failed_length", "pbemd_sweep_seconds_count": "sweep_ticks",
}

// readCounters reads the metrics a daemon serves at /metrics (Prometheus's
// text format), by the short names of counterNames.
func readCounters(metrics string) (map[string]int, error) {
	// Uncompressed: gzip cost the daemon a new compressor (600 KiB) a
	// read, a tenth of its allocations in a backlog read every 100 ms.
	req, err := http.NewRequest("GET", "http://"+metrics+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept-Encoding", "identity")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("/metrics: %s", resp.Status)
	}
	c := map[string]int{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		sample, value, ok := strings.Cut(sc.Text(), " ")
		name, labels, _ := strings.Cut(sample, "{")
		short, known := counterNames[name]
		if !ok || !known || short == "mails_in" && !strings.Contains(labels, `result="done"`) {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return nil, fmt.Errorf("/metrics: %q: %v", sc.Text(), err)
		}
		c[short] += int(v)
	}
	return c, sc.Err()
}

// A reply is one mail from pbemd as a player receives it.
type reply struct {
	To, Subject, InReplyTo, Body string
}

func parseReply(t testing.TB, data []byte) reply {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("reply is not a mail: %v\n%s", err, data)
	}
	body, _ := io.ReadAll(m.Body)
	return reply{
		To:        m.Header.Get("To"),
		Subject:   m.Header.Get("Subject"),
		InReplyTo: strings.Trim(m.Header.Get("In-Reply-To"), "<>"),
		Body:      strings.ReplaceAll(string(body), "\r\n", "\n"),
	}
}

// A world is pbemd with its mail around it: how players mail it and
// where its replies arrive.
type world interface {
	// send mails pbemd from a player.
	send(t testing.TB, from, subject, msgID string)
	// replies returns every reply so far.
	replies(t testing.TB) []reply
}

// mailText is a player's mail as the MTA the tests trust hands it on,
// having found the From's domain vouching for it.
func mailText(from, subject, msgID string) []byte {
	return pbemtest.Vouch(from, plainText(from, subject, msgID))
}

// plainText is a player's mail as his client writes it: nothing vouches
// for its From.
func plainText(from, subject, msgID string) []byte { return mailTo(from, server, subject, msgID) }

// mailTo is plainText to another address than the tests' server.
func mailTo(from, to, subject, msgID string) []byte {
	return fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\n\r\n",
		from, to, subject, msgID, time.Now().Format(time.RFC1123Z))
}

// dovecotWorld is pbemd reading a Dovecot mailbox and sending through a
// sink.
type dovecotWorld struct {
	dc      *dovecot.Server
	sink    *smtpsink.Sink
	data    string
	metrics string
	config  string
	// deliver, when set, replaces LMTP into Dovecot for send.
	deliver func(from string, data []byte) error
}

// newDovecotWorld starts Dovecot and a sink and writes a config for pbemd;
// extra YAML lines are appended to it.
func newDovecotWorld(t testing.TB, extra string) *dovecotWorld {
	t.Helper()
	dc := dovecot.Start(t, map[string]string{server: serverPass})
	sink, err := smtpsink.Start(smtpsink.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sink.Close() })
	w := &dovecotWorld{dc: dc, sink: sink, data: filepath.Join(t.TempDir(), "data"), metrics: testenv.FreeAddr(t)}
	imapHost, imapPort, _ := net.SplitHostPort(dc.IMAPAddr)
	_, smtpPort, _ := net.SplitHostPort(sink.Addr)
	w.config = filepath.Join(t.TempDir(), "pbemd.yaml")
	writeTestConfig(t, w.config, fmt.Sprintf(`data: %s
metrics: %s
imap:
  host: %s
  port: %s
  security: plain
  username: %s
  password_env: PBEMD_IMAP_PASSWORD
  backoff_min: 50ms
  backoff_max: 500ms
`, w.data, w.metrics, imapHost, imapPort, server), smtpPort, extra)
	return w
}

// writeTestConfig writes the tests' configuration of pbemd to path: the
// server's address, its own lines, sending to the sink on smtpPort
// quickly retried, limits a test does not reach, the tests' trusted
// mail server, then extra lines.
func writeTestConfig(t testing.TB, path, own, smtpPort, extra string) {
	t.Helper()
	yaml := fmt.Sprintf(`address: %s
%ssmtp:
  host: 127.0.0.1
  port: %s
  security: plain
  retry_min: 50ms
  retry_max: 500ms
limits:
  mails: 100000
log:
  level: info
trusted_authserv_ids: [%s]
%s`, server, own, smtpPort, pbemtest.Authserv, extra)
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
}

// setIMAP adds a line to the imap section of the config.
func (w *dovecotWorld) setIMAP(t testing.TB, line string) {
	t.Helper()
	cfg, err := os.ReadFile(w.config)
	if err != nil {
		t.Fatal(err)
	}
	cfg = bytes.Replace(cfg, []byte("\nimap:\n"), []byte("\nimap:\n  "+line+"\n"), 1)
	if err := os.WriteFile(w.config, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
}

func (w *dovecotWorld) start(t testing.TB) *proc {
	t.Helper()
	p := startPbemd(t, []string{"PBEMD_IMAP_PASSWORD=" + serverPass}, "serve", "-config", w.config)
	p.waitLine(`IMAP connected`)
	return p
}

func (w *dovecotWorld) send(t testing.TB, from, subject, msgID string) {
	t.Helper()
	deliver := w.deliver
	if deliver == nil {
		deliver = func(from string, data []byte) error { return w.dc.Deliver(from, server, data) }
	}
	if err := deliver(from, mailText(from, subject, msgID)); err != nil {
		t.Fatalf("mailing pbemd: %v", err)
	}
}

func (w *dovecotWorld) replies(t testing.TB) []reply {
	var rs []reply
	for _, m := range w.sink.Messages() {
		rs = append(rs, parseReply(t, m.Data))
	}
	return rs
}

// mailbox returns the messages in one of pbemd's folders in Dovecot.
func (w *dovecotWorld) mailbox(t testing.TB, name string) []imaptest.Message {
	t.Helper()
	msgs, err := imaptest.Read(w.dc.IMAPAddr, server, serverPass, name)
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

// embeddedWorld is pbemd serve without a config: players use its own
// SMTP and IMAP servers, logging in to both, so that the embedded server
// vouches for them.
type embeddedWorld struct {
	imapAddr, smtpAddr string
	players            []string // whose INBOX to read
}

func (w *embeddedWorld) send(t testing.TB, from, subject, msgID string) {
	t.Helper()
	if !slices.Contains(w.players, from) {
		w.players = append(w.players, from)
	}
	c, err := smtp.Dial(w.smtpAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Auth(sasl.NewPlainClient("", from, devmail.DefaultPassword)); err != nil {
		t.Fatal(err)
	}
	if err := c.SendMail(from, []string{server}, bytes.NewReader(plainText(from, subject, msgID))); err != nil {
		t.Fatal(err)
	}
}

func (w *embeddedWorld) replies(t testing.TB) []reply {
	var rs []reply
	for _, p := range w.players {
		msgs, err := imaptest.Read(w.imapAddr, p, devmail.DefaultPassword, "INBOX")
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			rs = append(rs, parseReply(t, m.Data))
		}
	}
	return rs
}

// waitReplies waits until the world holds at least n replies.
func waitReplies(t testing.TB, w world, n int) []reply {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		rs := w.replies(t)
		if len(rs) >= n {
			return rs
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d replies arrived; want %d: %+v", len(rs), n, rs)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitUntil polls cond until it holds or the timeout passes.
func waitUntil(t testing.TB, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("timed out waiting for %s", what)
		case <-time.After(10 * time.Millisecond):
		}
	}
}
