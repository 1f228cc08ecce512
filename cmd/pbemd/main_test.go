package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every subcommand of the table answers -h with its usage and status 0,
// and an unknown flag with status 2; those that take no arguments refuse
// one with status 2.
func TestSubcommandUsage(t *testing.T) {
	t.Parallel()
	for _, c := range commands {
		if c.name == "rules" || c.name == "robot" { // parse their own arguments; tested in rulestool, robot_test.go
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			code, stdout, _ := pbemd(t, "", c.name, "-h")
			if code != 0 || !strings.Contains(stdout, "usage: pbemd "+c.name+" ") || !strings.Contains(stdout, "\nexamples:\n  pbemd "+c.name) {
				t.Errorf("-h: exit %d, stdout\n%s", code, stdout)
			}
			if code, _, stderr := pbemd(t, "", c.name, "-nosuch"); code != 2 || !strings.Contains(stderr, "-nosuch") {
				t.Errorf("-nosuch: exit %d, stderr\n%s", code, stderr)
			}
			if c.name == "backup" || c.name == "admin" || c.name == "restore" || c.name == "export" { // take a FILE or an action
				return
			}
			if code, _, stderr := pbemd(t, "", c.name, "stray"); code != 2 || !strings.Contains(stderr, `unexpected argument "stray"`) {
				t.Errorf("stray argument: exit %d, stderr\n%s", code, stderr)
			}
		})
	}
	if code, _, stderr := pbemd(t, "", "frobnicate"); code != 2 || !strings.Contains(stderr, "pbemd deliver [-config FILE]") {
		t.Errorf("unknown subcommand: exit %d, stderr\n%s", code, stderr)
	}
}

// deliver replies from the configured address and logs as the configuration
// says; without a configuration it replies from the embedded default's.
func TestDeliverUsesTheConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfgFile := filepath.Join(dir, "pbemd.yaml")
	cfg := fmt.Sprintf("address: games@example.org\nname: Game Server\ndata: %s\n"+
		"imap:\n  host: 127.0.0.1\n  security: plain\n  username: pbem\n  password: x\n"+
		"smtp:\n  host: 127.0.0.1\n  security: plain\n"+
		"log:\n  level: info\n  format: json\n", filepath.Join(dir, "data"))
	if err := os.WriteFile(cfgFile, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	signup := "From: alice@example.org\nSubject: signup alice secret\nMessage-ID: <c1@client.example>\n\n"
	code, stdout, stderr := pbemd(t, signup, "deliver", "-config", cfgFile, "-print")
	if code != 0 || !strings.Contains(stdout, "\nFrom: Game Server <games@example.org>\n") {
		t.Errorf("signup with a config: exit %d, stderr %s, stdout\n%s", code, stderr, stdout)
	}
	bounce := "From: MAILER-DAEMON@example.org\nSubject: failure\nMessage-ID: <c2@client.example>\n\n"
	code, _, stderr = pbemd(t, bounce, "deliver", "-config", cfgFile, "-print")
	if code != 0 || !strings.Contains(stderr, `"msg":"mail","from":"MAILER-DAEMON@example.org","msgid":`) || !strings.Contains(stderr, `"result":"ignored"`) {
		t.Errorf("a bounce with a JSON log: exit %d, stderr\n%s", code, stderr)
	}

	code, stdout, stderr = pbemd(t, signup, "deliver", "-data", filepath.Join(dir, "other"), "-print")
	if code != 0 || !strings.Contains(stdout, "\nFrom: pbemd <pbem@localhost>\n") {
		t.Errorf("signup without a config: exit %d, stderr %s, stdout\n%s", code, stderr, stdout)
	}
}

// pbemd runs the built command with stdin and returns its exit status and
// output.
func pbemd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	code, out, errOut := runIn(t, t.TempDir(), []byte(stdin), append([]string{pbemdBinary}, args...)...)
	return code, string(out), string(errOut)
}
