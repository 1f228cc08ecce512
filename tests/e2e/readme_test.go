package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/devmail"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/tests/dovecot"
	"github.com/pbemd/pbemd/tests/imaptest"
	"github.com/pbemd/pbemd/tests/smtpsink"
)

// readmeRecipes returns the blocks of README.md (shell, or configuration
// lines) that follow a "<!-- recipe: NAME -->" line, by name.
func readmeRecipes(t testing.TB, root string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)<!-- recipe: (\\w+) -->\n```\\w*\n(.*?)```\n")
	recipes := map[string]string{}
	for _, m := range re.FindAllStringSubmatch(string(data), -1) {
		recipes[m[1]] = m[2]
	}
	return recipes
}

// The systemctl and journalctl of the README's recipes, for a machine
// without systemd: they run pbemd serve as the unit would, with the
// unit's ExecStart and EnvironmentFile, and show its output.
const systemctlStub = `#!/bin/bash
# systemctl for the README test: one unit, pbemd.
root=%[1]q
start() {
	( set -a; . "$root/etc/pbemd/env"; set +a
	  exec "$root/usr/local/bin/pbemd" serve -config "$root/etc/pbemd/pbemd.yaml" ) >>"$root/journal" 2>&1 &
	echo $! >"$root/pid"
	for i in $(seq 200); do
		if grep -q 'IMAP connected' <(tail -n +$(cat "$root/journal.start" 2>/dev/null || echo 1) "$root/journal"); then return 0; fi
		kill -0 $(cat "$root/pid") 2>/dev/null || { echo "pbemd exited" >&2; exit 1; }
		sleep 0.1
	done
	echo "pbemd did not connect" >&2; exit 1
}
stop() {
	[ -f "$root/pid" ] || return 0
	pid=$(cat "$root/pid"); kill -TERM "$pid" 2>/dev/null
	while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
	rm -f "$root/pid"
}
mark() { echo $(( $(wc -l <"$root/journal" 2>/dev/null || echo 0) + 1 )) >"$root/journal.start"; }
case "$*" in
daemon-reload) ;;
"enable --now pbemd"|"start pbemd") [ -f "$root/etc/systemd/system/pbemd.service" ] || { echo "no unit pbemd" >&2; exit 1; }; mark; start ;;
"stop pbemd") stop ;;
"restart pbemd") stop; mark; start ;;
*) echo "systemctl stub: $*" >&2; exit 1 ;;
esac
`

const journalctlStub = `#!/bin/bash
cat %q
`

// TestReadme runs the README's recipes for running pbemd for real, in
// order, on a temporary root, against Dovecot and an SMTP sink.
func TestReadme(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	recipes := readmeRecipes(t, repo)
	for _, name := range []string{"install", "try", "systemd", "admin", "backup", "upgrade"} {
		if recipes[name] == "" {
			t.Fatalf("README.md has no recipe %q", name)
		}
	}
	root := t.TempDir()
	for _, d := range []string{"usr/local/bin", "etc/systemd/system", "var/lib/pbemd", "var/backups", "stubs"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "stubs", "systemctl"), []byte(fmt.Sprintf(systemctlStub, root)), 0o755)
	os.WriteFile(filepath.Join(root, "stubs", "journalctl"), []byte(fmt.Sprintf(journalctlStub, filepath.Join(root, "journal"))), 0o755)
	t.Cleanup(func() { exec.Command(filepath.Join(root, "stubs", "systemctl"), "stop", "pbemd").Run() })

	run := func(name string) string {
		t.Helper()
		script := recipes[name]
		for _, p := range []string{"/etc/pbemd", "/etc/systemd/system", "/var/lib/pbemd", "/var/backups", "/usr/local/bin"} {
			script = strings.ReplaceAll(script, p, root+p)
		}
		cmd := exec.Command("bash", "-e", "-c", script)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "PATH="+root+"/stubs:"+root+"/usr/local/bin:"+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			journal, _ := os.ReadFile(filepath.Join(root, "journal"))
			t.Fatalf("recipe %s: %v\n%s\njournal:\n%s", name, err, out, journal)
		}
		return string(out)
	}

	run("install")
	if env, _ := os.ReadFile(filepath.Join(root, "etc/pbemd/env")); !strings.Contains(string(env), "PBEMD_SMTP_PASSWORD=") {
		t.Fatalf("the install recipe wrote no passwords:\n%s", env)
	}
	// "Then edit /etc/pbemd/pbemd.yaml": the address, data, hosts and
	// user names, here those of a private Dovecot and a sink.
	dc := dovecot.Start(t, map[string]string{server: serverPass})
	sink, err := smtpsink.Start(smtpsink.Options{Username: server, Password: "smtp-pass"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sink.Close() })
	editConfig(t, filepath.Join(root, "etc/pbemd/pbemd.yaml"), map[string]string{
		"address: pbem@example.org":  "address: " + server,
		"data: ./pbem-data":          "data: " + root + "/var/lib/pbemd",
		"host: imap.example.org":     "host: 127.0.0.1",
		"host: smtp.example.org":     "host: 127.0.0.1",
		"username: pbem@example.org": "username: " + server,
		"  security: tls\n":          "  security: plain\n",
		"  security: starttls\n":     "  security: plain\n",
		"http: 127.0.0.1:8025":       "http: off",
		// As the README says: the MTA in front is trusted to vouch.
		"trusted_authserv_ids: []":               "trusted_authserv_ids: [" + pbemtest.Authserv + "]",
		"143 for starttls and plain.\n  port: 0": "143 for starttls and plain.\n  port: " + portOf(dc.IMAPAddr),
		"25 for plain.\n  port: 0":               "25 for plain.\n  port: " + portOf(sink.Addr),
	})
	os.WriteFile(filepath.Join(root, "etc/pbemd/env"), []byte("PBEMD_IMAP_PASSWORD="+serverPass+"\nPBEMD_SMTP_PASSWORD=smtp-pass\n"), 0o600)

	if out := run("try"); !strings.Contains(out, "dry run") || !strings.Contains(out, "To: alice@example.org") {
		t.Errorf("the try recipe printed no reply:\n%s", out)
	}
	if out := run("systemd"); !strings.Contains(out, `msg="pbemd serving"`) {
		t.Errorf("the systemd recipe:\n%s", out)
	}
	dc.Deliver(player("alice"), server, mailText(player("alice"), "signup alice pwAlice9", fmt.Sprintf("readme.%d@e2e.test", time.Now().UnixNano())))
	sink.Wait(1, 20*time.Second)
	if out := run("admin"); !regexp.MustCompile(`(?m)^users +\d+$`).MatchString(out) || !strings.Contains(out, "alice@localhost") {
		t.Errorf("the admin recipe:\n%s", out)
	}
	if out := run("backup"); !strings.Contains(out, "the running daemon copied") {
		t.Errorf("the backup recipe:\n%s", out)
	}
	if out := run("admin"); !strings.Contains(out, "alice@localhost") {
		t.Errorf("alice is gone after the restore:\n%s", out)
	}
	if out := run("upgrade"); !regexp.MustCompile(`pbemd \S+ \(.*\) go1`).MatchString(out) {
		t.Errorf("the upgrade recipe:\n%s", out)
	}

	// The unit itself passes systemd's own check, given a binary where it
	// looks for one.
	if sa, err := exec.LookPath("systemd-analyze"); err == nil {
		unit, err := os.ReadFile(filepath.Join(repo, "contrib", "pbemd.service"))
		if err != nil {
			t.Fatal(err)
		}
		fixed := strings.ReplaceAll(string(unit), "/usr/local/bin/pbemd", root+"/usr/local/bin/pbemd")
		path := filepath.Join(root, "pbemd.service")
		os.WriteFile(path, []byte(fixed), 0o644)
		if out, err := exec.Command(sa, "verify", path).CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("systemd-analyze verify: %v\n%s", err, out)
		}
	}
}

// editConfig replaces each key of edits in the file by its value, as an
// operator edits the example; each must be found.
func editConfig(t *testing.T, path string, edits map[string]string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for old, new := range edits {
		if !strings.Contains(s, old) {
			t.Fatalf("%s has no %q", path, old)
		}
		s = strings.ReplaceAll(s, old, new)
	}
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

// The first mail the embedded server's welcome shows, run twice as
// written: both are answered (the second refused: alice is taken), none
// dropped as a duplicate, since each carries a fresh Message-ID. The
// recipe logs in, so the embedded server vouches for alice; the same mail
// sent without the login is not vouched for.
func TestWelcomeRecipeTwice(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("no curl")
	}
	p := startPbemd(t, nil, "serve", "-data", filepath.Join(t.TempDir(), "data"), "-imap", "127.0.0.1:0", "-smtp", "127.0.0.1:0", "-http", "off")
	imapAddr := p.waitLine(`^  IMAP  (\S+)`)[1]
	p.waitLine(`^The reply lands`)
	m := regexp.MustCompile(`(?s)\n(curl .*?\nEOF\n)`).FindStringSubmatch(p.Output())
	if m == nil {
		t.Fatalf("no curl recipe in:\n%s", p.Output())
	}
	noLogin := regexp.MustCompile(` --user \S+`).ReplaceAllString(m[1], "")
	if noLogin == m[1] {
		t.Fatalf("the recipe does not log in (--user):\n%s", m[1])
	}
	for i, recipe := range []string{m[1], m[1], noLogin} {
		if out, err := exec.Command("bash", "-e", "-c", recipe).CombinedOutput(); err != nil {
			t.Fatalf("the recipe: %v\n%s", err, out)
		}
		if i == 2 {
			// The same refused mail again is not answered again: its
			// log line is what tells.
			waitUntil(t, "the mail without the login", 20*time.Second, func() bool {
				return strings.Contains(p.Output(), ` auth="no signature"`)
			})
			break
		}
		waitUntil(t, "the reply", 20*time.Second, func() bool {
			msgs, err := imaptest.Read(imapAddr, "alice@localhost", devmail.DefaultPassword, "INBOX")
			return err == nil && len(msgs) == i+1
		})
	}
	p.stop()
	if n := strings.Count(p.Output(), `auth="ar `+devmail.AuthservID+` auth"`); n != 2 {
		t.Errorf("%d of the recipe's 2 mails authenticated; want both:\n%s", n, p.Output())
	}
	if n := strings.Count(p.Output(), ` auth="no signature"`); n != 1 {
		t.Errorf("%d mails without the login unauthenticated; want 1:\n%s", n, p.Output())
	}
}
