package outbox

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Security is how the SMTP connection is protected.
type Security int

const (
	StartTLS    Security = iota // plain connection upgraded by STARTTLS (submission, port 587)
	ImplicitTLS                 // TLS from the first byte (submissions, port 465)
	Plain                       // no encryption; only for a loopback server
)

// stopGrace is how long a mail being sent may take after the context
// ended before the connection is cut: the command timeouts are minutes
// long, and a stopping daemon waits for the Sender.
var stopGrace = 5 * time.Second

// SMTP submits mail to one server, keeping the connection open from one
// mail to the next until Close.
type SMTP struct {
	Addr      string      // host:port
	Security  Security    // how to protect the connection
	TLSConfig *tls.Config // nil: verify against the host name of Addr
	// Username and Password, when set, log in with AUTH PLAIN (RFC 4616).
	Username, Password string
	// Timeout bounds connecting and each command; default 1 minute.
	Timeout time.Duration

	c *smtp.Client
}

// Send submits one mail. A 5xx reply to MAIL, RCPT or DATA is returned as
// a *RejectedError; every other failure is temporary.
func (s *SMTP) Send(ctx context.Context, from string, to []string, data []byte) error {
	if s.c == nil {
		c, err := s.dial(ctx)
		if err != nil {
			return err
		}
		s.c = c
	}
	release := closeOnStop(ctx, s.c)
	err := s.c.SendMail(from, to, bytes.NewReader(data))
	release()
	if err != nil {
		// The transaction is in an unknown state: start afresh next time.
		s.Close()
		var se *smtp.SMTPError
		if errors.As(err, &se) && se.Code >= 500 {
			return &RejectedError{Err: err}
		}
		return err
	}
	return nil
}

// dial connects, secures and logs in. Failures here are never the mail's
// fault, so they are all temporary, even a 5xx to AUTH.
func (s *SMTP) dial(ctx context.Context) (*smtp.Client, error) {
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = time.Minute
	}
	host, _, err := net.SplitHostPort(s.Addr)
	if err != nil {
		return nil, err
	}
	tc := s.TLSConfig
	if tc == nil {
		tc = &tls.Config{ServerName: host}
	}
	if s.Security == Plain && s.Username != "" && !isLoopback(host) {
		return nil, fmt.Errorf("smtp: refusing to send a password unencrypted to %s; use TLS or STARTTLS", host)
	}
	d := &net.Dialer{Timeout: timeout}
	var conn net.Conn
	if s.Security == ImplicitTLS {
		conn, err = (&tls.Dialer{NetDialer: d, Config: tc}).DialContext(ctx, "tcp", s.Addr)
	} else {
		conn, err = d.DialContext(ctx, "tcp", s.Addr)
	}
	if err != nil {
		return nil, fmt.Errorf("smtp: connect to %s: %w", s.Addr, err)
	}
	release := closeOnStop(ctx, conn)
	defer release()
	var c *smtp.Client
	if s.Security == StartTLS {
		c, err = smtp.NewClientStartTLS(conn, tc)
		if err != nil {
			return nil, fmt.Errorf("smtp: STARTTLS with %s: %w", s.Addr, err)
		}
	} else {
		c = smtp.NewClient(conn)
	}
	c.CommandTimeout = timeout
	c.SubmissionTimeout = 5 * timeout
	if s.Username != "" {
		if err := c.Auth(sasl.NewPlainClient("", s.Username, s.Password)); err != nil {
			c.Close()
			// The error quotes the server, never our password.
			return nil, fmt.Errorf("smtp: login as %s at %s: %w", s.Username, s.Addr, err)
		}
	}
	return c, nil
}

// Close ends the connection, politely when it still works.
func (s *SMTP) Close() error {
	if s.c == nil {
		return nil
	}
	c := s.c
	s.c = nil
	c.CommandTimeout = 2 * time.Second
	if err := c.Quit(); err != nil {
		return c.Close()
	}
	return nil
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// closeOnStop closes c if ctx ends and release has not been called within
// stopGrace after that.
func closeOnStop(ctx context.Context, c io.Closer) (release func()) {
	done := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		select {
		case <-done:
		case <-time.After(stopGrace):
			c.Close()
		}
	})
	return func() {
		stop()
		close(done)
	}
}
