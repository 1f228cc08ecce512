// Package lmtp lets a mail transfer agent (Postfix, OpenSMTPD, Dovecot's
// LDA) hand mail straight to the service over LMTP (RFC 2033), with no
// mailbox in between. A mail is acknowledged (250) once it is kept in the
// server's spool, synced to disk: the MTA may forget it, and hands over its
// next one at once. A worker then hands the mails waiting in the spool to
// the intake (pbem/intake), up to a batch in one call, so that a backlog
// costs one commit per batch however few connections bring it; the mails
// of one write to the spool come from every session waiting, in one sync.
// A mail that finds its worker quiet is handed to it at once and answered
// after its commit, with no spool write: a quiet server's player waits for
// one sync, not two. So is mail no trusted server vouches for, where
// Options.First picks some: a flood of it waits for its commits, its
// MTA keeping the rest, and takes no more than its worker's share.
// The intake decides on each: done, or answered and set aside, and the
// spool forgets it; told to retry, it is offered again after the wait.
// See spool for what a crash keeps.
//
// While the store takes no write (intake.Ready), a mail is not taken into
// the spool: it gets 451, or 452 when the disk is full, and the MTA keeps
// it; so it does when the spool cannot keep it, and when the mails waiting
// pass their bounds in number and in bytes.
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
	// Spool is the directory of the spool, the mails acknowledged and
	// not yet decided on (see spool); it is made when missing. Empty: no
	// spool, and a mail is answered once the intake has decided on it,
	// for a store shared by several nodes (etcd), where a mail left in
	// one node's spool would wait for that node, and could be overtaken
	// by a later one through another.
	Spool string
	// Queue is how many mails may be acknowledged and not yet decided
	// on, of those First picks and of the others apart (a flood of
	// forged mail does not keep a player's out); one more waits up to
	// Wait for room, then gets 451 (busy). Default 1,000.
	Queue int
	// Wait is how long a mail waits for room in the queue. Default 30 s,
	// well within an MTA's wait for its answer (Postfix: 10 minutes).
	Wait time.Duration
	// Batch is the most mails one transaction commits. Default 256.
	Batch int
	// Linger is how long a worker that just committed more than one mail
	// (a backlog is coming) waits for a whole batch before it takes the
	// next, when there is a spool: the mails are answered meanwhile, and
	// each commit of more of them costs less a mail. A mail alone does
	// not wait. Default 20 ms.
	Linger time.Duration
	// Quiet is how long a worker must have had nothing to do for a mail
	// to be handed to it at once and answered after its commit, with no
	// spool write (one sync, not two). Default Linger; negative: every
	// mail goes through the spool.
	Quiet time.Duration
	// Memory is the most bytes of mail held at once, read and not yet
	// decided on, in memory and in the spool's files; a mail that would
	// pass it gets 451 (busy). Default 64 MiB, and never below the
	// largest mail read (and a byte).
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
}

// A Server is a running LMTP listener.
type Server struct {
	opts    Options
	in      *intake.Intake
	srv     *smtp.Server
	ln      net.Listener
	spool   *spool
	jobs    chan job     // mails read, for the writer to spool
	jobsMu  sync.RWMutex // held to send to jobs (read) and to close it
	closed  bool         // jobs is closed: the server stops
	writing sync.WaitGroup
	wg      sync.WaitGroup
	closing sync.Once
	log     *slog.Logger

	mu     sync.Mutex
	memory int64 // bytes of mail that may still be held (Options.Memory)
	forged int64 // bytes the mails Options.First does not pick may still hold once read, where it picks some

	// The mails spooled wait for their worker: those Options.First picks
	// for one, the others for another, so that a player's vouched mail is
	// committed while a batch of forged mail has its passwords checked
	// (bcrypt, before the write lock).
	first, rest *queue
}

// A job is a mail read by a session, to be spooled.
type job struct {
	mail  intake.Mail
	held  int64 // bytes of the memory bound it holds
	first bool  // Options.First picked it, in its session's goroutine
	done  chan error
}

// A spooled mail waits for the worker.
type spooled struct {
	mail  intake.Mail
	first bool
	seg   *segment
	token bool // it holds a token of its queue's room
	// done, without a spool, is told the answer once the intake has
	// decided (nil: 250).
	done chan error
}

// Listen starts an LMTP server on opts.Addr that hands mail to in.
func Listen(opts Options, in *intake.Intake) (*Server, error) {
	if opts.Queue <= 0 {
		opts.Queue = 1000
	}
	if opts.Wait <= 0 {
		opts.Wait = 30 * time.Second
	}
	if opts.Batch <= 0 {
		opts.Batch = 256
	}
	if opts.Linger <= 0 {
		opts.Linger = 20 * time.Millisecond
	}
	if opts.Quiet == 0 {
		opts.Quiet = opts.Linger
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
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	var sp *spool
	var left []spooled
	if opts.Spool != "" {
		var err error
		if sp, left, err = openSpool(opts.Spool, opts.Logger); err != nil {
			return nil, fmt.Errorf("lmtp: %w", err)
		}
	}
	ln, err := listen(opts)
	if err != nil {
		sp.close()
		return nil, fmt.Errorf("lmtp: %w", err)
	}
	s := &Server{opts: opts, in: in, ln: ln, spool: sp, jobs: make(chan job, opts.Queue),
		log: opts.Logger, memory: opts.Memory, forged: opts.Memory / 2}
	s.first, s.rest = newQueue(opts.Queue), newQueue(opts.Queue)
	// The mails a previous run left are held against the bounds as far
	// as they go; the sessions wait until they are decided on.
	counted := map[*segment]bool{}
	for i, p := range left {
		if !counted[p.seg] {
			counted[p.seg] = true
			s.memory -= p.seg.held
		}
		left[i].first = opts.First != nil && opts.First(p.mail.Raw)
		left[i].token = s.queueOf(left[i].first).tryRoom()
	}
	if len(left) > 0 {
		s.log.Info("lmtp: mails left in the spool by the last run are handled again", "mails", len(left))
	}
	s.requeue(left)
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
	s.writing.Add(1)
	go func() { defer s.writing.Done(); s.write() }()
	s.wg.Add(3)
	go func() { defer s.wg.Done(); s.work(s.first, opts.Batch, nil) }()
	go func() { defer s.wg.Done(); s.work(s.rest, restBatch(opts), s.first) }()
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

// Close stops accepting connections, lets the mails acknowledged and
// waiting be decided on (not those waiting to be tried again: they stay
// in the spool for the next start) and returns once every session has
// ended. Only the first call does anything.
func (s *Server) Close() (err error) {
	s.closing.Do(func() { err = s.close() })
	return err
}

func (s *Server) close() error {
	err := s.srv.Close()
	// go-smtp closes the listener only once Serve has begun: a Close
	// right after Listen must close it itself.
	s.ln.Close()
	s.jobsMu.Lock()
	s.closed = true
	close(s.jobs)
	s.jobsMu.Unlock()
	s.writing.Wait()
	s.first.stop()
	s.rest.stop()
	s.wg.Wait()
	s.spool.close()
	return err
}

// write is the group write to the spool: every mail waiting, up to a
// batch, in one write and one sync, then each session is answered.
func (s *Server) write() {
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
		mails := make([]intake.Mail, len(batch))
		var held int64
		for i, j := range batch {
			mails[i], held = j.mail, held+j.held
		}
		seg, err := s.spool.add(mails, held)
		if err != nil {
			s.log.Error("lmtp: the spool cannot keep mail; the MTA keeps it", "err", err)
		} else {
			ps := make([]spooled, len(batch))
			for i, j := range batch {
				ps[i] = spooled{mail: j.mail, first: j.first, seg: seg, token: true}
			}
			s.requeue(ps)
		}
		for _, j := range batch {
			j.done <- refusal(err)
		}
	}
}

// requeue puts spooled mails in their workers' queues.
func (s *Server) requeue(ps []spooled) {
	var first, rest []spooled
	for _, p := range ps {
		if p.first {
			first = append(first, p)
		} else {
			rest = append(rest, p)
		}
	}
	s.first.put(first)
	s.rest.put(rest)
}

// queueOf is the queue of the mails Options.First picks, or of the others.
func (s *Server) queueOf(first bool) *queue {
	if first {
		return s.first
	}
	return s.rest
}

// restBatch is the most mails of one transaction of those Options.First
// does not pick, while it picks some: an eighth of a batch, so that a
// player's vouched mail waits for the write lock behind no more than
// that of a flood's.
func restBatch(opts Options) int {
	if opts.First == nil {
		return opts.Batch
	}
	return max(opts.Batch/8, 1)
}

// work hands the mails of q to the intake, up to batch in one call, and
// forgets each the intake decided on; one told to retry is offered again
// after its wait, and holds up no other.
//
// A worker with ahead set hands a batch over only while none waits in
// that queue nor is being handled, so that the two cores go to the players'
// mail first while a flood of forged mail keeps its worker busy.
func (s *Server) work(q *queue, most int, ahead *queue) {
	for {
		batch := q.take(most)
		if batch == nil {
			return
		}
		if ahead != nil {
			ahead.waitIdle()
		}
		mails := make([]intake.Mail, len(batch))
		for i, p := range batch {
			mails[i] = p.mail
		}
		for i, v := range s.in.Take(mails, intake.Apart) {
			p := batch[i]
			switch {
			case p.done != nil: // no spool: the session answers, and frees its bytes
				q.freeRoom()
				p.done <- reply(v)
				continue
			case v.Kind == intake.Retry:
				time.AfterFunc(v.After, func() { s.requeue([]spooled{p}) })
				continue
			}
			s.release(s.spool.decided(p.seg))
			if p.token {
				q.freeRoom()
			}
		}
		q.handled()
		if len(batch) > 1 && slices.ContainsFunc(batch, func(p spooled) bool { return p.done == nil }) {
			q.linger(most, s.opts.Linger)
		}
	}
}

// reply is the answer to a mail once the intake has decided on it: 250
// (nil) once handled, or answered and set aside; 451 or 452 when the MTA
// is to keep it and try again.
func reply(v intake.Verdict) error {
	if v.Kind != intake.Retry {
		return nil
	}
	return refusal(v.Err)
}

// refusal is the answer to a mail the server cannot take now, for err:
// 452 when a disk is full, else 451; nil for no error.
func refusal(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, syscall.ENOSPC):
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

// hold takes n bytes of the memory bound, unless fewer are left.
func (s *Server) hold(n int64) bool { return s.take(&s.memory, n) }

// release gives n bytes back to the memory bound.
func (s *Server) release(n int64) { s.give(&s.memory, n) }

// holdForged counts n bytes more of mail no trusted server vouches for,
// unless that passes its share of the memory bound.
func (s *Server) holdForged(n int64) bool { return s.take(&s.forged, n) }

func (s *Server) releaseForged(n int64) { s.give(&s.forged, n) }

// take takes n from the bytes left in *left, a count under s.mu, unless
// fewer are left.
func (s *Server) take(left *int64, n int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n > *left {
		return false
	}
	*left -= n
	return true
}

// give gives n back to *left, a count under s.mu.
func (s *Server) give(left *int64, n int64) {
	s.mu.Lock()
	*left += n
	s.mu.Unlock()
}

// Errors the MTA reads. A 4xx keeps the mail in its queue for a retry.
var (
	errBusy = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 2},
		Message: "Busy: too many mails wait to be stored; try again later"}
	errFull = &smtp.SMTPError{Code: 452, EnhancedCode: smtp.EnhancedCode{4, 3, 1},
		Message: "Out of disk space to keep the mail; try again later"}
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
	s    *Server
	conn *conn // nil when not served through the slots
	rcpt int
}

func (se *session) Reset() { se.rcpt = 0 }

func (se *session) Logout() error { return nil }

func (se *session) Mail(string, *smtp.MailOptions) error {
	se.progress()
	return nil
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

// Data reads the mail and answers once it is in the spool. Every
// recipient is the service itself, so one answer holds for all.
func (se *session) Data(r io.Reader) error {
	if se.conn != nil {
		se.conn.data(true) // not to be ended for a new connection meanwhile
		defer se.conn.data(false)
	}
	s := se.s
	if s.stopping() {
		return errClosed
	}
	if err := s.in.Ready(); err != nil {
		return refusal(err)
	}
	m, held, err := s.read(r, se.conn)
	if err != nil {
		s.release(held)
		return err
	}
	first := s.opts.First != nil && s.opts.First(m.Raw)
	// Mail no trusted server vouches for may hold half the memory bound
	// at most once read (where some is vouched for), so that a flood of
	// it, waiting for its worker, does not keep the players' mail out.
	forged := !first && s.opts.First != nil
	if forged && !s.holdForged(held) {
		s.release(held)
		return errBusy
	}
	q := s.queueOf(first)
	err = errBusy
	switch {
	case !q.waitRoom(s.opts.Wait):
	case s.spool == nil || forged || s.opts.Quiet > 0 && q.quiet(s.opts.Quiet):
		// Handed to the worker as is and answered once decided: without
		// a spool; mail no trusted server vouches for, so that a flood
		// of it waits for its commits (its MTA keeps the rest) and takes
		// no more of the cores than its worker's share; and a mail that
		// finds its worker with nothing to do, nothing done within
		// Quiet: one sync, the commit's, not the spool's as well.
		done := make(chan error, 1)
		q.put([]spooled{{mail: m, first: first, token: true, done: done}})
		err = <-done // the worker freed the room
	default:
		if err = s.spoolMail(job{mail: m, held: held, first: first, done: make(chan error, 1)}); err == nil {
			return nil // the spool holds the bytes now
		}
		q.freeRoom()
	}
	s.release(held)
	if forged {
		s.releaseForged(held)
	}
	return err
}

// spoolMail hands a mail read to the writer and returns its answer; on
// nil, the spool holds the mail and its bytes.
func (s *Server) spoolMail(j job) error {
	s.jobsMu.RLock()
	if s.closed {
		s.jobsMu.RUnlock()
		return errClosed
	}
	select {
	case s.jobs <- j:
	default:
		s.jobsMu.RUnlock()
		return errBusy
	}
	s.jobsMu.RUnlock()
	return <-j.done
}

// stopping reports whether the server stops: a session that outlives
// Close must not reach the store.
func (s *Server) stopping() bool {
	s.jobsMu.RLock()
	defer s.jobsMu.RUnlock()
	return s.closed
}

// A queue holds the spooled mails waiting for a worker, and the room
// for those that may be acknowledged and not yet decided on.
type queue struct {
	room    chan struct{} // a token for each mail acknowledged and not decided
	arrived chan struct{} // told when mails are put (see linger)

	mu       sync.Mutex
	cond     sync.Cond
	mails    []spooled
	working  bool      // the worker handles a batch taken
	last     time.Time // when the worker last handled a batch
	stopping bool      // the worker returns once none is left
}

func newQueue(room int) *queue {
	q := &queue{room: make(chan struct{}, room), arrived: make(chan struct{}, 1), last: time.Now()}
	q.cond.L = &q.mu
	return q
}

// waitRoom takes a token of room for a mail, waiting up to wait.
func (q *queue) waitRoom(wait time.Duration) bool {
	if q.tryRoom() {
		return true
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case q.room <- struct{}{}:
		return true
	case <-t.C:
		return false
	}
}

// tryRoom takes a token of room when there is one.
func (q *queue) tryRoom() bool {
	select {
	case q.room <- struct{}{}:
		return true
	default:
		return false
	}
}

// freeRoom gives back a token of room.
func (q *queue) freeRoom() { <-q.room }

// put adds mails to the queue; while the server stops they stay in the
// spool for the next start.
func (q *queue) put(ps []spooled) {
	if len(ps) == 0 {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.stopping {
		q.mails = append(q.mails, ps...)
		q.cond.Broadcast()
		select {
		case q.arrived <- struct{}{}:
		default:
		}
		return
	}
	for _, p := range ps {
		if p.done != nil {
			p.done <- errClosed
			if p.token {
				q.freeRoom()
			}
		}
	}
}

// take waits for mails and takes up to n of them; nil once the server
// stops and none is left.
func (q *queue) take(n int) []spooled {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.mails) == 0 {
		if q.stopping {
			return nil
		}
		q.cond.Wait()
	}
	n = min(n, len(q.mails))
	batch := slices.Clone(q.mails[:n])
	q.mails = q.mails[n:]
	q.working = true
	return batch
}

// handled notes that the worker is done with the batch it took.
func (q *queue) handled() {
	q.mu.Lock()
	q.working, q.last = false, time.Now()
	q.cond.Broadcast()
	q.mu.Unlock()
}

// quiet reports whether no mail is queued nor handled, and none was
// within gap.
func (q *queue) quiet(gap time.Duration) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return !q.working && len(q.mails) == 0 && time.Since(q.last) >= gap
}

// waitIdle waits until no mail is queued nor handled, or the server
// stops.
func (q *queue) waitIdle() {
	q.mu.Lock()
	for (q.working || len(q.mails) > 0) && !q.stopping {
		q.cond.Wait()
	}
	q.mu.Unlock()
}

// linger waits until n mails are queued, for d at most, or the server
// stops.
func (q *queue) linger(n int, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		q.mu.Lock()
		enough := len(q.mails) >= n || q.stopping
		q.mu.Unlock()
		if enough {
			return
		}
		select {
		case <-q.arrived:
		case <-t.C:
			return
		}
	}
}

// stop lets the worker return once the mails queued are taken.
func (q *queue) stop() {
	q.mu.Lock()
	q.stopping = true
	q.cond.Broadcast()
	q.mu.Unlock()
	select {
	case q.arrived <- struct{}{}:
	default:
	}
}
