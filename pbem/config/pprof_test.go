package config

import (
	"strings"
	"testing"
)

// The profiler is off unless asked for, and served only on a metrics
// listener of the loopback interface: a heap profile shows the memory of
// the daemon, mail being read among it.
func TestPprofOnLoopbackOnly(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		extra, err string
	}{
		{"", ""},
		{"metrics: 0.0.0.0:9125\n", ""},
		{"pprof: true\nmetrics: 127.0.0.1:9125\n", ""},
		{"pprof: true\nmetrics: :9125\n", ""}, // a port alone is on loopback
		{"pprof: true\nmetrics: \"[::1]:9125\"\n", ""},
		{"pprof: true\nmetrics: localhost:9125\n", ""},
		{"pprof: true\n", "metrics is not set"},
		{"pprof: true\nmetrics: 0.0.0.0:9125\n", "want metrics on the loopback interface"},
		{"pprof: true\nmetrics: 192.0.2.1:9125\n", "want metrics on the loopback interface"},
		{"pprof: true\nmetrics: localhost.attacker.example:9125\n", "want metrics on the loopback interface"},
	} {
		cfg, err := Parse([]byte(minimal+c.extra), secrets)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%q: %v", c.extra, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: error %v; want one saying %q", c.extra, err, c.err)
		case err == nil && cfg.Pprof != strings.Contains(c.extra, "pprof: true"):
			t.Errorf("%q: Pprof %v", c.extra, cfg.Pprof)
		}
	}
}
