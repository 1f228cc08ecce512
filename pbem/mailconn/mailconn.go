// Package mailconn is what pbemd's connections to mail servers share: how a
// connection is protected, where an unprotected one may go, how long to wait
// before trying again, and how a connection is cut when its work is
// cancelled. The configuration, the IMAP watcher, the outbox and the
// embedded mail server all use it, so it imports nothing of pbemd's.
package mailconn

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"time"
)

// Security is how a connection to a mail server is protected. Its values
// are the words of the configuration file. The zero value means TLS, the
// safe choice (RFC 8314 prefers implicit TLS for both IMAP and submission).
type Security string

const (
	TLS      Security = "tls"      // implicit TLS from the first byte (IMAPS 993, submissions 465)
	StartTLS Security = "starttls" // plain connection upgraded with STARTTLS before login
	Plain    Security = "plain"    // no encryption at all: allowed only to a loopback address
)

// Mode returns s with the zero value read as TLS, and an error for a value
// that is none of the three.
func (s Security) Mode() (Security, error) {
	switch s {
	case "":
		return TLS, nil
	case TLS, StartTLS, Plain:
		return s, nil
	}
	return "", fmt.Errorf("security %q is unknown; want tls, starttls or plain", string(s))
}

// IsLoopback reports whether host names the loopback interface: "localhost"
// in any case, or a loopback IP address (brackets allowed). Other names are
// not resolved, since DNS could point them anywhere.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// Backoff returns lo doubled n times, capped at hi.
func Backoff(lo, hi time.Duration, n int) time.Duration {
	d := lo
	for i := 0; i < n && d < hi; i++ {
		d *= 2
	}
	return max(min(d, hi), lo)
}

// CloseOnStop closes c when ctx ends and release has not been called
// within grace after that: a server that stops answering must not keep a
// stopping daemon waiting for the minutes of its command timeouts. Call
// release when the work on c is over; once it returns, nothing started by
// CloseOnStop runs any more.
func CloseOnStop(ctx context.Context, c io.Closer, grace time.Duration) (release func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(finished)
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-done:
		case <-t.C:
			c.Close()
		}
	})
	return func() {
		close(done)
		if !stop() {
			<-finished // the wait had started: it sees done and ends
		}
	}
}
