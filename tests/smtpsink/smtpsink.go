// Package smtpsink is an SMTP server for tests that keeps every accepted
// mail in memory, and can be told to refuse mail for a while.
package smtpsink

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"sync"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// A Message is one accepted mail.
type Message struct {
	From string
	To   []string
	Data []byte
	At   time.Time // when the final dot was accepted
}

// Options set up a Sink.
type Options struct {
	Addr        string      // listen address; default 127.0.0.1:0
	TLSConfig   *tls.Config // enables STARTTLS (or implicit TLS with ImplicitTLS)
	ImplicitTLS bool
	// Username and Password, when set, are required through AUTH PLAIN.
	Username, Password string
	// SMTPUTF8 offers the extension for internationalized addresses
	// (RFC 6531); without it a client must not send them.
	SMTPUTF8 bool
	// MaxConns, when set, is how many connections may be open at once;
	// one more is answered 421 at its greeting (EHLO), as a server
	// limiting the connections of a client does.
	MaxConns int
}

// A Sink is a running SMTP server.
type Sink struct {
	Addr string

	srv  *smtp.Server
	ln   net.Listener
	opts Options

	mu      sync.Mutex
	cond    *sync.Cond
	msgs    []Message
	refuse  *smtp.SMTPError
	refuseN int // mails still to refuse; <0 means until Accept
	refused int
	conns   map[*smtp.Conn]bool
	open    int                        // connections with a session now
	drop    int                        // mails until the one to drop the connection on
	rcptErr map[string]*smtp.SMTPError // recipients refused forever
}

// Start runs a sink until Close.
func Start(opts Options) (*Sink, error) {
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	var ln net.Listener
	var err error
	if opts.ImplicitTLS {
		ln, err = tls.Listen("tcp", opts.Addr, opts.TLSConfig)
	} else {
		ln, err = net.Listen("tcp", opts.Addr)
	}
	if err != nil {
		return nil, err
	}
	s := &Sink{Addr: ln.Addr().String(), ln: ln, opts: opts}
	s.cond = sync.NewCond(&s.mu)
	s.conns = map[*smtp.Conn]bool{}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.conns[c] = true
		if s.opts.MaxConns > 0 && s.open >= s.opts.MaxConns {
			return nil, &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 7, 0}, Message: "too many connections from you"}
		}
		s.open++
		return &session{sink: s, conn: c}, nil
	}))
	s.srv.Domain = "sink.localhost"
	s.srv.AllowInsecureAuth = true
	s.srv.ErrorLog = discard{}
	s.srv.EnableSMTPUTF8 = opts.SMTPUTF8
	if !opts.ImplicitTLS {
		s.srv.TLSConfig = opts.TLSConfig
	}
	go s.srv.Serve(ln)
	return s, nil
}

type discard struct{}

func (discard) Printf(string, ...any) {}
func (discard) Println(...any)        {}

// Close stops the server.
func (s *Sink) Close() error {
	s.ln.Close() // Serve may not have taken the listener yet
	return s.srv.Close()
}

// Refuse makes the sink answer the end of the next n mails' DATA with code
// (e.g. 451 or 550); n < 0 refuses until Accept.
func (s *Sink) Refuse(code int, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse = &smtp.SMTPError{Code: code, EnhancedCode: smtp.EnhancedCode{code / 100, 0, 0}, Message: "refused by the test sink"}
	s.refuseN = n
}

// RefuseRcpt makes the sink answer every RCPT to the address with code
// and text, e.g. 452 "mailbox full", for good.
func (s *Sink) RefuseRcpt(addr string, code int, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rcptErr == nil {
		s.rcptErr = map[string]*smtp.SMTPError{}
	}
	s.rcptErr[addr] = &smtp.SMTPError{Code: code, EnhancedCode: smtp.EnhancedCode{code / 100, 2, 2}, Message: text}
}

// AcceptRcpt ends a RefuseRcpt of the address.
func (s *Sink) AcceptRcpt(addr string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.rcptErr, addr)
}

// Drop makes the sink close the connection in the middle of the k-th
// mail's DATA from now (1: the next), before answering it: the client
// cannot know whether the mail was taken (it was not).
func (s *Sink) Drop(k int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.drop = k
}

// Accept ends a Refuse.
func (s *Sink) Accept() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse = nil
}

// Refused returns how many mails were refused so far.
func (s *Sink) Refused() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

// Connections returns how many connections were opened so far.
func (s *Sink) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// Messages returns a copy of the mail accepted so far.
func (s *Sink) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// Wait waits until at least n mails have been accepted or the timeout
// passes, and returns the mails accepted by then.
func (s *Sink) Wait(n int, timeout time.Duration) []Message {
	t := time.AfterFunc(timeout, func() {
		s.mu.Lock()
		s.cond.Broadcast()
		s.mu.Unlock()
	})
	defer t.Stop()
	deadline := time.Now().Add(timeout)
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.msgs) < n && time.Now().Before(deadline) {
		s.cond.Wait()
	}
	return append([]Message(nil), s.msgs...)
}

type session struct {
	sink   *Sink
	conn   *smtp.Conn
	authed bool
	from   string
	to     []string
}

func (ss *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (ss *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if username != ss.sink.opts.Username || password != ss.sink.opts.Password {
			return errors.New("invalid credentials")
		}
		ss.authed = true
		return nil
	}), nil
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	if ss.sink.opts.Username != "" && !ss.authed {
		return smtp.ErrAuthRequired
	}
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.sink.mu.Lock()
	err := ss.sink.rcptErr[to]
	if err != nil {
		ss.sink.refused++
	}
	ss.sink.mu.Unlock()
	if err != nil {
		return err
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s := ss.sink
	if s.dropNow() {
		ss.conn.Close()
		return errors.New("connection dropped by the test sink")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refuse != nil && s.refuseN != 0 {
		s.refuseN--
		s.refused++
		return s.refuse
	}
	s.msgs = append(s.msgs, Message{From: ss.from, To: ss.to, Data: data, At: time.Now()})
	s.cond.Broadcast()
	return nil
}

// dropNow counts a mail toward a Drop and tells whether it is the one.
func (s *Sink) dropNow() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.drop == 0 {
		return false
	}
	s.drop--
	return s.drop == 0
}

func (ss *session) Reset() {
	ss.from = ""
	ss.to = nil
}

func (ss *session) Logout() error {
	ss.sink.mu.Lock()
	ss.sink.open--
	ss.sink.mu.Unlock()
	return nil
}
