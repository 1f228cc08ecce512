// Package web is the read-only web view of pbemd: server-rendered pages of
// the games offered, the boards (drawn as SVG), the standings and the
// players, plus each board as SVG and JSON. It shows what the mail command
// "show" tells anyone, never an address, and needs no JavaScript.
//
// It reads the store and the core; neither knows of it. Every page reads a
// bounded part of the store (pages of at most a few dozen boards), carries
// an ETag, and is served under a strict Content-Security-Policy. The
// templates are embedded from this package's templates directory.
package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/pbemd/pbemd/store"
)

// Options tune a Server. Zero values mean the defaults.
type Options struct {
	Name string           // the site's name in titles; default "pbemd"
	Mail string           // the game server's mail address, shown on the front page
	Now  func() time.Time // the clock; default time.Now
	Log  *slog.Logger     // default slog.Default()

	// Rate and Burst bound the requests of one client (by IP address):
	// Rate per second on average, Burst at once. Defaults 10 and 40.
	Rate  float64
	Burst int

	// URL is the site's public address (the configuration's public_url),
	// which the feeds' ids and links are made under; default the
	// request's own scheme and host.
	URL string
}

// Limits on what a request may cost before any work is done.
const (
	maxURI     = 512 // bytes of path and query
	maxQuery   = 64  // bytes of the query
	maxClients = 10000
)

// Server serves the pages. It is an http.Handler.
type Server struct {
	db      *store.DB
	opts    Options
	limiter *limiter
	cache   pageCache      // the front page and the standings (cache.go)
	mux     *http.ServeMux // the pages by address (routes.go)
	unsub   Unsubscriber   // the one-click unsubscribe links' (unsubscribe.go); nil: none
}

// New returns a Server reading db.
func New(db *store.DB, opts Options) *Server {
	if opts.Name == "" {
		opts.Name = "pbemd"
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.Rate <= 0 {
		opts.Rate = 10
	}
	if opts.Burst <= 0 {
		opts.Burst = 40
	}
	s := &Server{db: db, opts: opts, limiter: newLimiter(opts.Rate, opts.Burst, maxClients, opts.Now)}
	s.mux = s.routes()
	return s
}

// HTTPServer returns an http.Server for s with timeouts on every phase of a
// request, so that a slow or silent client holds nothing for long.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           http.TimeoutHandler(s, 10*time.Second, "The page took too long to make; try again.\n"),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      20 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    8 << 10,
		ErrorLog:          slog.NewLogLogger(s.opts.Log.Handler(), slog.LevelDebug),
	}
}

// securityHeaders go on every response: no script at all, styles only from
// the site's own style sheet, no framing, no referrer, no sniffing.
var securityHeaders = map[string]string{
	"Content-Security-Policy":      "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	"X-Content-Type-Options":       "nosniff",
	"X-Frame-Options":              "DENY",
	"Referrer-Policy":              "no-referrer",
	"Cross-Origin-Opener-Policy":   "same-origin",
	"Cross-Origin-Resource-Policy": "same-origin",
	"Permissions-Policy":           "camera=(), microphone=(), geolocation=()",
}

// ServeHTTP checks the request's method, size and rate, then answers it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	for k, v := range securityHeaders {
		h.Set(k, v)
	}
	if s.unsubscribe(w, r) {
		return
	}
	data := isData(r.URL.Path)
	if data {
		// Any site's script may read the data (CORS): it is public,
		// and no cookie or login comes with a request.
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Access-Control-Expose-Headers", "ETag, Retry-After")
		h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	}
	switch {
	case r.Method != http.MethodGet && r.Method != http.MethodHead && !(data && r.Method == http.MethodOptions):
		h.Set("Allow", "GET, HEAD")
		s.fail(w, r, http.StatusMethodNotAllowed, "Only GET and HEAD are served here; the site is read-only.")
		return
	case len(r.URL.EscapedPath())+len(r.URL.RawQuery) > maxURI || len(r.URL.RawQuery) > maxQuery:
		s.fail(w, r, http.StatusRequestURITooLong, "The address is too long; board pages take at most ?move=N or ?before=N.")
		return
	case !s.limiter.allow(clientKey(r)):
		h.Set("Retry-After", "1")
		s.fail(w, r, http.StatusTooManyRequests, "Too many requests from your address; wait a moment and try again.")
		return
	case r.Method == http.MethodOptions:
		// A browser's preflight of a request with If-None-Match.
		h.Set("Allow", "GET, HEAD, OPTIONS")
		h.Set("Access-Control-Allow-Methods", "GET, HEAD")
		h.Set("Access-Control-Allow-Headers", "If-None-Match")
		h.Set("Access-Control-Max-Age", "86400")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// clientKey is the address a request counts against: the peer's IP. A
// proxy in front would make every client one; it should limit by itself.
func clientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// A page is a response made in memory: its body and type, so that its ETag
// can be computed before anything is written.
type page struct {
	body  []byte
	ctype string
	buf   *bytes.Buffer // the pooled buffer holding body, if any
	// filename, when set, names the page as a file for saving it
	// (Content-Disposition), as a board's record.
	filename string
}

// send writes p with an ETag of its content, or 304 Not Modified when the
// client holds that version already (RFC 9110, 13.1.2).
func (s *Server) send(w http.ResponseWriter, r *http.Request, p page) {
	sum := sha256.Sum256(p.body)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	if h.Get("Cache-Control") == "" { // a route may have set its own
		h.Set("Cache-Control", "no-cache")
	}
	if etagMatch(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", p.ctype)
	if p.filename != "" {
		h.Set("Content-Disposition", fmt.Sprintf("inline; filename=%q", p.filename))
	}
	h.Set("Content-Length", fmt.Sprint(len(p.body)))
	w.Write(p.body)
}

// etagMatch reports whether an If-None-Match header names etag, weakly
// compared as RFC 9110 asks for GET, or is "*".
func etagMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// An httpError is a refusal with its status and what the reader can do.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

func notFound(format string, args ...any) error {
	return &httpError{http.StatusNotFound, fmt.Sprintf(format, args...)}
}

func badRequest(format string, args ...any) error {
	return &httpError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

// answer sends the page, or the error as a page of its own.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, p page, err error) {
	var he *httpError
	switch {
	case err == nil:
		s.send(w, r, p)
		putBuffer(p.buf)
	case errors.As(err, &he):
		s.fail(w, r, he.status, he.msg)
	default:
		s.opts.Log.Error("web page failed", "path", r.URL.Path, "err", err)
		s.fail(w, r, http.StatusInternalServerError, "Something went wrong on our side; the operator can see what in the log.")
	}
}

// fail writes an error page: HTML for a page, JSON for a .json or API
// address, plain text otherwise.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, msg string) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	var body bytes.Buffer
	switch {
	case isData(r.URL.Path):
		h.Set("Content-Type", "application/json")
		writeJSON(&body, map[string]string{"error": msg})
	case strings.HasSuffix(r.URL.Path, ".svg") || strings.HasSuffix(r.URL.Path, ".atom") || status == http.StatusTooManyRequests:
		h.Set("Content-Type", "text/plain; charset=utf-8")
		body.WriteString(msg + "\n")
	default:
		h.Set("Content-Type", "text/html; charset=utf-8")
		if err := s.render(&body, "error", errorView{s.chrome(http.StatusText(status)), status, msg}); err != nil {
			h.Set("Content-Type", "text/plain; charset=utf-8")
			body.Reset()
			body.WriteString(msg + "\n")
		}
	}
	w.WriteHeader(status)
	w.Write(body.Bytes())
}

// A limiter is a token bucket per client: each holds up to burst tokens,
// refilled at rate per second; a request takes one. It remembers at most
// max clients, forgetting those whose buckets are full again when it must.
type limiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	max     int
	now     func() time.Time
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(rate float64, burst, max int, now func() time.Time) *limiter {
	return &limiter{rate: rate, burst: float64(burst), max: max, now: now, buckets: map[string]*bucket{}}
}

func (l *limiter) allow(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b, ok := l.buckets[key]
	if !ok {
		if len(l.buckets) >= l.max {
			l.forgetIdle(now)
		}
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[key] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.rate)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// forgetIdle drops the clients whose buckets have filled up again (they
// lose nothing by being forgotten); when none has, it drops them all
// rather than grow without bound.
func (l *limiter) forgetIdle(now time.Time) {
	for k, b := range l.buckets {
		if b.tokens+now.Sub(b.at).Seconds()*l.rate >= l.burst {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) >= l.max {
		clear(l.buckets)
	}
}
