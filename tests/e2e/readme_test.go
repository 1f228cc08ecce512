package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"
	"github.com/pbemd/pbemd/pbem/devmail"
	"github.com/pbemd/pbemd/pbem/mailauth"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/tests/imaptest"
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

// readmeOrder is the README's recipes in the order an operator follows
// them, which is the order TestReadme runs them in.
var readmeOrder = []string{"packages", "install", "dovecot", "mailbox", "postfix",
	"config", "dkim", "try", "systemd", "admin", "backup", "upgrade", "deliver"}

// readmeTouches is what the README's recipes (and TestReadme's players)
// write on the machine: TestReadme puts back what was there before and
// removes the rest.
var readmeTouches = []string{
	"/etc/postfix", "/etc/dovecot", "/etc/mailname", "/etc/aliases", "/etc/aliases.db",
	"/etc/pbemd", "/etc/systemd/system/pbemd.service", "/usr/local/bin/pbemd",
	"/var/lib/pbemd", "/var/vmail", "/var/spool/postfix/pbemd",
	"/var/spool/postfix/private/dovecot-lmtp", "/var/spool/postfix/private/auth",
	"/var/backups/pbemd.db", "/var/backups/pbemd-before-upgrade.db",
	"/var/log/postfix.log", "/var/log/dovecot.log",
}

// The systemctl and journalctl of the README's recipes, for a machine
// without systemd. They run each unit as its unit file says: Postfix and
// Dovecot by their packages' units (Postfix's postfix@.service, which
// postfix.service starts, for the instance "-"), pbemd by the installed
// unit: ExecStart as its User and Group (never root), with its
// EnvironmentFile, WorkingDirectory and UMask, in a StateDirectory made
// the user's, its output kept as the journal.
const systemctlStub = `#!/bin/bash
set -u
dir=%[1]q
unitfile() {
	case $1 in
	pbemd) echo /etc/systemd/system/pbemd.service ;;
	postfix) echo /lib/systemd/system/postfix@.service ;;
	dovecot) echo /lib/systemd/system/dovecot.service ;;
	*) echo "systemctl stub: no unit $1" >&2; exit 5 ;;
	esac
}
key() { sed -n "s/^$2=//p" "$(unitfile "$1")" | tail -n 1 | sed 's/%%i/-/g'; }
# runlog runs a command of a unit's, its output kept in the unit's log, not
# in the caller's, which a daemon would hold open.
runlog() {
	local unit=$1; shift
	[ -z "$*" ] || "$@" </dev/null >>"$dir/$unit.log" 2>&1 || { echo "$*: failed" >&2; cat "$dir/$unit.log" >&2; exit 1; }
}
ready() {
	for i in $(seq 300); do
		case $1 in
		postfix) postfix status 2>/dev/null && return 0 ;;
		dovecot) [ -f /run/dovecot/master.pid ] && return 0 ;;
		pbemd)
			tail -n +"$from" "$dir/journal" | grep -q 'msg="pbemd serving"' && return 0
			kill -0 "$(cat "$dir/pbemd.pid")" 2>/dev/null || { echo "pbemd exited" >&2; rm -f "$dir/pbemd.pid"; exit 1; } ;;
		esac
		sleep 0.1
	done
	echo "$1 did not start" >&2; exit 1
}
start() {
	local user group
	[ -f "$(unitfile "$1")" ] || { echo "no unit $1" >&2; exit 5; }
	case $1 in
	pbemd)
		user=$(key pbemd User) group=$(key pbemd Group)
		[ -n "$user" ] && [ "$user" != root ] || { echo "the unit runs pbemd as root" >&2; exit 1; }
		install -d -o "$user" -g "$group" -m "$(key pbemd StateDirectoryMode)" "/var/lib/$(key pbemd StateDirectory)"
		from=$(( $(wc -l <"$dir/journal") + 1 ))
		( set -a; . "$(key pbemd EnvironmentFile)"; set +a
		  cd "$(key pbemd WorkingDirectory)" && umask "$(key pbemd UMask)" &&
		  exec setpriv --reuid="$user" --regid="$group" --init-groups --no-new-privs $(key pbemd ExecStart) ) </dev/null >>"$dir/journal" 2>&1 &
		echo $! >"$dir/pbemd.pid" ;;
	*)
		runlog "$1" $(key "$1" ExecStartPre)
		setsid $(key "$1" ExecStart) </dev/null >>"$dir/$1.log" 2>&1 & ;;
	esac
	ready "$1"
}
stop() {
	case $1 in
	pbemd)
		[ -f "$dir/pbemd.pid" ] || return 0
		local pid; pid=$(cat "$dir/pbemd.pid"); kill -TERM "$pid" 2>/dev/null
		while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
		rm -f "$dir/pbemd.pid" ;;
	postfix) postfix status 2>/dev/null || return 0; runlog postfix $(key postfix ExecStop) ;;
	dovecot)
		[ -f /run/dovecot/master.pid ] || return 0
		local pid; pid=$(cat /run/dovecot/master.pid)
		runlog dovecot $(key dovecot ExecStop)
		while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done ;;
	esac
}
verb=${1:-}; shift
now=; if [ "${1:-}" = --now ]; then now=1; shift; fi
[ "$verb" = daemon-reload ] && exit 0
unit=${1:-}
unitfile "$unit" >/dev/null
case $verb in
enable) [ -z "$now" ] || start "$unit" ;;
disable) [ -z "$now" ] || stop "$unit" ;;
start) start "$unit" ;;
stop) stop "$unit" ;;
restart) stop "$unit"; start "$unit" ;;
reload) runlog "$unit" $(key "$unit" ExecReload) ;;
*) echo "systemctl stub: $verb: not known" >&2; exit 1 ;;
esac
`

const journalctlStub = `#!/bin/bash
cat %q
`

// The README's domain, and its players in TestReadme: addresses of the
// domain, mailboxes of the Dovecot the README sets up.
const (
	readmeDomain = "example.org"
	readmeServer = "pbem@" + readmeDomain
)

// TestReadme follows "Running it for real" on this machine: every recipe
// block as written, in order, as root, with the machine's own Postfix and
// Dovecot and pbemd as the user pbemd. Two players of the domain mail
// the server through Postfix's port 25 and start a game; their board mail
// is read from Dovecot over IMAP and its DKIM signature checked against
// the record "pbemd dkim" printed. Then the same by "pbemd deliver" from
// Postfix's pipe. It puts back the files it changed and removes the users
// it made.
func TestReadme(t *testing.T) {
	if os.Getenv("PBEMD_SYSTEM_RECIPES") != "1" {
		msg := "the README's recipes configure this machine's own Postfix, Dovecot, users and /etc: " +
			"run them on a disposable machine, as root, with PBEMD_SYSTEM_RECIPES=1 (.ci/run does, as root)"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if os.Geteuid() != 0 {
		t.Fatalf("PBEMD_SYSTEM_RECIPES=1 but the test runs as uid %d: the README's recipes are run as root", os.Geteuid())
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	recipes := readmeRecipes(t, repo)
	for _, name := range readmeOrder {
		if recipes[name] == "" {
			t.Fatalf("README.md has no recipe %q", name)
		}
	}
	for name := range recipes {
		if !slices.Contains(readmeOrder, name) {
			t.Fatalf("README.md has a recipe %q that TestReadme does not run: add it to readmeOrder, where an operator would run it", name)
		}
	}
	m := takeMachine(t)

	stubs := t.TempDir()
	os.WriteFile(filepath.Join(stubs, "journal"), nil, 0o600)
	os.WriteFile(filepath.Join(stubs, "systemctl"), fmt.Appendf(nil, systemctlStub, stubs), 0o755)
	os.WriteFile(filepath.Join(stubs, "journalctl"), fmt.Appendf(nil, journalctlStub, filepath.Join(stubs, "journal")), 0o755)
	systemctl := func(args ...string) {
		if out, err := exec.Command(filepath.Join(stubs, "systemctl"), args...).CombinedOutput(); err != nil {
			t.Logf("systemctl %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	t.Cleanup(func() {
		systemctl("stop", "pbemd")
		systemctl("stop", "postfix")
		systemctl("stop", "dovecot")
		m.putBack(t)
	})
	logs := func() string {
		var b strings.Builder
		for _, f := range []string{filepath.Join(stubs, "journal"), filepath.Join(stubs, "postfix.log"), filepath.Join(stubs, "dovecot.log"),
			"/var/log/postfix.log", "/var/log/dovecot.log"} {
			data, _ := os.ReadFile(f)
			fmt.Fprintf(&b, "\n--- %s:\n%s", f, data)
		}
		return b.String()
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(logs())
		}
	})
	run := func(name string) string {
		t.Helper()
		defer func(start time.Time) { t.Logf("recipe %s: %v", name, time.Since(start).Round(time.Millisecond)) }(time.Now())
		cmd := exec.Command("bash", "-e", "-o", "pipefail", "-c", recipes[name])
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "PATH="+stubs+":/usr/local/bin:"+os.Getenv("PATH"))
		cmd.WaitDelay = 10 * time.Second // for a daemon that kept its output
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("recipe %s: %v\n%s", name, err, out)
		}
		return string(out)
	}

	for _, name := range []string{"packages", "install", "dovecot", "mailbox", "postfix"} {
		run(name)
	}
	// Two players with mailboxes of the domain, added as the README says:
	// a line of Dovecot's users and of Postfix's vmailbox each.
	players := map[string]string{"alice": "pwAlice9", "bob": "pwBob9"}
	for name, pw := range players {
		appendFile(t, "/etc/dovecot/users", name+"@"+readmeDomain+":{PLAIN}"+pw+"\n")
		appendFile(t, "/etc/postfix/vmailbox", name+"@"+readmeDomain+" OK\n")
	}
	for _, c := range [][]string{{"postmap", "/etc/postfix/vmailbox"}, {filepath.Join(stubs, "systemctl"), "reload", "postfix"}} {
		if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(c, " "), err, out)
		}
	}
	run("config")
	zone := pbemtest.PrintedRecord(t, []byte(run("dkim")))
	if out := run("try"); !strings.Contains(out, "dry run") || !strings.Contains(out, "To: alice@"+readmeDomain) {
		t.Errorf("the try recipe printed no reply:\n%s", out)
	}
	if out := run("systemd"); !strings.Contains(out, `msg="pbemd serving"`) {
		t.Errorf("the systemd recipe:\n%s", out)
	} else if !strings.Contains(out, " imap=off ") {
		t.Errorf("the README's pbemd reads an IMAP mailbox; mail comes only over LMTP:\n%s", out)
	}
	checkUnprivileged(t, filepath.Join(stubs, "pbemd.pid"))

	mail := playerMail(t, players)
	// Nothing vouches for mail from this machine's port 25: each player
	// confirms his address with the code his welcome brings, and the
	// challenge invites both, who accept with their passwords.
	for _, name := range []string{"bob", "alice"} {
		mail.send(name, "signup "+name+" "+players[name])
		welcome := mail.wait(name, "the welcome", func(m imaptest.Message) bool { return bytes.Contains(m.Data, []byte("confirm "+name+" ")) })
		code := regexp.MustCompile(`(?m)^ +(confirm \w+ \w+)\r?$`).FindSubmatch(welcome.Data)
		if code == nil {
			t.Fatalf("no confirm line in the welcome:\n%s", welcome.Data)
		}
		mail.send(name, string(code[1]))
		mail.wait(name, "the confirmation", func(imaptest.Message) bool { return true })
	}
	mail.send("alice", "ultima challenge alice bob")
	invited := func(m imaptest.Message) bool { return bytes.Contains(m.Data, []byte("To accept, send:")) }
	mail.wait("alice", "the invitation", invited)
	mail.wait("bob", "the invitation", invited)
	mail.send("alice", "ultima join 101 alice "+players["alice"])
	mail.send("bob", "ultima join 101 bob "+players["bob"])
	board := mail.wait("alice", "the board mail", func(m imaptest.Message) bool {
		return strings.Contains(imaptest.Header(m.Data, "Subject"), "Ultima Board 101") && bytes.Contains(m.Data, []byte("The game begins."))
	})
	checkSigned(t, "the board mail of the daemon", board, zone)
	waitPostfixLog(t, "to=<"+readmeServer+">, relay=[^ ]*pbemd/lmtp\\].* status=sent")
	// Postfix refuses at once an address of the domain nobody has, and
	// submission without the login.
	if err := mail.sendTo("127.0.0.1:25", "alice", "nobody@"+readmeDomain, "help"); !isSMTPCode(err, 550) {
		t.Errorf("a mail to an unknown address of the domain: %v; want 550", err)
	}
	if err := mail.sendTo("127.0.0.1:587", "alice", "someone@elsewhere.example", "help"); !isSMTPCode(err, 554) {
		t.Errorf("a mail to submission without the login: %v; want 554", err)
	}

	if out := run("admin"); !regexp.MustCompile(`(?m)^users +\d+$`).MatchString(out) || !strings.Contains(out, "alice@"+readmeDomain) {
		t.Errorf("the admin recipe:\n%s", out)
	}
	// Restoring as root left a data file the daemon's user could not open
	// (issue 28): "pbemd restore" gives the file to the data directory's
	// owner, and the daemon, started again as its own user, reads it.
	run("backup")
	if out := run("admin"); !strings.Contains(out, "alice@"+readmeDomain) {
		t.Errorf("alice is gone after the restore:\n%s", out)
	}
	checkUnprivileged(t, filepath.Join(stubs, "pbemd.pid"))
	if out := run("upgrade"); !regexp.MustCompile(`pbemd \S+ \(.*\) go1`).MatchString(out) {
		t.Errorf("the upgrade recipe:\n%s", out)
	}
	checkUnprivileged(t, filepath.Join(stubs, "pbemd.pid"))

	// deliver from Postfix's pipe, the daemon stopped.
	run("deliver")
	if _, err := os.Stat(filepath.Join(stubs, "pbemd.pid")); err == nil {
		t.Fatal("the deliver recipe left the daemon running")
	}
	mail.send("alice", "ultima show 101")
	shown := mail.wait("alice", "the board shown by pbemd deliver", func(m imaptest.Message) bool {
		return strings.HasPrefix(imaptest.Header(m.Data, "Subject"), "Ultima Board 101")
	})
	checkSigned(t, "the board mail of pbemd deliver", shown, zone)
	waitPostfixLog(t, "to=<"+readmeServer+">, relay=pbemd-deliver, .* status=sent")
	checkOwner(t, "/var/lib/pbemd/pbem.db", "pbemd")

	// The unit passes systemd's own check, where systemd-analyze is.
	if sa, err := exec.LookPath("systemd-analyze"); err == nil {
		if out, err := exec.Command(sa, "verify", "/etc/systemd/system/pbemd.service").CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("systemd-analyze verify: %v\n%s", err, out)
		}
	}
}

// A machine is what TestReadme found before it ran: the files it will
// change, in a tar archive, and whether it found Postfix's answers.
type machine struct {
	archive  string
	debconf  string // debconf-set-selections lines of postfix's answers before
	newUsers []string
}

// takeMachine refuses a machine whose mail servers run or whose users
// exist already (a live one, or one a killed run left), and keeps what
// TestReadme will change.
func takeMachine(t *testing.T) *machine {
	t.Helper()
	if exec.Command("postfix", "status").Run() == nil {
		t.Fatal("the machine's Postfix runs: TestReadme reconfigures it; run it on a disposable machine")
	}
	if pid, err := os.ReadFile("/run/dovecot/master.pid"); err == nil {
		if n, _ := strconv.Atoi(strings.TrimSpace(string(pid))); n > 0 && syscall.Kill(n, 0) == nil {
			t.Fatal("the machine's Dovecot runs: TestReadme reconfigures it; run it on a disposable machine")
		}
	}
	m := &machine{archive: filepath.Join(t.TempDir(), "machine.tar"), newUsers: []string{"pbemd", "vmail"}}
	for _, u := range m.newUsers {
		if _, err := user.Lookup(u); err == nil {
			t.Fatalf("the user %s exists: the README makes it (after a killed run: userdel %s)", u, u)
		}
	}
	var found []string
	for _, p := range readmeTouches {
		if _, err := os.Lstat(p); err == nil {
			found = append(found, strings.TrimPrefix(p, "/"))
		}
	}
	if out, err := exec.Command("tar", append([]string{"-C", "/", "-cpf", m.archive}, found...)...).CombinedOutput(); err != nil {
		t.Fatalf("keeping the machine's files: %v\n%s", err, out)
	}
	out, _ := exec.Command("debconf-show", "postfix").Output()
	for _, q := range []string{"main_mailer_type", "mailname"} {
		if a := regexp.MustCompile(`(?m)^[* ] postfix/` + q + `: (.*)$`).FindSubmatch(out); a != nil {
			kind := "string"
			if q == "main_mailer_type" {
				kind = "select"
			}
			m.debconf += fmt.Sprintf("postfix postfix/%s %s %s\n", q, kind, a[1])
		}
	}
	return m
}

// putBack removes what the recipes made and puts back what was there.
func (m *machine) putBack(t *testing.T) {
	for _, u := range m.newUsers {
		if out, err := exec.Command("userdel", u).CombinedOutput(); err != nil {
			t.Logf("userdel %s: %v\n%s", u, err, out)
		}
	}
	for _, p := range readmeTouches {
		os.RemoveAll(p)
	}
	if out, err := exec.Command("tar", "-C", "/", "-xpf", m.archive).CombinedOutput(); err != nil {
		t.Errorf("putting back the machine's files: %v\n%s", err, out)
	}
	if m.debconf != "" {
		cmd := exec.Command("debconf-set-selections")
		cmd.Stdin = strings.NewReader(m.debconf)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("debconf-set-selections: %v\n%s", err, out)
		}
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// checkUnprivileged checks that the daemon of the pid file runs as the
// user pbemd, and that its data is that user's.
func checkUnprivileged(t *testing.T, pidFile string) {
	t.Helper()
	pid, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("no daemon: %v", err)
	}
	status, err := os.ReadFile("/proc/" + strings.TrimSpace(string(pid)) + "/status")
	if err != nil {
		t.Fatalf("the daemon: %v", err)
	}
	u, err := user.Lookup("pbemd")
	if err != nil {
		t.Fatal(err)
	}
	if uids := regexp.MustCompile(`(?m)^Uid:\s+(.*)$`).FindSubmatch(status); uids == nil || strings.Join(strings.Fields(string(uids[1])), " ") != strings.Repeat(u.Uid+" ", 3)+u.Uid {
		t.Errorf("the daemon runs as %q; want every uid %s (pbemd)", uids, u.Uid)
	}
	checkOwner(t, "/var/lib/pbemd/pbem.db", "pbemd")
}

func checkOwner(t *testing.T, path, owner string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	u, err := user.Lookup(owner)
	if err != nil {
		t.Fatal(err)
	}
	if uid := fi.Sys().(*syscall.Stat_t).Uid; strconv.Itoa(int(uid)) != u.Uid {
		t.Errorf("%s belongs to uid %d; want %s (%s)", path, uid, u.Uid, owner)
	}
}

// checkSigned checks that a mail carries a DKIM signature of the README's
// domain that verifies against the published record.
func checkSigned(t *testing.T, what string, msg imaptest.Message, zone pbemtest.Zone) {
	t.Helper()
	v := &mailauth.Verifier{Resolver: zone}
	if r := v.Check(msg.Data); !r.Authenticated || r.How != "dkim "+readmeDomain {
		t.Errorf("%s: %+v; want a DKIM signature of %s that verifies\n%s", what, r, readmeDomain, msg.Data)
	}
}

// players mail the server through port 25 and read their mailboxes in
// Dovecot, as the README sets them up.
type players struct {
	t        *testing.T
	password map[string]string
	read     map[string]imap.UID // the last mail of each that wait returned
	n        int
}

func playerMail(t *testing.T, password map[string]string) *players {
	return &players{t: t, password: password, read: map[string]imap.UID{}}
}

func (p *players) send(name, subject string) {
	p.t.Helper()
	if err := p.sendTo("127.0.0.1:25", name, readmeServer, subject); err != nil {
		p.t.Fatalf("Postfix took no mail from %s: %v", name, err)
	}
}

// sendTo mails a command from the player to an address through the
// SMTP server at addr, without a login.
func (p *players) sendTo(addr, name, to, subject string) error {
	p.n++
	from := name + "@" + readmeDomain
	data := mailTo(from, to, subject, fmt.Sprintf("readme%d.%d@%s", p.n, time.Now().UnixNano(), readmeDomain))
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.SendMail(from, []string{to}, bytes.NewReader(data)); err != nil {
		return err
	}
	return c.Quit()
}

func isSMTPCode(err error, code int) bool {
	var se *smtp.SMTPError
	return errors.As(err, &se) && se.Code == code
}

// waitPostfixLog waits for a line of Postfix's log that matches pattern:
// Postfix logs a delivery once it is done, which may be after its
// replies arrived.
func waitPostfixLog(t *testing.T, pattern string) {
	t.Helper()
	re := regexp.MustCompile(pattern)
	waitUntil(t, "a line of Postfix's log matching "+pattern, 30*time.Second, func() bool {
		time.Sleep(100 * time.Millisecond)
		data, err := os.ReadFile("/var/log/postfix.log")
		return err == nil && re.Match(data)
	})
}

// wait returns the first mail in name's inbox, after the last it
// returned, that matches.
func (p *players) wait(name, what string, match func(imaptest.Message) bool) imaptest.Message {
	p.t.Helper()
	var found imaptest.Message
	waitUntil(p.t, what+" to "+name, 30*time.Second, func() bool {
		time.Sleep(200 * time.Millisecond) // a login each time: go easy on Dovecot and its log
		msgs, err := imaptest.Read("127.0.0.1:143", name+"@"+readmeDomain, p.password[name], "INBOX")
		if err != nil {
			return false
		}
		for _, m := range msgs {
			if m.UID > p.read[name] && match(m) {
				found = m
				p.read[name] = m.UID
				return true
			}
		}
		return false
	})
	return found
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
