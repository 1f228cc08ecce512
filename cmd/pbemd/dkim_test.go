package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/pbem/mailauth"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/tests/smtpsink"
)

// An operator runs "pbemd dkim", publishes the record it prints and adds
// the lines it prints: the replies deliver sends carry a signature that
// verifies against that record, and the key file is the owner's alone.
func TestDKIMSignsWhatIsSent(t *testing.T) {
	t.Parallel()
	sink, err := smtpsink.Start(smtpsink.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	out, err := exec.Command(pbemdBinary, "dkim", "-data", data, "-domain", "example.org", "-selector", "pbemd1").CombinedOutput()
	if err != nil {
		t.Fatalf("pbemd dkim: %v\n%s", err, out)
	}
	zone := pbemtest.PrintedRecord(t, out)
	if _, ok := zone["pbemd1._domainkey.example.org"]; !ok {
		t.Fatalf("pbemd dkim printed the record %v; want pbemd1._domainkey.example.org", zone)
	}
	lines := regexp.MustCompile(`(?s)\n(    dkim:\n.*?)\n\n`).FindSubmatch(out)
	if lines == nil {
		t.Fatalf("no configuration lines in:\n%s", out)
	}
	if info, err := os.Stat(filepath.Join(data, "dkim-pbemd1.pem")); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the key file: %v, %v; want mode 0600", info, err)
	}
	if out, err := exec.Command(pbemdBinary, "dkim", "-data", data, "-domain", "example.org", "-selector", "pbemd1").CombinedOutput(); err == nil {
		t.Errorf("a second pbemd dkim of the same selector overwrote the key:\n%s", out)
	}

	host, port, _ := net.SplitHostPort(sink.Addr)
	cfgFile := filepath.Join(dir, "pbemd.yaml")
	cfg := fmt.Sprintf("address: pbem@example.org\ndata: %s\nimap:\n  host: 127.0.0.1\n  security: plain\n  username: pbem\n  password: x\nsmtp:\n  host: %s\n  port: %s\n  security: plain\n%s\n",
		data, host, port, strings.ReplaceAll(string(lines[1]), "\n    ", "\n")[4:])
	if err := os.WriteFile(cfgFile, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(pbemdBinary, "deliver", "-config", cfgFile)
	cmd.Stdin = strings.NewReader("From: alice@example.org\nSubject: signup alice secret\n\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("deliver: %v\n%s\nconfig:\n%s", err, out, cfg)
	}
	msgs := sink.Messages()
	if len(msgs) != 1 {
		t.Fatalf("the sink got %d mails; want the welcome", len(msgs))
	}
	v := &mailauth.Verifier{Resolver: zone}
	if r := v.Check(msgs[0].Data); !r.Authenticated || r.How != "dkim example.org" {
		t.Errorf("the welcome as sent: %+v\n%s", r, msgs[0].Data)
	}
}
