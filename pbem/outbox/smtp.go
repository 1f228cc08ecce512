package outbox

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/pbemd/pbemd/pbem/mailconn"
)

// stopGrace is how long a mail being sent may take after the context
// ended before the connection is cut: the command timeouts are minutes
// long, and a stopping daemon waits for the Sender.
var stopGrace = 5 * time.Second

// SMTP submits mail to one server, keeping the connection open from one
// mail to the next until Close.
type SMTP struct {
	Addr      string            // host:port
	Security  mailconn.Security // zero: implicit TLS (submissions, port 465)
	TLSConfig *tls.Config       // nil: verify against the host name of Addr
	// Username and Password, when set, log in with AUTH PLAIN (RFC 4616).
	Username, Password string
	// Timeout bounds connecting and each command; default 1 minute.
	Timeout time.Duration

	c    *client
	used time.Time // when c last answered
}

// checkAfter is how long a connection may sit unused before Send asks the
// server whether it is still there (NOOP), rather than lose a mail's first
// command to a connection the server closed meanwhile.
var checkAfter = time.Second // a variable for the tests

// Send submits one mail. Failing to connect, to secure the connection or
// to log in, and a connection lost or answered 421 during the mail, are a
// *ConnectionError. A 5xx reply to MAIL, RCPT or DATA, and a mail the
// client cannot express to this server (an internationalized address
// without SMTPUTF8), are a *RejectedError. Any other refusal (4xx) is a
// temporary failure of this mail alone.
func (s *SMTP) Send(ctx context.Context, from string, to []string, data []byte) error {
	if s.c != nil && time.Since(s.used) >= checkAfter {
		if err := s.c.noop(); err != nil {
			s.drop()
		}
	}
	if s.c == nil {
		c, err := s.dial(ctx)
		if err != nil {
			var se *smtp.SMTPError
			return &ConnectionError{Err: err, Answered: errors.As(err, &se)}
		}
		s.c, s.used = c, time.Now()
	}
	if err := s.expressible(from, to); err != nil {
		return &RejectedError{Err: err}
	}
	release := mailconn.CloseOnStop(ctx, s.c, stopGrace)
	err := s.c.send(from, to, data)
	release()
	s.used = time.Now()
	if err == nil {
		return nil
	}
	var se *smtp.SMTPError
	switch {
	case errors.As(err, &se) && se.Code == 421:
		s.drop()
		return &ConnectionError{Err: err, Answered: true}
	case errors.As(err, &se):
		// The server refused this mail and still talks: end the
		// transaction and keep the connection for the next mail.
		if rerr := s.c.reset(); rerr != nil {
			s.drop()
		}
		if se.Code >= 500 {
			return &RejectedError{Err: err}
		}
		return err
	case brokenConnection(err):
		s.drop()
		return &ConnectionError{Err: err, InMail: true}
	default:
		// The client refused before sending anything it could not say
		// (an address with a line break, say): no server will take it.
		s.drop()
		return &RejectedError{Err: err}
	}
}

// expressible reports why the envelope cannot be sent over this
// connection: an address with non-ASCII characters needs the server's
// SMTPUTF8 (RFC 6531), and without it the mail would fail the same way
// every time.
func (s *SMTP) expressible(from string, to []string) error {
	if s.c.has("SMTPUTF8") {
		return nil
	}
	for _, a := range append([]string{from}, to...) {
		if !ascii(a) {
			return fmt.Errorf("smtp: the address %q is internationalized and %s does not offer SMTPUTF8", a, s.Addr)
		}
	}
	return nil
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// brokenConnection reports whether err means the connection itself failed
// (closed, reset, timed out, or the server spoke no SMTP), rather than a
// refusal of the mail.
func brokenConnection(err error) bool {
	var ne net.Error
	var pe textproto.ProtocolError
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) ||
		errors.As(err, &ne) || errors.As(err, &pe)
}

// dial connects, secures, greets and logs in, so that every failure of
// the connection itself shows here rather than in the middle of a mail.
func (s *SMTP) dial(ctx context.Context) (*client, error) {
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = time.Minute
	}
	sec, err := s.Security.Mode()
	if err != nil {
		return nil, fmt.Errorf("smtp: %w", err)
	}
	host, _, err := net.SplitHostPort(s.Addr)
	if err != nil {
		return nil, err
	}
	tc := s.TLSConfig
	if tc == nil {
		tc = &tls.Config{ServerName: host}
	}
	if sec == mailconn.Plain && s.Username != "" && !mailconn.IsLoopback(host) {
		return nil, fmt.Errorf("smtp: refusing to send a password unencrypted to %s; use TLS or STARTTLS", host)
	}
	d := &net.Dialer{Timeout: timeout}
	var conn net.Conn
	if sec == mailconn.TLS {
		conn, err = (&tls.Dialer{NetDialer: d, Config: tc}).DialContext(ctx, "tcp", s.Addr)
	} else {
		conn, err = d.DialContext(ctx, "tcp", s.Addr)
	}
	if err != nil {
		return nil, fmt.Errorf("smtp: connect to %s: %w", s.Addr, err)
	}
	release := mailconn.CloseOnStop(ctx, conn, stopGrace)
	defer release()
	c, err := newClient(conn, timeout)
	if err == nil {
		if err = c.hello("localhost"); err != nil {
			c.Close()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("smtp: greeting of %s: %w", s.Addr, err)
	}
	if sec == mailconn.StartTLS {
		if !c.has("STARTTLS") {
			err = errors.New("the server does not offer it")
		} else {
			err = c.startTLS(tc, "localhost")
		}
		if err != nil {
			c.Close()
			return nil, fmt.Errorf("smtp: STARTTLS with %s: %w", s.Addr, err)
		}
	}
	if s.Username != "" {
		if err := c.auth(s.Username, s.Password); err != nil {
			c.Close()
			// The error quotes the server, never our password.
			return nil, &mailconn.LoginError{Err: fmt.Errorf("smtp: login as %s at %s: %w", s.Username, s.Addr, err)}
		}
	}
	return c, nil
}

// drop ends a connection that cannot be used any more.
func (s *SMTP) drop() {
	if s.c != nil {
		s.c.Close()
		s.c = nil
	}
}

// Close ends the connection, politely when it still works.
func (s *SMTP) Close() error {
	if s.c == nil {
		return nil
	}
	c := s.c
	s.c = nil
	c.timeout = 2 * time.Second
	c.quit()
	return nil
}
