package mailbox

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/pbem/devmail"
	"github.com/pbemd/pbemd/tests/imaptest"
)

// mailOfSize mails a message of about size bytes with the subject.
func mailOfSize(t *testing.T, s *devmail.Server, subject string, size int) {
	t.Helper()
	head := fmt.Sprintf("From: alice@localhost\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s@localhost>\r\n\r\n",
		box, subject, strings.ReplaceAll(subject, " ", "."))
	body := strings.Repeat("BODY-LINE-OF-A-LARGE-MAIL-----------------------------------\r\n", max(1, (size-len(head))/62))
	if err := s.Deliver("alice@localhost", []string{box}, []byte(head+body)); err != nil {
		t.Fatal(err)
	}
}

// A mail over what the intake reads is not fetched whole: the handler gets its header
// alone, with its size and the limit, and the mail goes to the quarantine
// folder. The mails around it are handled in order.
func TestTooLargeAnsweredFromHeader(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	r := newRecorder()
	mailOfSize(t, s, "small 1", 500)
	mailOfSize(t, s, "big", 50000)
	mailOfSize(t, s, "small 2", 500)
	stop := watch(t, Config{Addr: s.IMAPAddr}, r, 10000)
	defer stop()
	if got := r.waitFor(t, 2); fmt.Sprint(got) != "[small 1 small 2]" {
		t.Errorf("handled %q; want the two small mails", got)
	}
	q := waitFolder(t, s, "pbemd-quarantine", 1)
	if len(q) != 1 || imaptest.Header(q[0].Data, "Subject") != "big" || !q[0].Seen() {
		t.Fatalf("quarantine folder = %v; want the big mail, seen", q)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.tooLarge) != 1 {
		t.Fatalf("TooLarge called %d times; want once", len(r.tooLarge))
	}
	got := r.tooLarge[0]
	if !strings.Contains(got, "Subject: big") || strings.Contains(got, "BODY-LINE") ||
		!strings.Contains(got, fmt.Sprintf("size=%d limit=10000", len(q[0].Data))) {
		t.Errorf("TooLarge got %q; want the header only, the size and the limit", got)
	}
}

// Fetches are bounded in bytes as well as in mails.
func TestBatchBoundedInBytes(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	r := newRecorder()
	for i := 1; i <= 6; i++ {
		mailOfSize(t, s, fmt.Sprintf("m %d", i), 3000)
	}
	stop := watch(t, Config{Addr: s.IMAPAddr, Batch: 100, BatchBytes: 7000}, r)
	defer stop()
	if got := r.waitFor(t, 6); fmt.Sprint(got) != fmt.Sprint(subjects(6, "m %d")) {
		t.Errorf("handled %q; want m 1..6 in order", got)
	}
	if n := r.batches.Load(); n != 3 {
		t.Errorf("6 mails of 3000 bytes took %d fetches with 7000 bytes a batch; want 3", n)
	}
}

// A large mail whose header alone is huge: only the header's first 256 KiB
// are fetched.
func TestTooLargeHugeHeaderCut(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	r := newRecorder()
	junk := strings.Repeat("X-Junk: "+strings.Repeat("j", 70)+"\r\n", 10000) // 790 KB
	data := "From: alice@localhost\r\nSubject: huge header\r\n" + junk + "\r\nbody\r\n"
	if err := s.Deliver("alice@localhost", []string{box}, []byte(data)); err != nil {
		t.Fatal(err)
	}
	stop := watch(t, Config{Addr: s.IMAPAddr}, r, 100000)
	defer stop()
	waitFolder(t, s, "pbemd-quarantine", 1)
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.tooLarge) != 1 || len(r.tooLarge[0]) > 256<<10+100 || !strings.Contains(r.tooLarge[0], "Subject: huge header") {
		t.Fatalf("TooLarge got %d calls, the first of %d bytes; want one with at most 256 KiB of header", len(r.tooLarge), len(r.tooLarge[0]))
	}
}
