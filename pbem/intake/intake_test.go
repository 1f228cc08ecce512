package intake

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

var quiet = slog.New(slog.DiscardHandler)

// fake is a service whose mails fail as told, by subject. HandleAll is one
// transaction, as the service's: one failing mail fails all.
type fake struct {
	mu       sync.Mutex
	fail     map[string]error // per subject; errPanic panics
	down     bool             // the store takes no write at all
	noAnswer bool             // the answer to a too large mail cannot be stored
	handled  []string         // subjects committed, in order
	calls    map[string]int   // how often each subject was handed over
	aside    []string         // subjects quarantined
	large    []string         // headers answered as too large, with size and limit
	failures map[string]int
}

var errPanic = errors.New("panic")

func newFake() *fake {
	return &fake{fail: map[string]error{}, calls: map[string]int{}, failures: map[string]int{}}
}

func subject(raw []byte) string {
	_, rest, _ := strings.Cut(string(raw), "Subject: ")
	s, _, _ := strings.Cut(rest, "\r\n")
	return s
}

func mail(subj string) Mail {
	return Mail{Raw: []byte("From: alice@example.org\r\nSubject: " + subj + "\r\n\r\nbody\r\n")}
}

func mails(subjects ...string) []Mail {
	var ms []Mail
	for _, s := range subjects {
		ms = append(ms, mail(s))
	}
	return ms
}

func (f *fake) HandleAll(raws [][]byte) ([][]uint64, []error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	errs := make([]error, len(raws))
	for _, raw := range raws {
		s := subject(raw)
		f.calls[s]++
		err := f.fail[s]
		if f.down {
			err = errors.New("no space left on device")
		}
		if err == errPanic {
			panic("a bug hit by " + s)
		}
		if err != nil {
			for i := range errs {
				errs[i] = err
			}
			return make([][]uint64, len(raws)), errs
		}
	}
	ids := make([][]uint64, len(raws))
	for i, raw := range raws {
		f.handled = append(f.handled, subject(raw))
		ids[i] = []uint64{uint64(len(f.handled))}
	}
	return ids, errs
}

func (f *fake) Quarantine(raw []byte, why string, keep bool) ([]uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return nil, errors.New("no space left on device")
	}
	f.aside = append(f.aside, subject(raw))
	return []uint64{99}, nil
}

func (f *fake) TooLarge(header []byte, size, limit int64) ([]uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.noAnswer {
		return nil, errors.New("no space left on device for the answer")
	}
	f.large = append(f.large, fmt.Sprintf("%s size=%d limit=%d", header, size, limit))
	return []uint64{98}, nil
}

func (f *fake) CountFailure(raw []byte, most int) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := subject(raw)
	f.failures[s]++
	n := f.failures[s]
	if n >= most {
		delete(f.failures, s)
	}
	return n, nil
}

func (f *fake) Check() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return errors.New("no space left on device")
	}
	return nil
}

func kinds(vs []Verdict) string {
	var s []string
	for _, v := range vs {
		s = append(s, v.Kind.String())
	}
	return strings.Join(s, ", ")
}

// permanent is an error that trying again will not fix.
type permanent struct{}

func (permanent) Error() string   { return "cannot be read" }
func (permanent) Temporary() bool { return false }

// A batch commits at once; when it fails, each mail is tried alone, so the
// bad one holds up no other; a mail that fails for good (or crashes) is
// answered and set aside at once.
func TestBatchFailedEachAlone(t *testing.T) {
	t.Parallel()
	for _, bad := range []error{permanent{}, errPanic} {
		f := newFake()
		f.fail["bad"] = bad
		var committed []int
		in := New(f, Options{Logger: quiet, OnCommit: func(n int) { committed = append(committed, n) }})
		vs := in.Take(mails("one", "bad", "two"), Apart)
		if got := kinds(vs); got != "done, set aside, done" {
			t.Fatalf("%v: verdicts %s; want done, set aside, done", bad, got)
		}
		if fmt.Sprint(f.handled) != "[one two]" || fmt.Sprint(f.aside) != "[bad]" {
			t.Errorf("%v: handled %v, set aside %v; want [one two], [bad]", bad, f.handled, f.aside)
		}
		if f.calls["bad"] != 2 || f.failures["bad"] != 0 {
			t.Errorf("%v: the bad mail handed over %d times, failures counted %d; want 2 (batch, alone), 0", bad, f.calls["bad"], f.failures["bad"])
		}
		if len(vs[1].IDs) != 1 || len(vs[0].IDs) != 1 {
			t.Errorf("%v: ids %v; want the answer's and the replies'", bad, vs)
		}
		if fmt.Sprint(committed) != "[2]" {
			t.Errorf("%v: OnCommit told %v; want [2] once", bad, committed)
		}
	}
}

// A mail failing for a temporary reason while the store works is tried
// again after a growing wait, its failures counted by the service; at the
// last try it is answered and set aside.
func TestTemporaryFailuresCountedThenSetAside(t *testing.T) {
	t.Parallel()
	f := newFake()
	f.fail["flaky"] = errors.New("transaction too large")
	in := New(f, Options{Logger: quiet, Tries: 3, RetryMin: time.Second, RetryMax: time.Minute})
	var waits []time.Duration
	for range 2 {
		v := in.Take(mails("flaky"), Apart)[0]
		if v.Kind != Retry || !strings.Contains(v.Err.Error(), "too large") {
			t.Fatalf("a temporary failure: %s (%v); want retry", v.Kind, v.Err)
		}
		waits = append(waits, v.After)
	}
	if waits[0] != time.Second || waits[1] != 2*time.Second {
		t.Errorf("waits %v; want 1s, then 2s", waits)
	}
	if v := in.Take(mails("flaky"), Apart)[0]; v.Kind != SetAside {
		t.Fatalf("the third failure of 3 tries: %s; want set aside", v.Kind)
	}
	if fmt.Sprint(f.aside) != "[flaky]" {
		t.Errorf("set aside %v; want [flaky]", f.aside)
	}
}

// While the store takes no write the mail is not at fault: it is tried
// again, with a growing wait, however long it lasts, and never set aside.
func TestStoreOutageNeverSetsAside(t *testing.T) {
	t.Parallel()
	f := newFake()
	f.down = true
	in := New(f, Options{Logger: quiet, Tries: 2, RetryMin: time.Second, RetryMax: 4 * time.Second})
	var waits []time.Duration
	for range 5 {
		v := in.Take(mails("move"), Apart)[0]
		if v.Kind != Retry {
			t.Fatalf("a mail while the store is down: %s; want retry", v.Kind)
		}
		waits = append(waits, v.After)
	}
	if fmt.Sprint(waits) != "[1s 2s 4s 4s 4s]" {
		t.Errorf("waits %v; want doubling up to 4s", waits)
	}
	if len(f.aside) != 0 || len(f.failures) != 0 {
		t.Errorf("set aside %v, failures counted %v during an outage; want none", f.aside, f.failures)
	}
	f.down = false
	if v := in.Take(mails("move"), Apart)[0]; v.Kind != Done {
		t.Errorf("once the store works: %s; want done", v.Kind)
	}
	f.down = true
	if v := in.Take(mails("next"), Apart)[0]; v.After != time.Second {
		t.Errorf("a new outage waits %v first; want the wait to start again at 1s", v.After)
	}
}

// In order, a mail after one to retry is not tried (a move must not
// overtake the challenge before it); apart, it is.
func TestOrder(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		order Order
		want  string
	}{{InOrder, "done, retry, retry"}, {Apart, "done, retry, done"}} {
		f := newFake()
		f.fail["flaky"] = errors.New("transaction too large")
		vs := New(f, Options{Logger: quiet}).Take(mails("one", "flaky", "after"), c.order)
		if got := kinds(vs); got != c.want {
			t.Errorf("order %d: %s; want %s", c.order, got, c.want)
		}
		if committed := strings.Contains(fmt.Sprint(f.handled), "after"); committed != (c.order == Apart) {
			t.Errorf("order %d: the mail after one to retry committed: %v; want %v", c.order, committed, c.order == Apart)
		}
	}
}

// A mail over the largest size read is answered from its header, whether
// the transport read it whole or only its header (with its size).
func TestTooLarge(t *testing.T) {
	t.Parallel()
	f := newFake()
	in := New(f, Options{Logger: quiet, Largest: 100})
	big := mail("big " + strings.Repeat("x", 200))
	header := Mail{Raw: []byte("From: alice@example.org\r\nSubject: header only\r\n\r\n"), Size: 5000}
	vs := in.Take([]Mail{mail("small"), big, header}, InOrder)
	if got := kinds(vs); got != "done, set aside, set aside" {
		t.Fatalf("verdicts %s; want done, set aside, set aside", got)
	}
	if len(f.large) != 2 || !strings.HasSuffix(f.large[0], fmt.Sprintf("size=%d limit=100", len(big.Raw))) ||
		!strings.HasSuffix(f.large[1], "size=5000 limit=100") {
		t.Errorf("TooLarge got %q; want each mail's size and the limit", f.large)
	}
	if fmt.Sprint(f.handled) != "[small]" {
		t.Errorf("handled %v; want only the small mail", f.handled)
	}
}

// crashing is the real service with a bug: a mail whose Subject is
// "crash" panics it.
type crashing struct{ *pbem.Service }

func (c crashing) HandleAll(raws [][]byte) ([][]uint64, []error) {
	for _, raw := range raws {
		if subject(raw) == "crash" {
			panic("a bug")
		}
	}
	return c.Service.HandleAll(raws)
}

func openStore(t *testing.T) (*store.DB, *pbem.Service) {
	t.Helper()
	db := storetest.New(t)
	return db, pbem.New(db, pbem.Config{Address: "pbem@example.org", Log: quiet})
}

// Through the real store: a mail set aside is kept in the store's
// quarantine for the administrator ("pbemd admin quarantine"), whichever
// way it came in, and its sender is answered once, however often it comes.
func TestSetAsideKeptInTheStore(t *testing.T) {
	t.Parallel()
	db, svc := openStore(t)
	in := New(crashing{svc}, Options{Logger: quiet})
	raw := []byte("From: bob@example.org\r\nTo: pbem@example.org\r\nSubject: crash\r\nMessage-ID: <q1@example.org>\r\n\r\nhello\r\n")
	unreadable := []byte("no header, only words\r\n")
	for range 2 {
		if got := kinds(in.Take([]Mail{{Raw: raw}, {Raw: unreadable}}, InOrder)); got != "set aside, set aside" {
			t.Fatalf("a crashing and an unreadable mail: %s; want both set aside", got)
		}
	}
	list, err := db.Quarantined()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 {
		t.Fatalf("the store's quarantine holds %d mails; want the two once each", len(list))
	}
	for _, q := range list {
		if q.From == "bob@example.org" && !strings.Contains(string(q.Data), "hello") {
			t.Errorf("bob's mail kept as %q", q.Data)
		}
	}
	if n, err := db.OutboxLen(); err != nil || n != 1 {
		t.Errorf("%d answers queued (%v); want 1, to bob (the unreadable mail has no sender)", n, err)
	}
}

// storeFails is the real service whose transactions fail for a reason
// of the mail while the store takes other writes.
type storeFails struct{ *pbem.Service }

func (s storeFails) HandleAll(raws [][]byte) ([][]uint64, []error) {
	errs := make([]error, len(raws))
	for i := range errs {
		errs[i] = errors.New("storing mail: transaction too large")
	}
	return make([][]uint64, len(raws)), errs
}

// The failures of a mail are counted in the store, so that separate runs
// ("pbemd deliver" once per try of the MTA) and restarts share them.
func TestFailuresCountedAcrossRuns(t *testing.T) {
	t.Parallel()
	_, svc := openStore(t)
	raw := []byte("From: bob@example.org\r\nSubject: help\r\nMessage-ID: <f1@example.org>\r\n\r\n")
	for try := 1; try <= 3; try++ {
		in := New(storeFails{svc}, Options{Logger: quiet, Tries: 3}) // a new run each time
		v := in.Take([]Mail{{Raw: raw}}, Apart)[0]
		want := Retry
		if try == 3 {
			want = SetAside
		}
		if v.Kind != want {
			t.Fatalf("run %d: %s (%v); want %s", try, v.Kind, v.Err, want)
		}
	}
}

// A mail whose answer cannot be stored while the store takes small writes
// (a disk nearly full, the answer too large for it) is tried again after
// the longest wait, and no outage is declared: Ready keeps taking the
// other mails, and checks the store no more.
func TestUnanswerableMailHoldsUpNoOther(t *testing.T) {
	f := newFake()
	f.noAnswer = true
	in := New(f, Options{Logger: quiet, Largest: 64, RetryMin: time.Millisecond, RetryMax: time.Hour})
	if err := in.Ready(); err != nil {
		t.Fatalf("Ready before any mail: %v", err)
	}
	vs := in.Take([]Mail{{Raw: []byte("From: a@example.org\r\n\r\n"), Size: 100}}, Apart)
	if vs[0].Kind != Retry || vs[0].After != time.Hour {
		t.Fatalf("a mail whose answer cannot be stored: %v after %v; want retry after the longest wait", vs[0].Kind, vs[0].After)
	}
	time.Sleep(5 * time.Millisecond) // past the outage's first wait, were there one
	if err := in.Ready(); err != nil {
		t.Errorf("Ready after one mail's answer failed: %v; want the store taken for working", err)
	}
	if got := kinds(in.Take(mails("help"), Apart)); got != "done" {
		t.Errorf("the next mail: %s; want done", got)
	}
}
