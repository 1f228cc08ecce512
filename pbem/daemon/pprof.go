package daemon

import (
	"net/http"
	"net/http/pprof"
)

// servePprof adds Go's profiler to mux at /debug/pprof/, as
// net/http/pprof does on the default mux (which the daemon does not
// serve): e.g. go tool pprof http://127.0.0.1:9125/debug/pprof/profile?seconds=30
// while a backlog runs.
func servePprof(mux *http.ServeMux) {
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
}
