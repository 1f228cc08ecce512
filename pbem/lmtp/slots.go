package lmtp

import (
	"fmt"
	"net"
	"sync"
	"time"
)

// slots is a listener that bounds the sessions open at once, in all and
// per peer, and keeps a slot for a new connection: when every slot (or
// every slot of the new connection's peer) is taken, the session idle
// longest, and not in the middle of a mail's data, is ended to greet the
// new one. Only when every such session is passing a mail is the new
// connection refused, with 421, for the MTA to try again.
//
// A session is idle while it makes no progress with a mail (MAIL, RCPT,
// DATA and the data's bytes): NOOP, RSET and LHLO do not count, so that
// sessions kept open with NOOPs cannot hold the slots. A session idle for
// idle, or open for session, is ended with go-smtp's 421 answer to a read
// timeout.
type slots struct {
	net.Listener
	most, perPeer int
	idle, session time.Duration

	mu   sync.Mutex
	open map[*conn]bool
}

func newSlots(ln net.Listener, most, perPeer int, idle, session time.Duration) *slots {
	return &slots{Listener: ln, most: most, perPeer: perPeer, idle: idle, session: session, open: map[*conn]bool{}}
}

// Accept returns the next connection given a slot, ending the idlest
// session where it needs one, and refuses those that cannot have one.
func (l *slots) Accept() (net.Conn, error) {
	for {
		raw, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		now := time.Now()
		c := &conn{Conn: raw, slots: l, peer: peerOf(raw), last: now, end: now.Add(l.session)}
		if why := l.admit(c); why != "" {
			go refuse(raw, why)
			continue
		}
		return c, nil
	}
}

// admit gives c a slot, or says why it gets none.
func (l *slots) admit(c *conn) (refused string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	mine := 0
	for o := range l.open {
		if o.peer == c.peer {
			mine++
		}
	}
	need, of := false, ""
	switch {
	case mine >= l.perPeer:
		need, of = true, c.peer
		refused = fmt.Sprintf("421 4.7.0 Too many connections from you (at most %d); try again later", l.perPeer)
	case len(l.open) >= l.most:
		need = true
		refused = fmt.Sprintf("421 4.3.2 All %d connections are passing mail; try again later", l.most)
	}
	if need {
		victim := l.idlest(of)
		if victim == nil {
			return refused
		}
		delete(l.open, victim)
		victim.evict()
	}
	l.open[c] = true
	return ""
}

// idlest is the open session, of the peer when not empty, that made no
// progress for longest and is not passing a mail's data.
func (l *slots) idlest(peer string) *conn {
	var best *conn
	var since time.Time
	for o := range l.open {
		if peer != "" && o.peer != peer {
			continue
		}
		o.mu.Lock()
		last, busy := o.last, o.inData
		o.mu.Unlock()
		if !busy && (best == nil || last.Before(since)) {
			best, since = o, last
		}
	}
	return best
}

// free gives c's slot back, unless it was taken from it.
func (l *slots) free(c *conn) {
	l.mu.Lock()
	delete(l.open, c)
	l.mu.Unlock()
}

// refuse answers a connection that gets no slot and closes it, not
// waiting long for a peer that does not read.
func refuse(c net.Conn, line string) {
	c.SetWriteDeadline(time.Now().Add(time.Second))
	fmt.Fprintf(c, "%s\r\n", line)
	c.Close()
}

// A conn is a session's connection, holding its slot until closed.
type conn struct {
	net.Conn
	slots *slots
	peer  string
	end   time.Time // the session's longest
	once  sync.Once

	mu       sync.Mutex
	last     time.Time // its last progress with a mail
	inData   bool      // passing a mail's data, or waiting for its commit
	deadline time.Time // the read deadline go-smtp set, or zero
	evicted  bool      // its slot went to a new connection
}

// progress notes that the session got on with a mail.
func (c *conn) progress() {
	c.mu.Lock()
	c.last = time.Now()
	c.mu.Unlock()
}

// data marks the session as passing a mail (in), or done with it.
func (c *conn) data(in bool) {
	c.mu.Lock()
	c.inData = in
	c.last = time.Now()
	c.mu.Unlock()
}

// SetReadDeadline keeps go-smtp's deadline for Read, which applies the
// earliest of it, the idle limit and the session's end.
func (c *conn) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	c.deadline = t
	c.mu.Unlock()
	return nil
}

func (c *conn) SetDeadline(t time.Time) error {
	c.SetReadDeadline(t)
	return c.Conn.SetWriteDeadline(t)
}

func (c *conn) Read(p []byte) (int, error) {
	c.mu.Lock()
	d := c.last.Add(c.slots.idle)
	if c.end.Before(d) {
		d = c.end
	}
	if !c.deadline.IsZero() && c.deadline.Before(d) {
		d = c.deadline
	}
	if c.evicted {
		d = time.Unix(1, 0)
	}
	err := c.Conn.SetReadDeadline(d)
	c.mu.Unlock()
	if err != nil {
		return 0, err
	}
	return c.Conn.Read(p)
}

// evict ends the session at its next read, or the one it waits in: go-smtp
// answers the timeout with 421 and closes the connection.
func (c *conn) evict() {
	c.mu.Lock()
	c.evicted = true
	c.Conn.SetReadDeadline(time.Unix(1, 0))
	c.mu.Unlock()
}

func (c *conn) Close() error {
	c.once.Do(func() { c.slots.free(c) })
	return c.Conn.Close()
}

// peerOf names the peer of a connection, for the bound per peer: the
// remote IP address over TCP, the user id of the process (SO_PEERCRED)
// on a Unix socket where the system tells it.
func peerOf(c net.Conn) string {
	switch a := c.RemoteAddr().(type) {
	case *net.TCPAddr:
		return a.IP.String()
	}
	if uc, ok := c.(*net.UnixConn); ok {
		return unixPeer(uc)
	}
	return "local"
}
