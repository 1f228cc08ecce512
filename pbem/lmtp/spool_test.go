package lmtp

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/intake"
)

// spooledSegments lists the segment files in dir.
func spooledSegments(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), segmentExt) {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names
}

// spooledBytes is the size of the segment files in dir.
func spooledBytes(dir string) int64 {
	var n int64
	for _, name := range spooledSegments(dir) {
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// waitSpoolEmpty waits until the server's spool holds no mail: its
// segments are deleted, or the one written to is emptied.
func waitSpoolEmpty(t *testing.T, s *Server) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for spooledBytes(s.opts.Spool) > 0 || len(spooledSegments(s.opts.Spool)) > 1 {
		if time.Now().After(deadline) {
			t.Fatalf("the spool holds %v, %d bytes, once every mail was decided; want it empty", spooledSegments(s.opts.Spool), spooledBytes(s.opts.Spool))
		}
		time.Sleep(time.Millisecond)
	}
}

// mailNamed is a mail with the subject given.
func mailNamed(subj string) intake.Mail {
	return intake.Mail{Raw: []byte("From: a@example.org\r\nSubject: " + subj + "\r\n\r\nbody\r\n")}
}

// The mails a stopped server acknowledged and had not stored are stored by
// the next server on the same spool, and the spool is then emptied; a
// record cut short (the crash came while it was written, so it was never
// acknowledged) and what follows it are not taken.
func TestSpoolLeftByACrashIsHandled(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := writeSegment(t, dir, "0000000000000001"+segmentExt, mailNamed("one"), mailNamed("two"))
	torn := appendRecord(nil, mailNamed("torn"))
	if err := os.WriteFile(filepath.Join(dir, "0000000000000002"+segmentExt),
		append(appendRecord(nil, mailNamed("three")), torn[:len(torn)-3]...), 0o600); err != nil {
		t.Fatal(err)
	}
	damaged := appendRecord(nil, mailNamed("damaged"))
	damaged[recordHeader+3] ^= 1
	if err := os.WriteFile(filepath.Join(dir, "0000000000000003"+segmentExt),
		append(append(appendRecord(nil, mailNamed("four")), damaged...), data...), 0o600); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a segment"), 0o600)

	r := &recorder{}
	s := start(t, r, Options{Spool: dir})
	waitStored(t, r, "[one two three four]")
	waitSpoolEmpty(t, s)
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
		t.Errorf("a file that is not a segment: %v; want it left alone", err)
	}
	// New mail goes into a segment numbered past those left.
	s.spool.mu.Lock()
	next := s.spool.next
	s.spool.mu.Unlock()
	if next != 4 {
		t.Errorf("the next segment is %d; want 4, past those left", next)
	}
	if err := send(t, s.Addr(), "pbem@example.org", "five"); err != nil {
		t.Fatal(err)
	}
	waitStored(t, r, "[one two three four five]")
}

// A server that stops keeps in its spool the mails it acknowledged and
// could not store (the store took no write), and the next one stores
// them.
func TestStopKeepsMailForTheNextStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := &recorder{fail: "mail"}
	s := start(t, r, Options{Spool: dir})
	for _, subj := range []string{"mail one", "mail two"} {
		if err := send(t, s.Addr(), "pbem@example.org", subj); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(30 * time.Millisecond) // tried, and waiting to be tried again
	s.Close()
	if got := spooledSegments(dir); len(got) != 1 {
		t.Fatalf("the spool holds %v after the stop; want the segment of the two mails", got)
	}
	r2 := &recorder{}
	start(t, r2, Options{Spool: dir})
	waitStored(t, r2, "[mail one mail two]")
}

// Mail the spool cannot keep is refused with 451, not acknowledged, and
// the spool takes mail again once it can.
func TestSpoolCannotKeepMail(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "spool")
	r := &recorder{}
	s := start(t, r, Options{Spool: dir})
	// A file where the spool's directory was: no segment can be made,
	// whoever runs the test (root included).
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := send(t, s.Addr(), "pbem@example.org", "lost?"); code(err) != 451 {
		t.Errorf("a mail the spool cannot keep: %v; want 451", err)
	}
	os.Remove(dir)
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := send(t, s.Addr(), "pbem@example.org", "kept"); err != nil {
		t.Errorf("a mail once the spool can keep it: %v", err)
	}
	waitStored(t, r, "[kept]")
}

// A segment takes no more mails once past its size, and each is deleted
// once its mails are decided on: a long backlog does not grow the spool.
func TestSegmentsRotateAndGo(t *testing.T) {
	t.Parallel()
	r := &recorder{hold: make(chan struct{}), entered: make(chan int, 100)}
	s := start(t, r, Options{}, 1<<20)
	big := strings.Repeat(strings.Repeat("x", 98)+"\r\n", 3<<10) // 300 KiB
	if err := send(t, s.Addr(), "pbem@example.org", "m0\r\n\r\n"+big); err != nil {
		t.Fatal(err)
	}
	<-r.entered
	for i := 1; i < 8; i++ {
		if err := send(t, s.Addr(), "pbem@example.org", fmt.Sprintf("m%d\r\n\r\n%s", i, big)); err != nil {
			t.Fatal(err)
		}
	}
	if got := spooledSegments(s.opts.Spool); len(got) < 2 {
		t.Errorf("the spool holds %v with 2.4 MB of mail waiting; want segments of about 1 MiB", got)
	}
	close(r.hold)
	waitStored(t, r, "[m0 m1 m2 m3 m4 m5 m6 m7]")
	waitSpoolEmpty(t, s)
}

// The spool keeps what it acknowledged whatever the largest mail read at
// the next start: a mail written under a larger limit is handed over all
// the same (the intake answers it as too large), and so are those after
// it.
func TestSpoolReadUnderALowerLimit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := intake.Mail{Raw: []byte("From: a@example.org\r\nSubject: big\r\n\r\n" + strings.Repeat("x", 300) + "\r\n")}
	writeSegment(t, dir, "0000000000000001"+segmentExt, mailNamed("before"), big, mailNamed("after"))
	r := &recorder{}
	s := start(t, r, Options{Spool: dir}, 100)
	waitStored(t, r, "[before after]")
	waitSpoolEmpty(t, s)
	r.mu.Lock()
	defer r.mu.Unlock()
	if fmt.Sprint(r.aside) != "[big]" {
		t.Errorf("set aside %v; want [big], answered as too large", r.aside)
	}
}

// A segment damaged in its middle (not cut short by a crash) gives up the
// mails before the damage, and is kept aside for the operator, not
// deleted with the mails after it.
func TestDamagedSegmentKeptAside(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := writeSegment(t, dir, "0000000000000001"+segmentExt, mailNamed("one"), mailNamed("two"), mailNamed("three"))
	second := recordHeader + len(mailNamed("one").Raw)
	data[second+recordHeader+2] ^= 1 // a byte of "two"
	if err := os.WriteFile(filepath.Join(dir, "0000000000000001"+segmentExt), data, 0o600); err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	start(t, r, Options{Spool: dir})
	waitStored(t, r, "[one]")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, "0000000000000001"+segmentExt+damagedExt)); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the damaged segment was not kept aside")
		}
		time.Sleep(time.Millisecond)
	}
}
