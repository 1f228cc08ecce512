package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/store"
)

// run pipes raw into "pbemd deliver -print" with the extra flags, through
// the wrapper command (e.g. prlimit) when given, and returns the exit
// status, the replies and what it said on stderr.
func (d *deliverer) run(raw []byte, wrapper []string, flags ...string) (int, []mailOut, string) {
	d.t.Helper()
	args := append([]string{pbemdBinary, "deliver", "-config", d.configFile(), "-data", d.data, "-print"}, flags...)
	code, stdout, stderr := runPbemd(d.t, raw, append(wrapper, args...)...)
	return code, readMbox(d.t, stdout), string(stderr)
}

// rawMail is a player's mail as the MTA the tests trust hands it on,
// having found the From's domain vouching for it.
func rawMail(from, subject, id, body string) []byte {
	return pbemtest.Vouch(from, []byte(fmt.Sprintf("From: %s\nTo: pbem@localhost\nSubject: %s\nMessage-ID: <%s@client.example>\n\n%s\n", from, subject, id, body)))
}

// The data held by another process: deliver waits -lock-wait, then exits
// 75 (EX_TEMPFAIL) so that the mail system offers the mail again; once the
// lock is free the same mail is handled.
func TestDeliverLockBusyIsTempFail(t *testing.T) {
	t.Parallel()
	d := &deliverer{t: t, data: t.TempDir()}
	db, err := store.Open(store.PathIn(d.data), nil)
	if err != nil {
		t.Fatal(err)
	}
	mail := rawMail("alice@example.org", "signup alice secret", "lock", "")
	code, out, stderr := d.run(mail, nil, "-lock-wait", "300ms")
	if code != 75 || len(out) != 0 || !strings.Contains(stderr, "in use by another pbemd process") {
		t.Fatalf("data held: exit %d, %d replies, %q; want 75 and no reply", code, len(out), stderr)
	}
	db.Close()
	code, out, stderr = d.run(mail, nil)
	if code != 0 || len(out) != 1 || out[0].Subject != "pbemd: welcome alice" {
		t.Fatalf("data free: exit %d, %+v, %q; want the welcome", code, out, stderr)
	}
}

// A deliver that finds the data held waits for it, up to -lock-wait.
func TestDeliverWaitsForLock(t *testing.T) {
	t.Parallel()
	d := &deliverer{t: t, data: t.TempDir()}
	db, err := store.Open(store.PathIn(d.data), nil)
	if err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(time.Second, func() { db.Close() })
	code, out, stderr := d.run(rawMail("alice@example.org", "signup alice secret", "wait", ""), nil, "-lock-wait", "30s")
	if code != 0 || len(out) != 1 {
		t.Fatalf("exit %d, %d replies, %q; want the mail handled once the lock was free", code, len(out), stderr)
	}
}

// A full disk: the store cannot grow (the process may write no file past
// its present size, RLIMIT_FSIZE), so the mail is not handled: exit 75,
// nothing half done. With space back, the same mail is handled.
func TestDeliverDiskFullIsTempFail(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("prlimit is not installed")
	}
	d := &deliverer{t: t, data: t.TempDir()}
	for _, id := range []string{"alice", "bob"} {
		if code, _, stderr := d.run(rawMail(id+"@example.org", "signup "+id+" secret", id, ""), nil); code != 0 {
			t.Fatalf("signup %s: exit %d: %s", id, code, stderr)
		}
	}
	fi, err := os.Stat(store.PathIn(d.data))
	if err != nil {
		t.Fatal(err)
	}
	// A challenge with a long comment: the game record and both board mails
	// hold its 200 KB, which the store cannot take without growing.
	big := rawMail("alice@example.org", "ultima challenge alice bob", "big", strings.Repeat("a long letter to bob\n", 10000))
	full := []string{"prlimit", fmt.Sprintf("--fsize=%d", fi.Size())}
	code, out, stderr := d.run(big, full)
	if code != 75 || len(out) != 0 {
		t.Fatalf("disk full: exit %d, %d replies, stderr %q; want 75 (EX_TEMPFAIL) and no reply", code, len(out), stderr)
	}
	t.Logf("disk full: %s", stderr)
	if after, err := os.Stat(store.PathIn(d.data)); err != nil || after.Size() > fi.Size() {
		t.Fatalf("the store grew past the limit: %v", err)
	}
	code, out, stderr = d.run(big, nil)
	relayed := false
	for _, r := range out {
		relayed = relayed || r.To == "bob@example.org" && strings.Contains(r.Body, "a long letter to bob")
	}
	if code != 0 || !relayed {
		t.Fatalf("space back: exit %d, %d replies, %q; want the challenge's comment mailed to bob", code, len(out), stderr)
	}
}

// 50 delivers at once, each with a password to check: they queue for the
// lock, and every one is handled and answered.
func TestDeliverParallel(t *testing.T) {
	t.Parallel()
	d := &deliverer{t: t, data: t.TempDir()}
	users := []string{"alice", "bob"}
	for _, id := range users {
		if code, _, stderr := d.run(rawMail(id+"@example.org", "signup "+id+" secret", id, ""), nil); code != 0 {
			t.Fatalf("signup %s: exit %d: %s", id, code, stderr)
		}
	}
	const n = 50
	var wg sync.WaitGroup
	codes := make([]int, n)
	outs := make([][]mailOut, n)
	errs := make([]string, n)
	for i := range n {
		wg.Go(func() {
			id := users[i%2]
			// Each its own text: the same refused mail again ("not on
			// vacation") would not be answered within a day.
			mail := rawMail(id+"@example.org", fmt.Sprintf("vacation %s secret 0", id), fmt.Sprintf("p%d", i), fmt.Sprintf("mail %d", i))
			codes[i], outs[i], errs[i] = d.run(mail, nil)
		})
	}
	wg.Wait()
	for i := range n {
		id := users[i%2]
		if codes[i] != 0 || len(outs[i]) != 1 || outs[i][0].To != id+"@example.org" {
			t.Errorf("deliver %d: exit %d, replies %+v, stderr %q; want one reply to %s", i, codes[i], outs[i], errs[i], id)
		}
	}
}

// A mail larger than limits.largest_mail is not read past the limit: its
// sender gets one answer saying so, and deliver exits 0.
func TestDeliverTooLarge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfgFile := dir + "/pbemd.yaml"
	cfg := fmt.Sprintf("address: pbem@example.org\ndata: %s\nimap:\n  host: 127.0.0.1\n  security: plain\n  username: pbem\n  password: x\nsmtp:\n  host: 127.0.0.1\n  security: plain\nlimits:\n  largest_mail: 100000\n", dir+"/data")
	if err := os.WriteFile(cfgFile, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	d := &deliverer{t: t, data: dir + "/data"}
	huge := rawMail("alice@example.org", "ultima move 101 alice secret e2e4", "huge", strings.Repeat("x", 300000))
	for range 2 {
		code, out, stderr := d.run(huge, nil, "-config", cfgFile)
		if code != 0 || !strings.Contains(stderr, "more than the 100000") {
			t.Fatalf("exit %d, stderr %q; want 0 and a note of the size", code, stderr)
		}
		if len(out) > 0 && (out[0].Subject != "pbemd: mail too large" || !strings.Contains(out[0].Body, "100000") || len(out) != 1) {
			t.Fatalf("replies %+v; want one saying the limit", out)
		}
		d.n += len(out)
	}
	if d.n != 1 {
		t.Errorf("%d answers to the same large mail sent twice; want 1", d.n)
	}
}

// Bytes that no parser can read as a mail are quarantined in the store,
// for the administrator, and deliver exits 0: offering them again would
// fail the same way.
func TestDeliverQuarantinesUnreadable(t *testing.T) {
	t.Parallel()
	d := &deliverer{t: t, data: t.TempDir()}
	junk := []byte("no header here, just words\n")
	code, out, stderr := d.run(junk, nil)
	if code != 0 || len(out) != 0 || !strings.Contains(stderr, "quarantined") {
		t.Fatalf("exit %d, replies %+v, stderr %q; want 0, no reply (no sender), a note of the quarantine", code, out, stderr)
	}
	db, err := store.Open(store.PathIn(d.data), &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	list, err := db.Quarantined()
	if err != nil || len(list) != 1 || string(list[0].Data) != string(junk) {
		t.Fatalf("quarantine: %+v, %v; want the junk kept once", list, err)
	}
}
