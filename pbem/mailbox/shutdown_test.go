package mailbox

import (
	"context"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/intake"
	"github.com/pbemd/pbemd/pbem/mailconn"
)

// freezer forwards TCP connections to a server until Freeze, after which
// it passes nothing on in either direction but keeps every connection
// open: a server that hangs (a stalled disk, a stopped process) while the
// kernel still answers for it.
type freezer struct {
	Addr   string
	ln     net.Listener
	target string

	mu     sync.Mutex
	frozen chan struct{} // closed while thawed; replaced by an open one to freeze
	conns  []net.Conn
}

func startFreezer(t *testing.T, target string) *freezer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	thawed := make(chan struct{})
	close(thawed)
	f := &freezer{Addr: ln.Addr().String(), ln: ln, target: target, frozen: thawed}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go f.forward(c)
		}
	}()
	t.Cleanup(f.close)
	return f
}

func (f *freezer) forward(c net.Conn) {
	s, err := net.Dial("tcp", f.target)
	if err != nil {
		c.Close()
		return
	}
	f.mu.Lock()
	f.conns = append(f.conns, c, s)
	f.mu.Unlock()
	go f.copy(s, c)
	f.copy(c, s)
}

func (f *freezer) copy(dst io.Writer, src io.Reader) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			f.mu.Lock()
			gate := f.frozen
			f.mu.Unlock()
			<-gate // blocks for good once frozen
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (f *freezer) freeze() {
	f.mu.Lock()
	f.frozen = make(chan struct{})
	f.mu.Unlock()
}

func (f *freezer) close() {
	f.ln.Close()
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.conns {
		c.Close()
	}
	close(f.frozen) // let blocked copies run into the closed connections
	f.frozen = make(chan struct{})
	close(f.frozen)
}

// A server that stops answering must not keep the watcher from stopping:
// SIGTERM to pbemd serve cancels the context, and the daemon waits for Run.
func TestStopWhileServerHangs(t *testing.T) {
	defer func(g time.Duration) { stopGrace = g }(stopGrace)
	stopGrace = 100 * time.Millisecond

	t.Run("in IDLE", func(t *testing.T) {
		s := startServer(t)
		f := startFreezer(t, s.IMAPAddr)
		r := newRecorder()
		stop := watch(t, Config{Addr: f.Addr, PollInterval: time.Hour}, r)
		mail(s, "before")
		r.waitFor(t, 1)
		time.Sleep(50 * time.Millisecond) // back in IDLE
		f.freeze()
		stop() // fails the test if Run does not return
	})

	t.Run("before the greeting", func(t *testing.T) {
		// Accepts connections and never says a word, as a TLS port does
		// to a client that waits for a plain IMAP greeting.
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		accepted := make(chan net.Conn, 10)
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				accepted <- c
			}
		}()
		stop := watch(t, Config{Addr: ln.Addr().String(), PollInterval: time.Hour}, newRecorder())
		c := <-accepted
		defer c.Close()
		start := time.Now()
		stop()
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("Run took %v to stop while waiting for a greeting; want about stopGrace (%v)", d, stopGrace)
		}
	})
}

// The configuration (mailconn.IsLoopback) accepts any spelling of
// "localhost" for a plaintext server, as host names are case-insensitive;
// the watcher must then not refuse what the start-up check let through.
func TestPlainToLocalhostAnyCase(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	_, port, _ := net.SplitHostPort(s.IMAPAddr)
	for _, host := range []string{"localhost", "LocalHost"} {
		w := New(Config{Addr: net.JoinHostPort(host, port), Security: mailconn.Plain, Logger: quiet}, intake.New(newRecorder(), intake.Options{Logger: quiet}))
		c, err := w.dial(context.Background())
		if err != nil {
			t.Errorf("%s: %v", host, err)
			continue
		}
		c.Close()
	}
}
