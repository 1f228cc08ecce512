package mailconn

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

func TestIsLoopback(t *testing.T) {
	t.Parallel()
	for _, host := range []string{"localhost", "LocalHost", "127.0.0.1", "127.0.0.53", "::1", "[::1]"} {
		if !IsLoopback(host) {
			t.Errorf("IsLoopback(%q) = false", host)
		}
	}
	for _, host := range []string{"localhost.example.org", "10.0.0.1", "127.example.org", "0.0.0.0", "", "::"} {
		if IsLoopback(host) {
			t.Errorf("IsLoopback(%q) = true", host)
		}
	}
}

func TestSecurityMode(t *testing.T) {
	t.Parallel()
	for in, want := range map[Security]Security{"": TLS, TLS: TLS, StartTLS: StartTLS, Plain: Plain} {
		if got, err := in.Mode(); got != want || err != nil {
			t.Errorf("%q.Mode() = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := Security("ssl").Mode(); err == nil {
		t.Error(`"ssl".Mode() gave no error`)
	}
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n    int
		want time.Duration
	}{{0, 30 * time.Second}, {1, time.Minute}, {2, 2 * time.Minute}, {6, 32 * time.Minute}, {7, time.Hour}, {1000, time.Hour}}
	for _, tt := range tests {
		if got := Backoff(30*time.Second, time.Hour, tt.n); got != tt.want {
			t.Errorf("Backoff(30s, 1h, %d) = %v; want %v", tt.n, got, tt.want)
		}
	}
}

type closer struct{ n atomic.Int32 }

func (c *closer) Close() error { c.n.Add(1); return nil }

func TestCloseOnStop(t *testing.T) {
	t.Parallel()
	// Released in time: never closed, even after ctx ends.
	var c closer
	ctx, cancel := context.WithCancel(context.Background())
	release := CloseOnStop(ctx, &c, time.Hour)
	cancel()
	release()
	if c.n.Load() != 0 {
		t.Error("closed although released within the grace")
	}
	// Not released: closed once the grace has passed.
	ctx, cancel = context.WithCancel(context.Background())
	release = CloseOnStop(ctx, &c, 10*time.Millisecond)
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for c.n.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	release()
	if c.n.Load() != 1 {
		t.Errorf("closed %d times; want once after the grace", c.n.Load())
	}
	// ctx never ends: release stops the watch.
	release = CloseOnStop(context.Background(), &c, time.Millisecond)
	release()
}
