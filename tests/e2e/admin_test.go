package e2e

import (
	"bytes"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// admin runs pbemd admin beside the running daemon of w and returns its
// exit status and output.
func (w *dovecotWorld) admin(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(pbemdBinary, append([]string{"admin", "-config", w.config}, args...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String()
}

// mustAdmin runs an admin action that must succeed and say each of want.
func (w *dovecotWorld) mustAdmin(t *testing.T, args []string, want ...string) string {
	t.Helper()
	code, out := w.admin(t, args...)
	if code != 0 {
		t.Fatalf("admin %q: exit %d\n%s", args, code, out)
	}
	for _, s := range want {
		if !strings.Contains(out, s) {
			t.Errorf("admin %q does not say %q:\n%s", args, s, out)
		}
	}
	return out
}

// Every admin action against a running daemon, through its control
// socket, with its effect on the mail and the store, and its log line.
func TestAdminBesideTheDaemon(t *testing.T) {
	w := newDovecotWorld(t, "")
	p := w.start(t)
	defer func() {
		if t.Failed() {
			t.Logf("pbemd said:\n%s", p.Output())
		}
	}()
	n := 0
	send := func(from, subject string) {
		t.Helper()
		n++
		w.send(t, player(from), subject, fmt.Sprintf("admin%d.%d@e2e.test", n, time.Now().UnixNano()))
		waitUntil(t, "the mail handled", 10*time.Second, func() bool { return counters(t, w.metrics)["mails_in"] == n })
	}
	g := game(t).Name()
	send("alice", "signup alice pwAlice1")
	send("bob", "signup bob pwBob1")
	send("alice", g+" challenge alice bob")
	waitUntil(t, "the replies", 10*time.Second, func() bool { return len(w.sink.Messages()) == 4 })

	w.mustAdmin(t, []string{"users"}, "alice", "alice@localhost", "bob@localhost")
	w.mustAdmin(t, []string{"user", "alice"}, "address    alice@localhost", fmt.Sprintf("game       %s 101 running (alice vs bob)", g), "last mail  2")
	if code, out := w.admin(t, "user", "nobody"); code != 1 || !strings.Contains(out, `no user "nobody"`) {
		t.Errorf("admin user nobody: exit %d\n%s", code, out)
	}
	if code, out := w.admin(t, "frobnicate"); code != 2 || !strings.Contains(out, `no action "frobnicate"`) {
		t.Errorf("admin frobnicate: exit %d\n%s", code, out)
	}

	// A reply refused for good is listed as failed, then retried.
	w.sink.Refuse(550, 1)
	send("alice", "help")
	waitUntil(t, "the failed reply", 10*time.Second, func() bool { return counters(t, w.metrics)["failed_length"] == 1 })
	w.mustAdmin(t, []string{"stats"}, "running    "+g+" 1", "outbox     0", "failed     1")
	list := w.mustAdmin(t, []string{"outbox", "list"}, "failed", "alice@localhost", "550")
	id := regexp.MustCompile(`(?m)^(\d+)\s+failed`).FindStringSubmatch(list)
	if id == nil {
		t.Fatalf("no failed mail in:\n%s", list)
	}
	before := len(w.sink.Messages())
	w.mustAdmin(t, []string{"outbox", "retry", id[1]}, "will be sent now")
	waitUntil(t, "the retried reply", 10*time.Second, func() bool { return len(w.sink.Messages()) == before+1 })
	// The sender takes a mail out of the outbox just after the sink has
	// accepted it: wait for that, then nothing may be left anywhere.
	waitUntil(t, "the outbox emptied", 10*time.Second, func() bool { return counters(t, w.metrics)["outbox_length"] == 0 })
	if c := counters(t, w.metrics); c["failed_length"] != 0 || c["outbox_length"] != 0 {
		t.Errorf("after retry: %v", c)
	}
	// Another, dropped: never sent.
	w.sink.Refuse(550, 1)
	send("alice", "help")
	waitUntil(t, "the failed reply", 10*time.Second, func() bool { return counters(t, w.metrics)["failed_length"] == 1 })
	list = w.mustAdmin(t, []string{"outbox"})
	id = regexp.MustCompile(`(?m)^(\d+)\s+failed`).FindStringSubmatch(list)
	if id == nil {
		t.Fatalf("no failed mail in:\n%s", list)
	}
	before = len(w.sink.Messages())
	w.mustAdmin(t, []string{"outbox", "drop", id[1]}, "dropped unsent")
	if c := counters(t, w.metrics); c["failed_length"] != 0 {
		t.Errorf("after drop: %v", c)
	}
	if code, out := w.admin(t, "outbox", "drop", id[1]); code != 1 || !strings.Contains(out, "no mail "+id[1]) {
		t.Errorf("dropping it again: exit %d\n%s", code, out)
	}

	// A new password for bob, mailed to him alone; the old one is refused.
	w.mustAdmin(t, []string{"password", "bob"}, "a new password for bob is mailed")
	msgs := w.sink.Wait(before+1, 10*time.Second)
	r := parseReply(t, msgs[len(msgs)-1].Data)
	m := regexp.MustCompile(`\n    (\S+)\n`).FindStringSubmatch(r.Body)
	if r.To != player("bob") || m == nil {
		t.Fatalf("new password mail: %+v", r)
	}
	if strings.Contains(p.Output(), m[1]) {
		t.Errorf("the daemon logged the new password")
	}
	before = len(w.sink.Messages())
	send("bob", "change password bob "+m[1]+" pwBob2")
	w.sink.Wait(before+1, 10*time.Second)

	// Banned: alice's mail is dropped unanswered; unbanned, answered.
	w.mustAdmin(t, []string{"ban", "alice@localhost"}, "alice@localhost is banned")
	w.mustAdmin(t, []string{"bans"}, "alice@localhost")
	w.mustAdmin(t, []string{"user", "alice"}, "alice@localhost (banned)")
	before = len(w.sink.Messages())
	send("alice", "help")
	time.Sleep(300 * time.Millisecond)
	if len(w.sink.Messages()) != before {
		t.Errorf("a banned address got a reply")
	}
	w.mustAdmin(t, []string{"unban", "alice@localhost"}, "no longer banned")
	send("alice", "help")
	w.sink.Wait(before+1, 10*time.Second)

	// The game ended by the administrator: both players told.
	before = len(w.sink.Messages())
	w.mustAdmin(t, []string{"end", g, "101", "win", "bob"}, "board 101 ended (win); 2 mails queued")
	msgs = w.sink.Wait(before+2, 10*time.Second)
	for _, msg := range msgs[before:] {
		if r := parseReply(t, msg.Data); !strings.Contains(r.Body, "The administrator ended this game: bob wins.") {
			t.Errorf("end mail to %s:\n%s", r.To, r.Body)
		}
	}
	w.mustAdmin(t, []string{"user", "bob"}, fmt.Sprintf("game       %s 101 over", g))
	if code, out := w.admin(t, "end", g, "101", "draw"); code != 1 || !strings.Contains(out, "over already") {
		t.Errorf("ending it again: exit %d\n%s", code, out)
	}

	p.stop()
	out := p.Output()
	for _, action := range []string{"outbox retry", "outbox drop", "password bob", "ban alice@localhost", "unban alice@localhost", "end " + g + " 101 win bob"} {
		if !regexp.MustCompile(`msg="admin action" part=admin action="` + regexp.QuoteMeta(action)).MatchString(out) {
			t.Errorf("no log line of the admin action %q", action)
		}
	}
	if !strings.Contains(out, `result=ignored why="the sender's address is banned"`) {
		t.Errorf("the banned mail is not logged as ignored")
	}
}
