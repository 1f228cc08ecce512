package daemon

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/store/storetest"
)

// syncBuffer is a bytes.Buffer safe to read while the daemon writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// runEmbedded runs the embedded default with the web view at httpAddr
// until the test ends, and returns what it printed at start.
func runEmbedded(t *testing.T, httpAddr string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Data: t.TempDir(), IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0",
			HTTPAddr: httpAddr, Stdout: &out, Logger: slog.New(slog.DiscardHandler)})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	for i := 0; i < 200 && !strings.Contains(out.String(), "Web "); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	return out.String()
}

// pbemd serve prints the web view's address with the mail addresses, and
// serves the pages there.
func TestServeWeb(t *testing.T) {
	out := runEmbedded(t, "127.0.0.1:0")
	m := regexp.MustCompile(`Web   (http://127\.0\.0\.1:\d+/)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the start message names no web address:\n%s", out)
	}
	r, err := http.Get(m[1] + "ultima/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != 200 || !strings.Contains(string(b), "Ultima boards") {
		t.Errorf("GET %sultima/: %d %.300s", m[1], r.StatusCode, b)
	}
}

func TestServeWebOff(t *testing.T) {
	out := runEmbedded(t, "off")
	if !strings.Contains(out, "Web   off") {
		t.Errorf("with -http off the start message says:\n%s", out)
	}
}

// The default address gives way to a free port when taken; an address the
// operator chose does not, even when it is the default's (issue 28).
func TestWebAddressTaken(t *testing.T) {
	db := storetest.New(t)
	cfg := config.Default()
	log := slog.New(slog.DiscardHandler)
	if held, err := net.Listen("tcp", config.DefaultHTTP); err == nil {
		defer held.Close()
	} // else another program holds it already, which is the case tested
	url, stop, err := startWeb("", db, cfg, nil, log)
	if err != nil {
		t.Fatalf("the default address taken: %v", err)
	}
	defer stop()
	if strings.Contains(url, ":8025/") || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Errorf("the default address taken, the view is at %s; want another loopback port", url)
	}
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if _, _, err := startWeb(held.Addr().String(), db, cfg, nil, log); err == nil || !strings.Contains(err.Error(), "-http off") {
		t.Errorf("a chosen address taken: %v; want an error that says how to choose", err)
	}
	cfg.HTTP = config.DefaultHTTP // written in the file
	if _, _, err := startWeb(webAddr(Options{}, cfg), db, cfg, nil, log); err == nil || !strings.Contains(err.Error(), "8025") {
		t.Errorf("http: %s in the file and taken: %v; want an error naming it, not another port", config.DefaultHTTP, err)
	}
}
