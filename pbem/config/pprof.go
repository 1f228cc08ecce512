package config

import (
	"fmt"
	"net"

	"github.com/pbemd/pbemd/pbem/mailconn"
)

// validatePprof lets the profiler be served only on a metrics listener
// of the loopback interface: a heap profile holds what the daemon has in
// memory, passwords of mails being read among it.
func (c *Config) validatePprof() error {
	if !c.Pprof {
		return nil
	}
	if c.Metrics == "" {
		return fmt.Errorf("pprof is on but metrics is not set; the profiler is served on the metrics listener, e.g. metrics: 127.0.0.1:9125")
	}
	host, _, _ := net.SplitHostPort(c.Metrics)
	if !mailconn.IsLoopback(host) {
		return fmt.Errorf("pprof is on with metrics %q; want metrics on the loopback interface (127.0.0.1, ::1 or localhost), or pprof off", c.Metrics)
	}
	return nil
}
