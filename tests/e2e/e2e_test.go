package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/devmail"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/tests/imaptest"
)

// game returns Ultima, or the first registered game if Ultima is missing.
func game(t testing.TB) rules.Game {
	if g, ok := catalog.Lookup("ultima"); ok {
		return g
	}
	all := catalog.All()
	if len(all) == 0 {
		t.Fatal("no game registered")
	}
	return all[0]
}

// player is the address of a user id.
func player(id string) string { return id + "@localhost" }

// step mails one command and checks the replies it causes: one per
// address in to, with the given subject, answering the command's mail,
// with body containing each of the texts in body.
type step struct {
	from, subject string
	to            []string
	replySubject  string
	body          []string
}

// play runs the steps in order, each after the replies of the one before.
func play(t *testing.T, w world, steps []step) {
	t.Helper()
	seen := 0
	for i, s := range steps {
		id := fmt.Sprintf("step%d.%d@e2e.test", i, time.Now().UnixNano())
		w.send(t, player(s.from), s.subject, id)
		all := waitReplies(t, w, seen+len(s.to))
		var got []reply
		for _, r := range all {
			if r.InReplyTo == id {
				got = append(got, r)
			}
		}
		if len(all) != seen+len(s.to) || len(got) != len(s.to) {
			t.Fatalf("%q: %d new replies, %d answering it; want %d:\n%+v", s.subject, len(all)-seen, len(got), len(s.to), all[seen:])
		}
		seen = len(all)
		var tos []string
		for _, r := range got {
			tos = append(tos, r.To)
			if r.Subject != s.replySubject {
				t.Errorf("%q: reply subject %q; want %q", s.subject, r.Subject, s.replySubject)
			}
			for _, b := range s.body {
				if !strings.Contains(r.Body, b) {
					t.Errorf("%q: reply to %s lacks %q:\n%s", s.subject, r.To, b, r.Body)
				}
			}
		}
		var want []string
		for _, id := range s.to {
			want = append(want, player(id))
		}
		slices.Sort(tos)
		slices.Sort(want)
		if !slices.Equal(tos, want) {
			t.Errorf("%q: replies went to %q; want %q", s.subject, tos, want)
		}
	}
}

// shortGame is a game of a few moves by mail, with the replies the
// players must get, computed with the game's own rules.
func shortGame(t *testing.T, moves int) []step {
	g := game(t)
	name, title := g.Name(), g.Title()
	steps := []step{
		{"alice", "signup alice secret", []string{"alice"}, "pbemd: welcome alice", []string{"alice"}},
		{"bob", "signup bob secret", []string{"bob"}, "pbemd: welcome bob", []string{"bob"}},
		{"alice", name + " challenge alice bob", []string{"alice", "bob"}, "New " + title + " Board 101 alice", nil},
	}
	pos, err := g.Start(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ids := [2]string{"alice", "bob"}
	for n := 1; n <= moves && !pos.Result().Over; n++ {
		id := ids[pos.ToMove()]
		legal := pos.Legal()
		move := legal[len(legal)/2]
		if _, err := pos.Play(move); err != nil {
			t.Fatal(err)
		}
		if pos.Result().Over {
			break
		}
		steps = append(steps, step{id, fmt.Sprintf("%s move 101 %s secret %s", name, id, move), []string{"alice", "bob"},
			fmt.Sprintf("%s Board 101 %s", title, ids[pos.ToMove()]), []string{pos.Board()}})
	}
	// A wrong password is answered to the sender only, with an error.
	steps = append(steps, step{"bob", name + " move 101 bob wrong " + pos.Legal()[0], []string{"bob"},
		title + " Board 101 Error", []string{"Original message follows:"}})
	return steps
}

// TestGameDovecot plays a short game through a real Dovecot and checks
// every reply, the mailbox afterwards and the counters.
func TestGameDovecot(t *testing.T) {
	w := newDovecotWorld(t, "")
	p := w.start(t)
	steps := shortGame(t, 6)
	play(t, w, steps)

	if inbox := w.mailbox(t, "INBOX"); len(inbox) != 0 {
		t.Errorf("INBOX still holds %d mails", len(inbox))
	}
	done := w.mailbox(t, "pbem-done")
	if len(done) != len(steps) {
		t.Errorf("pbem-done holds %d mails; want %d", len(done), len(steps))
	}
	for _, m := range done {
		if !m.Seen() {
			t.Errorf("mail %q moved without \\Seen", imaptest.Header(m.Data, "Subject"))
		}
	}
	replies := len(w.replies(t))
	played := 0 // the game moves among the mails: all but the wrong password's
	for _, st := range steps {
		if strings.Contains(st.subject, " move 101 ") && !strings.Contains(st.subject, " wrong ") {
			played++
		}
	}
	waitUntil(t, "the counters", 5*time.Second, func() bool {
		c := counters(t, w.metrics)
		return c["mails_in"] == len(steps) && c["moves"] == played && c["replies_sent"] == replies && c["outbox_length"] == 0
	})
	p.stop()
	if strings.Contains(p.Output(), serverPass) {
		t.Errorf("the log shows the IMAP password:\n%s", p.Output())
	}
}

// TestGameEmbedded plays the same game with pbemd serve and no config:
// players send with SMTP and read their INBOX with a plain IMAP client.
func TestGameEmbedded(t *testing.T) {
	data := filepath.Join(t.TempDir(), "pbem-data")
	p := startPbemd(t, nil, "serve", "-data", data, "-imap", "127.0.0.1:0", "-smtp", "127.0.0.1:0")
	imapAddr := p.waitLine(`^  IMAP  (\S+)`)[1]
	smtpAddr := p.waitLine(`^  SMTP  (\S+)`)[1]
	out := p.Output()
	for _, want := range []string{"password: " + devmail.DefaultPassword, "Subject: signup alice secret", "curl -s smtp://" + smtpAddr, data} {
		if !strings.Contains(out, want) {
			t.Errorf("the welcome text lacks %q:\n%s", want, out)
		}
	}
	w := &embeddedWorld{imapAddr: imapAddr, smtpAddr: smtpAddr}
	play(t, w, shortGame(t, 6))
	p.stop()
	if _, err := os.Stat(store.PathIn(data)); err != nil {
		t.Errorf("no game data in %s: %v", data, err)
	}
}

// TestIdleWakes: with polling set to an hour only IDLE can wake the
// daemon, so each reply arriving shows that IDLE woke it. The time it
// takes is measured by BenchmarkLatency, not asserted here.
func TestIdleWakes(t *testing.T) {
	w := newDovecotWorld(t, "")
	w.setIMAP(t, "poll_interval: 1h")
	p := w.start(t)
	var worst time.Duration
	for i := 1; i <= 3; i++ {
		time.Sleep(300 * time.Millisecond) // let it settle into IDLE
		start := time.Now()
		w.send(t, player(fmt.Sprintf("u%d", i)), fmt.Sprintf("signup u%d secret", i), fmt.Sprintf("idle%d@e2e.test", i))
		waitReplies(t, w, i)
		worst = max(worst, time.Since(start))
	}
	t.Logf("slowest of 3 from delivery to reply: %v", worst)
	p.stop()
}

// TestIMAPServerRestart kills Dovecot while the daemon works through a
// backlog, restarts it, and checks that every mail was answered once.
func TestIMAPServerRestart(t *testing.T) {
	w := newDovecotWorld(t, "")
	const n = 40
	l, err := w.dc.DialLMTP()
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("u%d", i)
		l.Deliver(player(id), server, mailText(player(id), "signup "+id+" secret", id+"@e2e.test"))
	}
	l.Close()
	p := w.start(t)
	defer func() {
		if t.Failed() {
			t.Logf("pbemd said:\n%s", p.Output())
		}
	}()
	waitReplies(t, w, 5)
	w.dc.Kill()
	time.Sleep(200 * time.Millisecond)
	w.dc.Restart()
	// And once more while idle, after the backlog, once the daemon is back.
	waitReplies(t, w, n)
	waitUntil(t, "the first reconnection", 20*time.Second, func() bool {
		return counters(t, w.metrics)["reconnects"] >= 1
	})
	w.dc.Kill()
	w.dc.Restart()
	w.send(t, player("late"), "signup late secret", "late@e2e.test")
	waitReplies(t, w, n+1)
	time.Sleep(200 * time.Millisecond) // room for a duplicate to show up
	rs := w.replies(t)
	count := map[string]int{}
	for _, r := range rs {
		count[r.To]++
	}
	for i := 1; i <= n; i++ {
		if c := count[player(fmt.Sprintf("u%d", i))]; c != 1 {
			t.Errorf("u%d got %d welcome mails; want 1", i, c)
		}
	}
	if count[player("late")] != 1 {
		t.Errorf("the mail after the second restart got %d replies; want 1", count[player("late")])
	}
	if c := counters(t, w.metrics); c["reconnects"] < 2 {
		t.Errorf("counters %v: want at least 2 reconnects", c)
	}
	// The replies go out as soon as the mails are committed; moving them
	// out of INBOX follows, on a Dovecot that has just restarted.
	deadline := time.Now().Add(10 * time.Second)
	for len(w.mailbox(t, "INBOX")) != 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if inbox := w.mailbox(t, "INBOX"); len(inbox) != 0 {
		t.Errorf("INBOX still holds %d mails", len(inbox))
	}
	p.stop()
}

// TestSMTPRefusing: the SMTP server answers 451 for a while; every reply
// arrives exactly once after it recovers.
func TestSMTPRefusing(t *testing.T) {
	w := newDovecotWorld(t, "")
	w.sink.Refuse(451, -1)
	p := w.start(t)
	const n = 10
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("u%d", i)
		w.send(t, player(id), "signup "+id+" secret", id+"@e2e.test")
	}
	waitUntil(t, "refusals", 10*time.Second, func() bool { return w.sink.Refused() >= 3 })
	waitUntil(t, "all mail handled", 10*time.Second, func() bool { return counters(t, w.metrics)["mails_in"] == n })
	if got := len(w.replies(t)); got != 0 {
		t.Fatalf("%d replies accepted while refusing", got)
	}
	w.sink.Accept()
	waitReplies(t, w, n)
	time.Sleep(300 * time.Millisecond)
	count := map[string]int{}
	for _, r := range w.replies(t) {
		count[r.To]++
	}
	for i := 1; i <= n; i++ {
		if c := count[player(fmt.Sprintf("u%d", i))]; c != 1 {
			t.Errorf("u%d got %d replies; want 1", i, c)
		}
	}
	c := counters(t, w.metrics)
	if c["errors"] < 3 || c["outbox_length"] != 0 || c["replies_sent"] != n {
		t.Errorf("counters %v: want errors >= 3, outbox_length 0, replies_sent %d", c, n)
	}
	p.stop()
}

// TestSecondDaemonRefused: a second pbemd on the same data stops at once
// with a clear error.
func TestSecondDaemonRefused(t *testing.T) {
	data := filepath.Join(t.TempDir(), "pbem-data")
	first := startPbemd(t, nil, "serve", "-data", data, "-imap", "127.0.0.1:0", "-smtp", "127.0.0.1:0")
	first.waitLine(`IMAP connected`)
	second := startPbemd(t, nil, "serve", "-data", data, "-imap", "127.0.0.1:0", "-smtp", "127.0.0.1:0")
	if err := second.wait(); err == nil {
		t.Fatal("a second pbemd on the same data started")
	}
	if out := second.Output(); !strings.Contains(out, "in use by another pbemd process") || !strings.Contains(out, "only one pbemd may use the data directory") {
		t.Errorf("second pbemd says:\n%s", out)
	}
	first.stop()
}

// TestConfigRefused: settings that are unsafe or wrong stop pbemd serve
// before it connects anywhere, with a message saying what to change.
func TestConfigRefused(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"address: pbem@example.org\nimap:\n  host: imap.example.org\n  security: plain\n  username: u\n  password: p\nsmtp:\n  host: 127.0.0.1\n",
			"imap.security is plain, which would send mail and password unencrypted to imap.example.org; use tls or starttls"},
		{"address: pbem@example.org\nimap:\n  host: imap.example.org\n  username: u\n  password_env: PBEMD_TEST_UNSET\nsmtp:\n  host: smtp.example.org\n",
			"PBEMD_TEST_UNSET, but that environment variable is not set"},
		{"adress: pbem@example.org\n", "field adress not found"},
	}
	for _, tt := range tests {
		cfg := filepath.Join(t.TempDir(), "pbemd.yaml")
		os.WriteFile(cfg, []byte(tt.yaml), 0o600)
		p := startPbemd(t, nil, "serve", "-config", cfg)
		if err := p.wait(); err == nil {
			t.Errorf("pbemd started with %q", tt.yaml)
		}
		if !strings.Contains(p.Output(), tt.want) {
			t.Errorf("pbemd says %q; want it to say %q", p.Output(), tt.want)
		}
	}
}
