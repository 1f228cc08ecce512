package main

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/tests/smtpsink"
)

// pbemdBinary is the command built once for the tests that run it as a
// mail system would.
var pbemdBinary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pbemd-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pbemdBinary = filepath.Join(dir, "pbemd")
	if out, err := exec.Command("go", "build", "-o", pbemdBinary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building pbemd: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// deliverer runs "pbemd deliver -print" on one data directory, with a
// configuration that trusts the tests' MTA (pbemtest.Authserv).
type deliverer struct {
	t      *testing.T
	data   string
	n      int
	config string // written on first use
}

// configFile returns the deliverer's configuration file.
func (d *deliverer) configFile() string {
	d.t.Helper()
	if d.config == "" {
		d.config = filepath.Join(d.t.TempDir(), "pbemd.yaml")
		yaml := "address: pbem@localhost\ntrusted_authserv_ids: [" + pbemtest.Authserv + "]\n"
		if err := os.WriteFile(d.config, []byte(yaml), 0o600); err != nil {
			d.t.Fatal(err)
		}
	}
	return d.config
}

// mailOut is one reply read back from the mbox that -print writes.
type mailOut struct {
	To, Subject, Body string
}

// send pipes one mail into pbemd deliver and returns its exit status and the
// replies it printed.
func (d *deliverer) send(from, subject, body string) (int, []mailOut) {
	d.t.Helper()
	d.n++
	return d.pipe(rawMail(from, subject, fmt.Sprintf("d%d", d.n), body))
}

func (d *deliverer) pipe(raw []byte) (int, []mailOut) {
	d.t.Helper()
	code, out, stderr := d.run(raw, nil)
	if code != 0 && stderr == "" {
		d.t.Errorf("exit %d with nothing on stderr", code)
	}
	return code, out
}

// runPbemd runs the pbemd command line args (the binary itself, or a
// wrapper such as prlimit in front of it) with stdin, and returns its exit
// status and output.
func runPbemd(t *testing.T, stdin []byte, args ...string) (code int, stdout, stderr []byte) {
	t.Helper()
	return runIn(t, "", stdin, args...)
}

// runIn runs the command line args in the directory dir ("" for the
// test's own) with stdin, and returns its exit status and output.
func runIn(t *testing.T, dir string, stdin []byte, args ...string) (code int, stdout, stderr []byte) {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.Bytes(), errOut.Bytes()
}

// readMbox splits an mbox into its messages and reads each as a mail client would.
func readMbox(t *testing.T, mbox []byte) []mailOut {
	t.Helper()
	if len(mbox) == 0 {
		return nil
	}
	if !bytes.HasPrefix(mbox, []byte("From ")) {
		t.Fatalf("the output is not an mbox:\n%s", mbox)
	}
	var out []mailOut
	// Messages are separated by a blank line before the next "From " line;
	// the split takes the message's own last newline, so it is put back.
	for _, part := range strings.Split(strings.TrimSuffix(string(mbox), "\n"), "\n\nFrom ") {
		_, msg, _ := strings.Cut(part, "\n") // the "From " line
		msg += "\n"
		m, err := mailmsg.ReadMail([]byte(msg))
		if err != nil {
			t.Fatalf("reading a printed reply: %v", err)
		}
		to := ""
		if a := m.Header.Get("To"); a != "" {
			to = a
		}
		out = append(out, mailOut{To: to, Subject: m.Subject, Body: m.Text})
	}
	return out
}

func TestDeliverCommand(t *testing.T) {
	t.Parallel()
	d := &deliverer{t: t, data: t.TempDir()}
	code, out := d.send("alice@example.org", "signup alice secret", "")
	if code != 0 || len(out) != 1 || out[0].Subject != "pbemd: welcome alice" || out[0].To != "alice@example.org" {
		t.Fatalf("signup: exit %d, %+v", code, out)
	}
	// An invalid command is a handled mail: exit 0, an error reply.
	code, out = d.send("alice@example.org", "ultima frobnicate", "")
	if code != 0 || len(out) != 1 || !strings.HasSuffix(out[0].Subject, "error") {
		t.Fatalf("invalid command: exit %d, %+v", code, out)
	}
	// The same mail twice: the second changes nothing and says nothing.
	raw := []byte("From: bob@example.org\nSubject: signup bob secret\nMessage-ID: <same@client.example>\n\n")
	if code, out := d.pipe(raw); code != 0 || len(out) != 1 {
		t.Fatalf("first delivery: exit %d, %+v", code, out)
	}
	if code, out := d.pipe(raw); code != 0 || len(out) != 0 {
		t.Fatalf("second delivery: exit %d, %+v", code, out)
	}
	// A mail the loop guard ignores: handled, silently.
	if code, out := d.pipe([]byte("From: MAILER-DAEMON@example.org\nSubject: failure\n\n")); code != 0 || len(out) != 0 {
		t.Errorf("bounce: exit %d, %+v", code, out)
	}
	// No bytes at all: EX_DATAERR, for the MTA to bounce.
	if code, _ := d.pipe(nil); code != 65 {
		t.Errorf("an empty mail: exit %d; want 65 (EX_DATAERR)", code)
	}
}

func TestDeliverRefusesSecondProcess(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	db, err := store.Open(store.PathIn(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cmd := exec.Command(pbemdBinary, "deliver", "-data", data, "-print", "-lock-wait", "200ms")
	cmd.Stdin = strings.NewReader("From: a@example.org\nSubject: help\n\n")
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 75 || !strings.Contains(string(out), "in use by another pbemd process") {
		t.Errorf("deliver on data in use: %v\n%s\nwant exit 75 (EX_TEMPFAIL) saying the data is in use", err, out)
	}
}

// TestDeliverGames plays every registered game through pbemd deliver: a few
// moves each, checked against the test's own copy of the game, then a
// resignation.
func TestDeliverGames(t *testing.T) {
	t.Parallel()
	for _, g := range catalog.All() {
		t.Run(g.Name(), func(t *testing.T) {
			d := &deliverer{t: t, data: t.TempDir()}
			d.send("alice@example.org", "signup alice secret", "")
			d.send("bob@example.org", "signup bob secret", "")
			_, out := d.send("alice@example.org", g.Name()+" challenge alice bob", "")
			if len(out) != 2 || out[0].Subject != "New "+g.Title()+" Board 101 alice" {
				t.Fatalf("challenge: %+v", out)
			}
			game, err := g.Start(rules.Options{})
			if err != nil {
				t.Fatal(err)
			}
			players := [2]string{"alice", "bob"}
			for n := 1; n <= 6 && !game.Result().Over; n++ {
				id := players[game.ToMove()]
				move := game.Legal()[len(game.Legal())/2]
				if _, err := game.Play(move); err != nil {
					t.Fatalf("the test's copy refused its own legal move %q: %v", move, err)
				}
				code, out := d.send(id+"@example.org", fmt.Sprintf("%s move 101 %s secret %s#%d", g.Name(), id, move, n), "")
				if code != 0 || len(out) != 2 || out[0].To != "alice@example.org" || out[1].To != "bob@example.org" {
					t.Fatalf("move %d %s: exit %d, %+v; want one board mail to each player", n, move, code, out)
				}
				subject := g.Title() + " Board 101 " + players[game.ToMove()]
				if game.Result().Over {
					subject = "" // the subjects of an end are checked in-process, in pbem's TestFullGames
				}
				for _, r := range out {
					if subject != "" && r.Subject != subject {
						t.Fatalf("move %d %s: subject %q, want %q", n, move, r.Subject, subject)
					}
					if !strings.Contains(r.Body, game.Board()) {
						t.Fatalf("move %d %s: the board differs from the rules' own:\n%q\nwant\n%q", n, move, r.Body, game.Board())
					}
				}
			}
			id := players[game.ToMove()]
			_, out = d.send(id+"@example.org", fmt.Sprintf("%s resign 101 %s secret", g.Name(), id), "")
			winner := players[1-game.ToMove()]
			if len(out) != 2 || out[1].Subject != g.Title()+" Board 101 won by "+winner || !strings.Contains(out[1].Body, "Game won by "+winner+".") {
				t.Fatalf("resign: %+v", out)
			}
		})
	}
}

// With a config, deliver sends the replies through its SMTP server; a
// refusing server leaves them in the outbox for the next run.
func TestDeliverSendsBySMTP(t *testing.T) {
	t.Parallel()
	sink, err := smtpsink.Start(smtpsink.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	host, port, _ := net.SplitHostPort(sink.Addr)
	dir := t.TempDir()
	cfgFile := filepath.Join(dir, "pbemd.yaml")
	cfg := fmt.Sprintf("address: pbem@example.org\ndata: %s\nimap:\n  host: 127.0.0.1\n  security: plain\n  username: pbem\n  password: x\nsmtp:\n  host: %s\n  port: %s\n  security: plain\n  retry_min: 10ms\n",
		filepath.Join(dir, "data"), host, port)
	if err := os.WriteFile(cfgFile, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	deliver := func(subject string) {
		t.Helper()
		cmd := exec.Command(pbemdBinary, "deliver", "-config", cfgFile)
		cmd.Stdin = strings.NewReader("From: alice@example.org\nSubject: " + subject + "\n\n")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("deliver %q: %v\n%s", subject, err, out)
		}
	}
	sink.Refuse(451, 1)
	deliver("signup alice secret")
	if n := len(sink.Messages()); n != 0 {
		t.Fatalf("%d mails arrived at a refusing server", n)
	}
	time.Sleep(20 * time.Millisecond) // past retry_min: the refused reply is due again
	deliver("help")
	msgs := sink.Messages()
	if len(msgs) != 2 || msgs[0].To[0] != "alice@example.org" ||
		!strings.Contains(string(msgs[0].Data), "pbemd: welcome alice") ||
		!strings.Contains(string(msgs[1].Data), "Subject: pbemd help") {
		t.Fatalf("the sink got %d mails; want the welcome (kept from the refused run), then the help", len(msgs))
	}
}
