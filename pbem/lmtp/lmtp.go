// Package lmtp lets a mail transfer agent (Postfix, OpenSMTPD, Dovecot's
// LDA) hand mail straight to the service over LMTP (RFC 2033), with no
// mailbox in between. A mail is acknowledged only after the transaction
// that stores it has committed; while the store is busy or cannot write,
// the MTA gets a temporary (4xx) answer and keeps the mail.
//
// Mails arriving together are committed together (group commit): one
// goroutine takes every mail waiting, up to a batch, and hands them to the
// service in one transaction, so a burst costs one disk sync per batch.
package lmtp

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/emersion/go-smtp"
)

// Deliverer is what the server needs of the service: DeliverAll commits
// several mails in one transaction (all or none), Deliver one.
type Deliverer interface {
	Deliver(raw []byte) error
	DeliverAll(raws [][]byte) []error
}

// Options configure a Server. Zero fields take the defaults named.
type Options struct {
	// Addr is a host:port, or the path of a Unix socket when it begins
	// with "/".
	Addr string
	// Recipients are the addresses mail is accepted for (the server's
	// own); any other is refused for good.
	Recipients []string
	// MaxBytes is the largest mail accepted; default 10 MiB, as the
	// service reads.
	MaxBytes int64
	// Queue is how many mails may wait for their commit; one more gets
	// 451 (busy) at once. Default 1,000.
	Queue int
	// Batch is the most mails one transaction commits. Default 256.
	Batch int
	// Memory is the most bytes of mail held at once, read and not yet
	// committed; a mail that would pass it gets 451 (busy). Default
	// 64 MiB, and never below MaxBytes (and a byte).
	Memory int64
	// Conns is the most sessions at once; a further connection waits to
	// be accepted. Default 64.
	Conns int
	// Session is the longest a session lasts, far more than an MTA needs
	// for the mails of one connection, so that sessions kept alive with
	// NOOPs cannot hold every slot. Default 15 minutes.
	Session time.Duration
	// Domain is the name the server greets with; default "localhost".
	Domain string
	Logger *slog.Logger
	// OnCommit, when set, is told after each batch how many mails it
	// stored (to count them and wake the outbox sender).
	OnCommit func(stored int)
}

// A Server is a running LMTP listener.
type Server struct {
	opts Options
	svc  Deliverer
	srv  *smtp.Server
	ln   net.Listener
	jobs chan job
	wg   sync.WaitGroup
	log  *slog.Logger

	mu     sync.Mutex
	memory int64 // bytes of mail that may still be held (Options.Memory)
}

type job struct {
	raw  []byte
	done chan error
}

// Listen starts an LMTP server on opts.Addr that hands mail to svc.
func Listen(opts Options, svc Deliverer) (*Server, error) {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = 10 << 20
	}
	if opts.Queue <= 0 {
		opts.Queue = 1000
	}
	if opts.Batch <= 0 {
		opts.Batch = 256
	}
	if opts.Memory <= 0 {
		opts.Memory = 64 << 20
	}
	opts.Memory = max(opts.Memory, opts.MaxBytes+1)
	if opts.Conns <= 0 {
		opts.Conns = 64
	}
	if opts.Session <= 0 {
		opts.Session = 15 * time.Minute
	}
	if opts.Domain == "" {
		opts.Domain = "localhost"
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	network := "tcp"
	if strings.HasPrefix(opts.Addr, "/") {
		network = "unix"
		os.Remove(opts.Addr) // a socket left by a previous run
	}
	ln, err := net.Listen(network, opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("lmtp: %w", err)
	}
	s := &Server{opts: opts, svc: svc, ln: ln, jobs: make(chan job, opts.Queue), log: opts.Logger,
		memory: opts.Memory}
	s.srv = smtp.NewServer(backend{s})
	s.srv.LMTP = true
	s.srv.Domain = opts.Domain
	s.srv.MaxMessageBytes = opts.MaxBytes
	s.srv.MaxRecipients = 10
	// An MTA that stops talking frees its session: RFC 5321 gives a
	// client 5 minutes for a command, and go-smtp reads a whole mail's
	// data within one such wait. A session ends after opts.Session all
	// the same (see limitedConn).
	s.srv.ReadTimeout = 5 * time.Minute
	s.srv.WriteTimeout = time.Minute
	s.wg.Add(2)
	go func() { defer s.wg.Done(); s.commit() }()
	go func() {
		defer s.wg.Done()
		if err := s.srv.Serve(limitConns(ln, opts.Conns, opts.Session)); err != nil && !errors.Is(err, smtp.ErrServerClosed) {
			s.log.Error("lmtp: serve", "err", err)
		}
	}()
	return s, nil
}

// Addr is the address the server listens on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Close stops accepting connections, lets the mails waiting commit and
// returns once every session has ended.
func (s *Server) Close() error {
	err := s.srv.Close()
	// go-smtp closes the listener only once Serve has begun: a Close
	// right after Listen must close it itself.
	s.ln.Close()
	close(s.jobs)
	s.wg.Wait()
	return err
}

// commit is the group commit: every mail waiting, up to a batch, in one
// transaction. When the batch's transaction fails, each mail is tried
// alone, so that one mail the store refuses holds up no other.
func (s *Server) commit() {
	for j := range s.jobs {
		batch := []job{j}
	more:
		for len(batch) < s.opts.Batch {
			select {
			case j, ok := <-s.jobs:
				if !ok {
					break more
				}
				batch = append(batch, j)
			default:
				break more
			}
		}
		raws := make([][]byte, len(batch))
		for i, j := range batch {
			raws[i] = j.raw
		}
		errs := s.svc.DeliverAll(raws)
		stored := 0
		for i, j := range batch {
			err := errs[i]
			if err != nil && len(batch) > 1 {
				err = s.svc.Deliver(j.raw)
			}
			if err == nil {
				stored++
			}
			j.done <- err
		}
		if s.opts.OnCommit != nil {
			s.opts.OnCommit(stored)
		}
	}
}

// read reads a mail, holding its bytes against the server's memory as it
// goes: when the mail would pass what is left, reading stops with 451 and
// the MTA tries again later. It returns the bytes held, to release once
// the mail is committed or refused.
func (s *Server) read(r io.Reader) (raw []byte, held int64, err error) {
	var buf []byte
	for {
		if len(buf) == cap(buf) {
			// Doubling, as append would, up to a byte past the most a
			// mail may have (go-smtp refuses a larger one as it reads).
			size := min(max(2*held, 32<<10), s.opts.MaxBytes+1)
			if size <= held {
				return nil, held, errTooLarge
			}
			if !s.hold(size - held) {
				return nil, held, errBusy
			}
			// Not append: it would round the capacity up past what is held.
			buf = append(make([]byte, 0, size), buf...)
			held = size
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, held, nil
		}
		if err != nil {
			return nil, held, err
		}
	}
}

func (s *Server) hold(n int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n > s.memory {
		return false
	}
	s.memory -= n
	return true
}

func (s *Server) release(n int64) {
	s.mu.Lock()
	s.memory += n
	s.mu.Unlock()
}

// limitConns lets at most n connections of ln be open at once, each for
// at most d; Accept waits for one to close.
func limitConns(ln net.Listener, n int, d time.Duration) net.Listener {
	return &connLimit{Listener: ln, slots: make(chan struct{}, n), session: d}
}

type connLimit struct {
	net.Listener
	slots   chan struct{}
	session time.Duration
}

func (l *connLimit) Accept() (net.Conn, error) {
	l.slots <- struct{}{}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitedConn{Conn: c, free: func() { <-l.slots }, end: time.Now().Add(l.session)}, nil
}

type limitedConn struct {
	net.Conn
	once sync.Once
	free func()
	end  time.Time
}

// Read ends a session that has lasted its longest, between mails or in one.
func (c *limitedConn) Read(p []byte) (int, error) {
	if time.Now().After(c.end) {
		return 0, errSessionOver
	}
	return c.Conn.Read(p)
}

var errSessionOver = errors.New("lmtp: the session has lasted its longest")

func (c *limitedConn) Close() error {
	c.once.Do(c.free)
	return c.Conn.Close()
}

// Errors the MTA reads. A 4xx keeps the mail in its queue for a retry.
var (
	errBusy = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 2},
		Message: "Busy: too many mails wait to be stored; try again later"}
	errFull = &smtp.SMTPError{Code: 452, EnhancedCode: smtp.EnhancedCode{4, 3, 1},
		Message: "The game store is out of disk space; try again later"}
	errStore = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0},
		Message: "The mail could not be stored now; try again later"}
	errTooLarge = &smtp.SMTPError{Code: 552, EnhancedCode: smtp.EnhancedCode{5, 3, 4},
		Message: "The mail is larger than this server takes"}
	errClosed = &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 3, 2},
		Message: "The server is stopping; try again later"}
)

type backend struct{ s *Server }

func (b backend) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{s: b.s}, nil }

type session struct {
	s    *Server
	rcpt int
}

func (se *session) Reset()                               { se.rcpt = 0 }
func (se *session) Logout() error                        { return nil }
func (se *session) Mail(string, *smtp.MailOptions) error { return nil }

func (se *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	for _, r := range se.s.opts.Recipients {
		if strings.EqualFold(r, to) {
			se.rcpt++
			return nil
		}
	}
	return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1},
		Message: fmt.Sprintf("No mailbox %s here; this server takes mail for %s", to, strings.Join(se.s.opts.Recipients, ", "))}
}

// Data reads the mail and answers only after its commit. Every recipient
// is the service itself, so one answer holds for all.
func (se *session) Data(r io.Reader) (err error) {
	raw, held, err := se.s.read(r)
	defer se.s.release(held)
	if err != nil {
		return err
	}
	j := job{raw: raw, done: make(chan error, 1)}
	defer func() {
		if recover() != nil { // the jobs channel closed: the server stops
			err = errClosed
		}
	}()
	select {
	case se.s.jobs <- j:
	default:
		return errBusy
	}
	if err := <-j.done; err != nil {
		se.s.log.Error("lmtp: mail not stored", "err", err)
		if errors.Is(err, syscall.ENOSPC) {
			return errFull
		}
		return errStore
	}
	return nil
}
