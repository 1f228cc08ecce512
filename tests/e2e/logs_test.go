package e2e

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestLogsHoldNoPasswords plays with the most verbose log, through
// refusals of the SMTP server, and checks that no password, neither the
// IMAP login's nor a player's from a Subject line, and no Subject line of
// a command shows up in what pbemd prints.
func TestLogsHoldNoPasswords(t *testing.T) {
	w := newDovecotWorld(t, "")
	cfg, err := os.ReadFile(w.config)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(w.config, bytes.Replace(cfg, []byte("level: info"), []byte("level: debug"), 1), 0o600)
	p := w.start(t)

	g := game(t)
	name := g.Name()
	secrets := []string{serverPass, "pwAlice4417", "pwBob9902", "pwWrong5531"}
	subjects := []string{
		"signup alice pwAlice4417",
		"signup bob pwBob9902",
		name + " challenge alice bob",
		name + " move 101 alice pwWrong5531 " + "a2-a4",
		name + " move 101 alice pwAlice4417 " + "nonsense",
	}
	defer func() {
		if t.Failed() {
			t.Logf("pbemd said:\n%s", p.Output())
		}
	}()
	for i, s := range subjects {
		from := player(strings.Fields(s)[1])
		if strings.HasPrefix(s, name) {
			from = player("alice")
		}
		switch i {
		case 3:
			w.sink.Refuse(451, 1) // a temporary failure is logged with its error
		case 4:
			w.sink.Refuse(550, 1) // and so is a permanent one
		}
		w.send(t, from, s, fmt.Sprintf("review%d.%d@e2e.test", i, time.Now().UnixNano()))
		waitUntil(t, "the mail handled", 10*time.Second, func() bool { return counters(t, w.metrics)["mails_in"] == i+1 })
		if i >= 3 {
			waitUntil(t, "the refusal", 10*time.Second, func() bool { return w.sink.Refused() == i-2 })
		}
	}
	waitUntil(t, "the replies", 10*time.Second, func() bool { return counters(t, w.metrics)["outbox_length"] == 1 })
	p.stop()
	out := p.Output()
	if !strings.Contains(out, "level=DEBUG") {
		t.Fatalf("no debug lines; the test did not run at the debug level:\n%s", out)
	}
	for _, s := range secrets {
		if strings.Contains(out, s) {
			t.Errorf("pbemd printed the password %q:\n%s", s, out)
		}
	}
	for _, s := range subjects[3:] {
		if strings.Contains(out, s) {
			t.Errorf("pbemd printed the Subject %q:\n%s", s, out)
		}
	}
}
