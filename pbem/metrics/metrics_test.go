package metrics

import (
	"errors"
	"io"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// scrape reads the metrics as Prometheus would.
func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

// value is the value of the sample line that begins with sample, or -1.
func value(text, sample string) float64 {
	for line := range strings.SplitSeq(text, "\n") {
		if v, ok := strings.CutPrefix(line, sample+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err == nil {
				return f
			}
		}
	}
	return -1
}

func TestMetrics(t *testing.T) {
	queued := time.Now().Add(-90 * time.Second)
	m := New("pbemd v1.2.3 (abc) go1.26", Read{
		Waiting:    func() (int, time.Time, error) { return 3, queued, nil },
		Failed:     func() (int, error) { return 1, nil },
		StoreBytes: func() (int64, error) { return 4096, nil },
		FreePages:  func() int { return 12 },
		RobotTurns: func() int { return 7 },
		Leading:    func() bool { return true },
	})
	m.MailIn("imap", "done")
	m.MailIn("imap", "done")
	m.MailIn("lmtp", "set aside")
	m.Moves.Add(2)
	m.RepliesSent.Inc()
	m.RepliesFailed.Inc()
	m.Bounces.Inc()
	m.Compactions.Inc()
	m.Swept(3 * time.Millisecond)
	text := scrape(t, m)
	for sample, want := range map[string]float64{
		`pbemd_mails_in_total{result="done",way="imap"}`:      2,
		`pbemd_mails_in_total{result="set aside",way="lmtp"}`: 1,
		`pbemd_moves_total`:                                     2,
		`pbemd_replies_sent_total`:                              1,
		`pbemd_replies_failed_total`:                            1,
		`pbemd_bounces_total`:                                   1,
		`pbemd_etcd_compactions_total`:                          1,
		`pbemd_replies_waiting`:                                 3,
		`pbemd_failed_replies`:                                  1,
		`pbemd_store_bytes`:                                     4096,
		`pbemd_store_free_pages`:                                12,
		`pbemd_robot_turns_waiting`:                             7,
		`pbemd_leader`:                                          1,
		`pbemd_sweep_seconds_count`:                             1,
		`pbemd_sweep_seconds_bucket{le="0.005"}`:                1,
		`pbemd_build_info{version="pbemd v1.2.3 (abc) go1.26"}`: 1,
	} {
		if got := value(text, sample); got != want {
			t.Errorf("%s = %v; want %v", sample, got, want)
		}
	}
	if age := value(text, "pbemd_oldest_reply_waiting_seconds"); age < 90 || age > 3600 {
		t.Errorf("oldest reply waiting %v s; want about 90", age)
	}
	for _, runtime := range []string{"go_goroutines ", "go_memstats_heap_alloc_bytes ", "process_resident_memory_bytes "} {
		if !strings.Contains(text, "\n"+runtime) {
			t.Errorf("no %s in the metrics", runtime)
		}
	}
	if !regexp.MustCompile(`(?m)^# HELP pbemd_mails_in_total .+$`).MatchString(text) {
		t.Error("pbemd_mails_in_total has no help")
	}
}

// An empty outbox has no age; a store that cannot be read is scraped
// still, its gauges at zero.
func TestMetricsEmptyAndFailing(t *testing.T) {
	broken := errors.New("disk gone")
	m := New("v", Read{
		Waiting:    func() (int, time.Time, error) { return 0, time.Time{}, nil },
		Failed:     func() (int, error) { return 0, broken },
		StoreBytes: func() (int64, error) { return 0, broken },
	})
	text := scrape(t, m)
	if value(text, "pbemd_oldest_reply_waiting_seconds") != 0 || value(text, "pbemd_replies_waiting") != 0 {
		t.Errorf("empty outbox:\n%s", text)
	}
	if strings.Contains(text, "pbemd_robot_turns_waiting") {
		t.Error("a gauge with no reader is exported")
	}
}

// The outbox is looked at once a scrape for both its gauges, and an
// outbox that cannot be read is no gauge at all, not an empty outbox
// that keeps its alert quiet.
func TestOutboxGauges(t *testing.T) {
	looks := 0
	var fail error
	m := New("pbemd test", Read{Waiting: func() (int, time.Time, error) {
		looks++
		return 2, time.Now().Add(-time.Minute), fail
	}})
	text := scrape(t, m)
	if looks != 1 || value(text, "pbemd_replies_waiting") != 2 || value(text, "pbemd_oldest_reply_waiting_seconds") < 60 {
		t.Errorf("%d looks at the outbox for one scrape; gauges:\n%s", looks, text)
	}
	fail = errors.New("store closed")
	text = scrape(t, m)
	if value(text, "pbemd_replies_waiting") != -1 || value(text, "pbemd_oldest_reply_waiting_seconds") != -1 {
		t.Errorf("an outbox that cannot be read shows gauges:\n%s", text)
	}
}
