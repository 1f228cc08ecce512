package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/store"
)

// storeBytes reads the database file of a data directory.
func storeBytes(t *testing.T, data string) []byte {
	t.Helper()
	b, err := os.ReadFile(store.PathIn(data))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// deliver -n and sweep -n print what would be sent and leave the store
// byte for byte as it was; the same commands without -n change it.
func TestDryRuns(t *testing.T) {
	t.Parallel()
	d := &deliverer{t: t, data: t.TempDir()}
	d.send("alice@example.org", "signup alice secret", "")
	d.send("bob@example.org", "signup bob secret", "")
	start := time.Now()
	d.send("alice@example.org", "tanbo challenge alice bob -size=9", "")

	before := storeBytes(t, d.data)
	mail := "From: carol@example.org\nSubject: signup carol secret\nMessage-ID: <dry1@client.example>\n\n"
	code, stdout, stderr := pbemd(t, mail, "deliver", "-n", "-data", d.data)
	if code != 0 || len(readMbox(t, []byte(stdout))) != 1 || !strings.Contains(stdout, "pbemd: welcome carol") ||
		!strings.Contains(stderr, "dry run") {
		t.Fatalf("deliver -n: exit %d, stdout\n%s\nstderr\n%s", code, stdout, stderr)
	}
	if !bytes.Equal(before, storeBytes(t, d.data)) {
		t.Fatal("deliver -n changed the store")
	}
	// Again: the dry run did not mark the mail handled.
	if code, stdout, _ = pbemd(t, mail, "deliver", "-n", "-data", d.data); code != 0 || !strings.Contains(stdout, "welcome carol") {
		t.Fatalf("deliver -n again: exit %d\n%s", code, stdout)
	}

	later := start.Add(21*24*time.Hour + time.Minute).UTC().Format(time.RFC3339)
	code, stdout, stderr = pbemd(t, "", "sweep", "-n", "-data", d.data, "-now", later)
	if code != 0 || len(readMbox(t, []byte(stdout))) != 2 || !strings.Contains(stdout, "Subject: Tanbo Board 101 withdrawn") {
		t.Fatalf("sweep -n: exit %d, stdout\n%s\nstderr\n%s", code, stdout, stderr)
	}
	if !bytes.Equal(before, storeBytes(t, d.data)) {
		t.Fatal("sweep -n changed the store")
	}

	// Without -n the same sweep changes the store: the comparison above
	// can fail.
	if code, _, _ := pbemd(t, "", "sweep", "-data", d.data, "-now", later); code != 0 {
		t.Fatalf("sweep: exit %d", code)
	}
	if bytes.Equal(before, storeBytes(t, d.data)) {
		t.Fatal("sweep did not change the store")
	}
}

// deliver with a configuration needs its SMTP settings but no IMAP ones,
// and with -print or -n not even those; serve needs both.
func TestConfigPerSubcommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfgFile := filepath.Join(dir, "pbemd.yaml")
	cfg := fmt.Sprintf("address: games@example.org\ndata: %s\n", filepath.Join(dir, "data"))
	if err := os.WriteFile(cfgFile, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	mail := "From: alice@example.org\nSubject: help\nMessage-ID: <cfg1@client.example>\n\n"
	for _, args := range [][]string{{"deliver", "-print"}, {"deliver", "-n"}, {"sweep", "-n"}} {
		if code, _, stderr := pbemd(t, mail, append(args, "-config", cfgFile)...); code != 0 {
			t.Errorf("%q with no mail servers configured: exit %d\n%s", args, code, stderr)
		}
	}
	// deliver exits 75 on a configuration it cannot use: the mail system
	// keeps the mail rather than bounce it for the server's fault.
	if code, _, stderr := pbemd(t, mail, "deliver", "-config", cfgFile); code != 75 || !strings.Contains(stderr, "smtp.host is missing") {
		t.Errorf("deliver (sending) without smtp: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := pbemd(t, "", "backup", "-config", cfgFile, filepath.Join(dir, "copy.db")); code != 0 {
		t.Errorf("backup -config: exit %d\n%s", code, stderr)
	}
	// SMTP set, IMAP not: deliver is content, serve names what is missing.
	cfg += "smtp:\n  host: 127.0.0.1\n  port: 1\n  security: plain\n"
	if err := os.WriteFile(cfgFile, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := pbemd(t, mail, "deliver", "-config", cfgFile); code != 0 {
		t.Errorf("deliver with smtp and no imap: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := pbemd(t, "", "serve", "-config", cfgFile); code != 1 || !strings.Contains(stderr, "imap.host is missing") {
		t.Errorf("serve without imap: exit %d\n%s", code, stderr)
	}
}
