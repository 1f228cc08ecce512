package outbox

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/tests/smtpsink"
)

// The configuration (mailconn.IsLoopback) accepts any spelling of
// "localhost" for a plaintext server, as host names are case-insensitive;
// the transport must then not refuse what the start-up check let through.
func TestPlainPasswordToLocalhostAnyCase(t *testing.T) {
	t.Parallel()
	sink := startSink(t, smtpsink.Options{Username: "pbem", Password: "secret"})
	_, port, _ := net.SplitHostPort(sink.Addr)
	for _, host := range []string{"localhost", "LocalHost"} {
		tr := &SMTP{Addr: net.JoinHostPort(host, port), Security: mailconn.Plain, Username: "pbem", Password: "secret"}
		if err := tr.Send(context.Background(), "pbem@localhost", []string{"p1@localhost"}, []byte("Subject: reply 1\r\n\r\nx\r\n")); err != nil {
			t.Errorf("%s: %v", host, err)
		}
		tr.Close()
	}
}

// hangingSMTP accepts one mail's commands and then never answers the end
// of its DATA: a server that hangs (a stalled disk, a stopped filter)
// while the kernel still keeps the connection open. It returns its address
// and a channel closed once the mail's final dot has arrived.
func hangingSMTP(t *testing.T) (addr string, hung <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	accepted := make(chan net.Conn, 1)
	t.Cleanup(func() {
		ln.Close()
		select {
		case c := <-accepted:
			c.Close()
		default:
		}
	})
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		accepted <- c
		r := bufio.NewReader(c)
		fmt.Fprint(c, "220 hang.localhost ESMTP\r\n")
		inData := false
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			switch {
			case inData && line == ".\r\n":
				close(done)
				select {} // never answer
			case inData:
			case strings.HasPrefix(strings.ToUpper(line), "EHLO"):
				fmt.Fprint(c, "250 hang.localhost\r\n")
			case strings.HasPrefix(strings.ToUpper(line), "DATA"):
				inData = true
				fmt.Fprint(c, "354 go on\r\n")
			default:
				fmt.Fprint(c, "250 ok\r\n")
			}
		}
	}()
	return ln.Addr().String(), done
}

// SIGTERM to pbemd serve ends the Sender's context, and the daemon waits
// for Run: a server that stops answering in the middle of a mail must not
// hold it for the minutes of the command timeouts.
func TestStopWhileServerHangs(t *testing.T) {
	defer func(g time.Duration) { stopGrace = g }(stopGrace)
	stopGrace = 100 * time.Millisecond
	db := openStore(t)
	addr, hung := hangingSMTP(t)
	enqueue(t, db, 1)
	s := New(db, &SMTP{Addr: addr, Security: mailconn.Plain}, Options{Logger: quiet, Tick: 5 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- s.Run(ctx) }()
	select {
	case <-hung:
	case <-time.After(10 * time.Second):
		t.Fatal("the mail never reached the server")
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not stop within 5s of its context ending while the server hung")
	}
	if n := outboxLen(t, db); n != 1 {
		t.Errorf("outbox holds %d; want the unconfirmed mail kept", n)
	}
}

// The same for a server that accepts the connection and never greets.
func TestStopWhileServerSilent(t *testing.T) {
	defer func(g time.Duration) { stopGrace = g }(stopGrace)
	stopGrace = 100 * time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			accepted <- c
		}
	}()
	for _, sec := range []mailconn.Security{mailconn.Plain, mailconn.StartTLS} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		tr := &SMTP{Addr: ln.Addr().String(), Security: sec}
		go func() {
			done <- tr.Send(ctx, "pbem@localhost", []string{"p1@localhost"}, []byte("Subject: x\r\n\r\nx\r\n"))
		}()
		var c net.Conn
		select {
		case c = <-accepted:
		case <-time.After(10 * time.Second):
			t.Fatal("no connection")
		}
		time.Sleep(100 * time.Millisecond) // the client waits for the greeting
		cancel()
		select {
		case err := <-done:
			t.Logf("security %s: %v", sec, err)
			if err == nil {
				t.Errorf("security %s: Send = nil; want an error", sec)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("security %s: Send did not return within 5s of its context ending while the server said nothing", sec)
		}
		c.Close()
		go func() {
			if c, err := ln.Accept(); err == nil {
				accepted <- c
			}
		}()
	}
}
