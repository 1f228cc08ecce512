package main

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// pbemd admin without a daemon works on the data itself: the quarantine
// of pbemd deliver listed, a mail released (failing again, it goes back),
// and dropped.
func TestAdminQuarantineOnTheData(t *testing.T) {
	t.Parallel()
	d := &deliverer{t: t, data: t.TempDir()}
	if code, _, stderr := d.run([]byte("no header here, just words\n"), nil); code != 0 {
		t.Fatalf("deliver: exit %d\n%s", code, stderr)
	}
	code, stdout, stderr := pbemd(t, "", "admin", "-data", d.data, "quarantine")
	if code != 0 || !regexpMatch(`(?m)^1\s+\S+ \S+\s+\S*\s+not handled\s+27\s+`, stdout) {
		t.Fatalf("quarantine list: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = pbemd(t, "", "admin", "-data", d.data, "quarantine", "release", "1")
	if code != 1 || !strings.Contains(stderr, "back in quarantine as mail 2") {
		t.Fatalf("release of junk: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, stdout, _ := pbemd(t, "", "admin", "-data", d.data, "quarantine", "drop", "2"); code != 0 || !strings.Contains(stdout, "mail 2 dropped unhandled") {
		t.Fatalf("drop: exit %d\n%s", code, stdout)
	}
	if code, stdout, _ := pbemd(t, "", "admin", "-data", d.data, "quarantine", "list"); code != 0 || strings.Count(stdout, "\n") != 1 {
		t.Fatalf("quarantine after drop: exit %d\n%s", code, stdout)
	}
	if code, _, stderr := pbemd(t, "", "admin", "-data", d.data, "quarantine", "drop", "2"); code != 1 || !strings.Contains(stderr, "no mail 2 in quarantine") {
		t.Fatalf("drop again: exit %d\n%s", code, stderr)
	}
}

// A mail too large to read is listed with the mails not handled, by its
// whole size; releasing it is refused (issue 28).
func TestAdminQuarantineListsTooLarge(t *testing.T) {
	d := &deliverer{t: t, data: t.TempDir()}
	big := append(rawMail("alice@example.org", "help", "big", ""), bytes.Repeat([]byte("x\n"), 6<<20)...)
	if code, _, stderr := d.run(big, nil); code != 0 {
		t.Fatalf("deliver: exit %d\n%s", code, stderr)
	}
	code, stdout, stderr := pbemd(t, "", "admin", "-data", d.data, "quarantine", "list")
	if code != 0 || !regexpMatch(fmt.Sprintf(`(?m)^1\s+\S+ \S+\s+alice@example.org\s+too large\s+%d\s+the mail has`, len(big)), stdout) {
		t.Fatalf("quarantine list: exit %d\n%s%s", code, stdout, stderr)
	}
	code, _, stderr = pbemd(t, "", "admin", "-data", d.data, "quarantine", "release", "1")
	if code != 1 || !strings.Contains(stderr, "only its header was kept") {
		t.Errorf("release of a mail too large: exit %d\n%s", code, stderr)
	}
}

func regexpMatch(re, s string) bool { return regexp.MustCompile(re).MatchString(s) }
