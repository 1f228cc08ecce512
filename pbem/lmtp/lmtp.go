// Package lmtp lets a mail transfer agent (Postfix, OpenSMTPD, Dovecot's
// LDA) hand mail straight to the service over LMTP (RFC 2033), with no
// mailbox in between. A mail is acknowledged only after the intake
// (pbem/intake) has decided on it: 250 once it is committed, or answered
// and set aside (a mail that can never be handled, or one over the largest
// size read, is not left in the MTA's queue to bounce); 451 or 452 when it
// is to be tried again, and the MTA keeps it.
//
// Mails arriving together are committed together (group commit): one
// goroutine takes every mail waiting, up to a batch, and the mails of the
// sessions that have begun one (see gather), and hands them to the intake
// in one call, so a burst costs one disk sync per batch.
//
// The sessions are bounded in all and per peer, an idle session (NOOPs do
// not count) ends, and a new connection always finds a slot: see slots.
package lmtp

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/user"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/pbemd/pbemd/pbem/intake"
)

// Options configure a Server. Zero fields take the defaults named.
type Options struct {
	// Addr is a host:port, or the path of a Unix socket when it begins
	// with "/".
	Addr string
	// First, when set, picks the mails of a batch that are committed in
	// a transaction of their own ahead of the others: mail a trusted
	// server vouches for, so that a flood of forged mail does not make
	// the players' mail wait behind it.
	First func(raw []byte) bool
	// SocketMode is the permission bits of the Unix socket; default
	// 0660, so that the MTA's group may connect.
	SocketMode os.FileMode
	// SocketGroup is the group (a name or a number) of the Unix socket;
	// default "postfix" where that group exists, else the process's.
	SocketGroup string
	// Recipients are the addresses mail is accepted for (the server's
	// own); any other is refused for good.
	Recipients []string
	// Queue is how many mails may wait for their commit; one more gets
	// 451 (busy) at once. Default 1,000.
	Queue int
	// Batch is the most mails one transaction commits. Default 256.
	Batch int
	// Memory is the most bytes of mail held at once, read and not yet
	// committed; a mail that would pass it gets 451 (busy). Default
	// 64 MiB, and never below the largest mail read (and a byte).
	Memory int64
	// Conns is the most sessions at once. Default 64.
	Conns int
	// PerPeer is the most sessions of one peer (a remote IP address, or
	// the user id on a Unix socket). Default three quarters of Conns.
	PerPeer int
	// Idle is how long a session may make no progress with a mail (MAIL,
	// RCPT, DATA) before it ends; NOOP, RSET and LHLO do not count.
	// Default 2 minutes.
	Idle time.Duration
	// Session is the longest a session lasts, far more than an MTA needs
	// for the mails of one connection. Default 15 minutes.
	Session time.Duration
	// Domain is the name the server greets with; default "localhost".
	Domain string
	Logger *slog.Logger
	// Gather is the longest a commit waits for the mails of sessions that
	// have begun one (MAIL given) and not yet handed it over, so that a
	// backlog over few connections commits them together. Default 5 ms:
	// a fraction of a commit's fsync; a lone mail never waits.
	Gather time.Duration
}

// A Server is a running LMTP listener.
type Server struct {
	opts Options
	in   *intake.Intake
	srv  *smtp.Server
	ln   net.Listener
	jobs chan job
	wg   sync.WaitGroup
	log  *slog.Logger

	mu     sync.Mutex
	memory int64 // bytes of mail that may still be held (Options.Memory)

	begun atomic.Int64  // sessions between MAIL and their mail queued
	ended chan struct{} // told when a begun session hands over or gives up
}

type job struct {
	mail  intake.Mail
	done  chan error
	first bool // Options.First picked it, in its session's goroutine
}

// Listen starts an LMTP server on opts.Addr that hands mail to in.
func Listen(opts Options, in *intake.Intake) (*Server, error) {
	if opts.Queue <= 0 {
		opts.Queue = 1000
	}
	if opts.Batch <= 0 {
		opts.Batch = 256
	}
	if opts.Memory <= 0 {
		opts.Memory = 64 << 20
	}
	opts.Memory = max(opts.Memory, in.Largest()+1)
	if opts.Conns <= 0 {
		opts.Conns = 64
	}
	if opts.PerPeer <= 0 {
		opts.PerPeer = max(opts.Conns*3/4, 1)
	}
	if opts.Idle <= 0 {
		opts.Idle = 2 * time.Minute
	}
	if opts.Session <= 0 {
		opts.Session = 15 * time.Minute
	}
	if opts.SocketMode == 0 {
		opts.SocketMode = 0o660
	}
	if opts.Domain == "" {
		opts.Domain = "localhost"
	}
	if opts.Gather <= 0 {
		opts.Gather = 5 * time.Millisecond
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	ln, err := listen(opts)
	if err != nil {
		return nil, fmt.Errorf("lmtp: %w", err)
	}
	s := &Server{opts: opts, in: in, ln: ln, jobs: make(chan job, opts.Queue), log: opts.Logger,
		memory: opts.Memory, ended: make(chan struct{}, 1)}
	s.srv = smtp.NewServer(backend{s})
	s.srv.LMTP = true
	s.srv.Domain = opts.Domain
	// No size is refused: a mail over what the intake reads is read on,
	// only its beginning kept, and answered (see read).
	s.srv.MaxMessageBytes = 0
	s.srv.MaxRecipients = 10
	// RFC 5321 gives a client 5 minutes for a command, and go-smtp reads
	// a whole mail's data within one such wait; the slots end idle
	// sessions sooner (Options.Idle).
	s.srv.ReadTimeout = 5 * time.Minute
	s.srv.WriteTimeout = time.Minute
	s.wg.Add(2)
	go func() { defer s.wg.Done(); s.commit() }()
	go func() {
		defer s.wg.Done()
		l := newSlots(ln, opts.Conns, opts.PerPeer, opts.Idle, opts.Session)
		if err := s.srv.Serve(l); err != nil && !errors.Is(err, smtp.ErrServerClosed) {
			s.log.Error("lmtp: serve", "err", err)
		}
	}()
	return s, nil
}

// listen opens the TCP or Unix socket, the latter with the mode and group
// the options say, so that the MTA may connect whatever the umask.
func listen(opts Options) (net.Listener, error) {
	if !strings.HasPrefix(opts.Addr, "/") {
		return net.Listen("tcp", opts.Addr)
	}
	gid, err := socketGroup(opts.SocketGroup)
	if err != nil {
		return nil, err
	}
	os.Remove(opts.Addr) // a socket left by a previous run
	ln, err := net.Listen("unix", opts.Addr)
	if err != nil {
		return nil, err
	}
	if err := giveToGroup(opts.Addr, gid); err != nil {
		err = fmt.Errorf("giving the socket to group %d: %w (pbemd must be a member of the group, and may not be kept from chown)", gid, err)
		if opts.SocketGroup != "" {
			ln.Close()
			return nil, err
		}
		// Only the default could not be had: pbemd still serves IMAP,
		// and says how to let the MTA in.
		opts.Logger.Warn("lmtp: the socket keeps pbemd's group, so the MTA may not connect; set lmtp.socket_group to a group of pbemd's that the MTA is in", "err", err)
	}
	if err := os.Chmod(opts.Addr, opts.SocketMode.Perm()); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

// giveToGroup makes gid the group of the file, unless it is already.
func giveToGroup(path string, gid int) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if g, ok := fileGroup(fi); ok && g == gid {
		return nil // no chown, which a sandbox may forbid
	}
	return os.Chown(path, -1, gid)
}

// socketGroup is the id of the group named (a name or a number), or by
// default of "postfix" where it exists, else of the process.
func socketGroup(name string) (int, error) {
	if name == "" {
		if g, err := user.LookupGroup("postfix"); err == nil {
			return strconv.Atoi(g.Gid)
		}
		return os.Getgid(), nil
	}
	if id, err := strconv.Atoi(name); err == nil && id >= 0 {
		return id, nil
	}
	g, err := user.LookupGroup(name)
	if err != nil {
		return 0, fmt.Errorf("socket_group %q: %w; want a group name or number", name, err)
	}
	return strconv.Atoi(g.Gid)
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
// call of the intake. The mails of a batch come from several sessions and
// are unrelated: one told to retry holds up no other.
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
		batch = s.gather(batch)
		first, rest := batch, []job(nil)
		if s.opts.First != nil {
			first = nil
			for _, j := range batch {
				if j.first {
					first = append(first, j)
				} else {
					rest = append(rest, j)
				}
			}
		}
		s.take(first)
		s.take(rest)
	}
}

// gather adds to the batch the mails of the sessions that have begun one,
// as they come, until none is left, the batch is full or Options.Gather
// has passed. An MTA hands a backlog over on few connections, one mail at
// a time on each (go-smtp reads a connection's next command only after
// answering its DATA): without it, the mails of a connection that answered
// a moment late would wait for the next commit, and batches would stay at
// a fraction of the connections. A lone mail, with no other begun, does
// not wait, nor does a mail that Options.First picks (a player's, under
// a flood whose sessions are always begun); a session that begins a mail
// and stalls holds a commit for Gather at most.
func (s *Server) gather(batch []job) []job {
	if s.begun.Load() == 0 || len(batch) >= s.opts.Batch || slices.ContainsFunc(batch, func(j job) bool { return j.first }) {
		return batch
	}
	timer := time.NewTimer(s.opts.Gather)
	defer timer.Stop()
	for len(batch) < s.opts.Batch && s.begun.Load() > 0 {
		select {
		case j, ok := <-s.jobs:
			if !ok {
				return batch
			}
			batch = append(batch, j)
			if j.first {
				return batch
			}
		case <-s.ended:
		case <-timer.C:
			return batch
		}
	}
	return batch
}

// take hands a batch to the intake in one go and answers each mail.
func (s *Server) take(batch []job) {
	if len(batch) == 0 {
		return
	}
	mails := make([]intake.Mail, len(batch))
	for i, j := range batch {
		mails[i] = j.mail
	}
	for i, v := range s.in.Take(mails, intake.Apart) {
		batch[i].done <- reply(v)
	}
}

// reply maps the intake's verdict on a mail to the answer the MTA reads:
// nil (250) once the mail is handled or answered and set aside, 451 or 452
// when the MTA should keep it and try again.
func reply(v intake.Verdict) error {
	if v.Kind != intake.Retry {
		return nil
	}
	if errors.Is(v.Err, syscall.ENOSPC) {
		return errFull
	}
	return errStore
}

// read reads a mail, holding its bytes against the server's memory as it
// goes: when the mail would pass what is left, reading stops with 451 and
// the MTA tries again later. Of a mail over what the intake reads it keeps
// the beginning and counts the rest. It returns the mail and the bytes
// held, to release once the mail is committed or refused. Each chunk read
// is progress of the session (c may be nil).
func (s *Server) read(r io.Reader, c *conn) (m intake.Mail, held int64, err error) {
	keep := s.in.Largest() + 1
	var buf []byte
	for {
		if len(buf) == cap(buf) && int64(len(buf)) < keep {
			// Doubling, as append would, up to a byte past the most a
			// mail may have.
			size := min(max(2*held, 4<<10), keep)
			if !s.hold(size - held) {
				return m, held, errBusy
			}
			// Not append: it would round the capacity up past what is held.
			buf = append(make([]byte, 0, size), buf...)
			held = size
		}
		if len(buf) == cap(buf) {
			rest, err := io.Copy(io.Discard, progressReader{r, c})
			if err != nil {
				return m, held, err
			}
			return intake.Mail{Raw: buf, Size: int64(len(buf)) + rest}, held, nil
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if c != nil {
			c.progress()
		}
		if err == io.EOF {
			return intake.Mail{Raw: buf}, held, nil
		}
		if err != nil {
			return m, held, err
		}
	}
}

// progressReader notes each read as progress of the session.
type progressReader struct {
	r io.Reader
	c *conn
}

func (p progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if p.c != nil {
		p.c.progress()
	}
	return n, err
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

// Errors the MTA reads. A 4xx keeps the mail in its queue for a retry.
var (
	errBusy = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 2},
		Message: "Busy: too many mails wait to be stored; try again later"}
	errFull = &smtp.SMTPError{Code: 452, EnhancedCode: smtp.EnhancedCode{4, 3, 1},
		Message: "The game store is out of disk space; try again later"}
	errStore = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0},
		Message: "The mail could not be stored now; try again later"}
	errClosed = &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 3, 2},
		Message: "The server is stopping; try again later"}
)

type backend struct{ s *Server }

func (b backend) NewSession(c *smtp.Conn) (smtp.Session, error) {
	conn, _ := c.Conn().(*conn)
	return &session{s: b.s, conn: conn}, nil
}

type session struct {
	s     *Server
	conn  *conn // nil when not served through the slots
	rcpt  int
	begun bool // counted in Server.begun
}

func (se *session) Reset() {
	se.rcpt = 0
	se.finish()
}

func (se *session) Logout() error {
	se.finish()
	return nil
}

func (se *session) Mail(string, *smtp.MailOptions) error {
	se.progress()
	if !se.begun {
		se.begun = true
		se.s.begun.Add(1)
	}
	return nil
}

// finish ends the session's count among those a commit gathers for.
func (se *session) finish() {
	if !se.begun {
		return
	}
	se.begun = false
	se.s.begun.Add(-1)
	select {
	case se.s.ended <- struct{}{}:
	default: // the commit has a wake-up waiting already
	}
}

// progress notes that the session got on with a mail (see slots).
func (se *session) progress() {
	if se.conn != nil {
		se.conn.progress()
	}
}

func (se *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	for _, r := range se.s.opts.Recipients {
		if strings.EqualFold(r, to) {
			se.rcpt++
			se.progress()
			return nil
		}
	}
	return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1},
		Message: fmt.Sprintf("No mailbox %s here; this server takes mail for %s", to, strings.Join(se.s.opts.Recipients, ", "))}
}

// Data reads the mail and answers only after its commit. Every recipient
// is the service itself, so one answer holds for all.
func (se *session) Data(r io.Reader) (err error) {
	if se.conn != nil {
		se.conn.data(true) // not to be ended for a new connection meanwhile
		defer se.conn.data(false)
	}
	m, held, err := se.s.read(r, se.conn)
	defer se.s.release(held)
	if err != nil {
		se.finish()
		return err
	}
	j := job{mail: m, done: make(chan error, 1), first: se.s.opts.First != nil && se.s.opts.First(m.Raw)}
	defer func() {
		if recover() != nil { // the jobs channel closed: the server stops
			err = errClosed
		}
	}()
	select {
	case se.s.jobs <- j:
	default:
		se.finish()
		return errBusy
	}
	se.finish()
	return <-j.done
}
