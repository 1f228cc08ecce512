package main

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// sweep runs "pbemd sweep -print -now" on a data directory and returns its
// exit status, the mails it printed and its raw output.
func sweep(t *testing.T, data string, now time.Time) (int, []mailOut, string) {
	t.Helper()
	code, stdout, stderr := runPbemd(t, nil, pbemdBinary, "sweep", "-data", data, "-print", "-now", now.UTC().Format(time.RFC3339))
	if code != 0 {
		t.Logf("stderr: %s", stderr)
	}
	return code, readMbox(t, stdout), string(stdout)
}

// TestSweepCommand starts a game through pbemd deliver and lets time pass
// with pbemd sweep -now: a reminder after 7 days, none repeated an hour
// later, the forfeit after 21 days (alice never moved, so it withdraws her,
// unrated).
func TestSweepCommand(t *testing.T) {
	t.Parallel()
	d := &deliverer{t: t, data: t.TempDir()}
	d.send("alice@example.org", "signup alice secret", "")
	d.send("bob@example.org", "signup bob secret", "")
	start := time.Now()
	if _, out := d.send("alice@example.org", "tanbo challenge alice bob -size=9", ""); len(out) != 2 {
		t.Fatalf("challenge: %+v", out)
	}
	if code, out, _ := sweep(t, d.data, start.Add(6*24*time.Hour)); code != 0 || len(out) != 0 {
		t.Fatalf("after 6 days: exit %d, %+v", code, out)
	}
	code, out, raw := sweep(t, d.data, start.Add(7*24*time.Hour+time.Minute))
	if code != 0 || len(out) != 1 || out[0].To != "alice@example.org" || out[0].Subject != "Nag: Tanbo Board 101 alice" {
		t.Fatalf("after 7 days: exit %d, %+v", code, out)
	}
	if !strings.Contains(raw, "\nAuto-Submitted: auto-generated\n") {
		t.Errorf("the reminder is not marked auto-generated:\n%s", raw)
	}
	if code, out, _ := sweep(t, d.data, start.Add(7*24*time.Hour+time.Hour)); code != 0 || len(out) != 0 {
		t.Fatalf("an hour later: exit %d, %+v", code, out)
	}
	code, out, _ = sweep(t, d.data, start.Add(21*24*time.Hour+time.Minute))
	if code != 0 || len(out) != 2 {
		t.Fatalf("after 21 days: exit %d, %+v", code, out)
	}
	for _, m := range out {
		if m.Subject != "Tanbo Board 101 withdrawn" || !strings.Contains(m.Body, "alice did not move for 21 days.") {
			t.Errorf("forfeit mail to %s: %q\n%s", m.To, m.Subject, m.Body)
		}
	}
	// A bad -now is refused with a hint.
	cmd := exec.Command(pbemdBinary, "sweep", "-data", d.data, "-now", "tomorrow")
	if msg, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(msg), "is not an RFC 3339 time") {
		t.Errorf("-now tomorrow: %v\n%s", err, msg)
	}
}
