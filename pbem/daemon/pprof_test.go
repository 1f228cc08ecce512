package daemon

import (
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/pbem/metrics"
	"github.com/pbemd/pbemd/tests/testenv"
)

// The metrics listener serves the profiler only when pprof is on; off,
// /debug/pprof/ is not found there, and the metrics are served either way.
func TestPprofOnMetricsListener(t *testing.T) {
	t.Parallel()
	for _, on := range []bool{false, true} {
		addr := testenv.FreeAddr(t)
		srv, err := serveMetrics(addr, on, metrics.New("test", metrics.Read{}), slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		get := func(path string) (int, string) {
			resp, err := http.Get("http://" + addr + path)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(body)
		}
		if code, _ := get("/metrics"); code != http.StatusOK {
			t.Errorf("pprof %v: /metrics answered %d; want 200", on, code)
		}
		code, body := get("/debug/pprof/")
		switch {
		case on && (code != http.StatusOK || !strings.Contains(body, "goroutine")):
			t.Errorf("pprof on: /debug/pprof/ answered %d; want 200 and the list of profiles", code)
		case !on && code != http.StatusNotFound:
			t.Errorf("pprof off: /debug/pprof/ answered %d; want 404", code)
		}
		srv.Close()
	}
}
