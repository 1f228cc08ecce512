package lmtp

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// client is a raw LMTP connection from a chosen loopback address, to
// play a peer line by line.
type client struct {
	c  net.Conn
	br *bufio.Reader
}

// dialFrom connects to the server from the loopback address from (all of
// 127.0.0.0/8 is loopback on Linux), so that tests can play several peers,
// and reads the greeting; it fails the test unless greeted with 220.
func dialFrom(t *testing.T, s *Server, from string) *client {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	c, err := d.Dial("tcp", s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	cl := &client{c: c, br: bufio.NewReader(c)}
	if line := cl.line(); !strings.HasPrefix(line, "220") {
		t.Fatalf("a connection from %s was answered %q; want its 220 greeting", from, line)
	}
	return cl
}

// line reads one line, or returns the error as the line.
func (cl *client) line() string {
	cl.c.SetReadDeadline(time.Now().Add(10 * time.Second))
	l, err := cl.br.ReadString('\n')
	if err != nil {
		return "error: " + err.Error()
	}
	return strings.TrimRight(l, "\r\n")
}

// say sends a command and returns the answer's last line.
func (cl *client) say(cmd string) string {
	if _, err := fmt.Fprintf(cl.c, "%s\r\n", cmd); err != nil {
		return "error: " + err.Error()
	}
	for {
		l := cl.line()
		if len(l) < 4 || l[3] != '-' {
			return l
		}
	}
}

// alive reports whether the session still answers a NOOP.
func (cl *client) alive() bool { return strings.HasPrefix(cl.say("NOOP"), "250") }

// ended reports whether the session was ended with 421 (or closed).
func (cl *client) ended() bool {
	l := cl.line()
	return strings.HasPrefix(l, "421") || strings.HasPrefix(l, "error")
}

// 64 idle sessions kept open with NOOPs hold every slot: the MTA's next
// connection is greeted all the same, the session idle longest ending to
// make room, and its mail is delivered.
func TestIdleNoopersCannotHoldEverySlot(t *testing.T) {
	t.Parallel()
	r := &recorder{}
	s := start(t, r, Options{Conns: 64, PerPeer: 64})
	var noopers []*client
	for range 64 {
		cl := dialFrom(t, s, "127.0.0.2")
		if !cl.alive() {
			t.Fatal("a NOOP session within the bound was ended")
		}
		noopers = append(noopers, cl)
	}
	if err := send(t, s.Addr(), "pbem@example.org", "from the MTA"); err != nil {
		t.Fatalf("the MTA's mail while 64 NOOP sessions are open: %v; want it delivered", err)
	}
	if !noopers[0].ended() {
		t.Error("the session idle longest still holds its slot; want it ended with 421")
	}
	for i, cl := range noopers[1:] {
		if !cl.alive() {
			t.Fatalf("NOOP session %d ended; want only the idlest ended", i+1)
		}
	}
}

// One peer opening many connections holds at most PerPeer sessions: each
// new one ends that peer's idlest, never another peer's.
func TestOnePeerBoundedInSessions(t *testing.T) {
	t.Parallel()
	s := start(t, &recorder{}, Options{Conns: 8}) // three quarters each: 6
	var others []*client
	for range 2 {
		cl := dialFrom(t, s, "127.0.0.3")
		cl.say("LHLO mta.example.org")
		others = append(others, cl)
	}
	var flood []*client
	for range 20 {
		flood = append(flood, dialFrom(t, s, "127.0.0.2"))
	}
	for i, cl := range flood[:14] {
		if !cl.ended() {
			t.Fatalf("flooding session %d was not ended; want at most 6 of the peer's open", i)
		}
	}
	for i, cl := range flood[14:] {
		if !cl.alive() {
			t.Errorf("the flooding peer's session %d of its last 6 was ended", 14+i)
		}
	}
	for i, cl := range others {
		if !cl.alive() {
			t.Errorf("the other peer's session %d was ended by the flood", i)
		}
	}
}

// NOOP, RSET and LHLO are no progress: a session that sends only those
// ends once Idle has passed; one that gets on with a mail stays.
func TestIdleIsNoProgressWithAMail(t *testing.T) {
	t.Parallel()
	s := start(t, &recorder{}, Options{Idle: 500 * time.Millisecond})
	noop := dialFrom(t, s, "127.0.0.1")
	busy := dialFrom(t, s, "127.0.0.1")
	busy.say("LHLO mta.example.org")
	noopEnded := false
	for range 40 { // 2 s, four times Idle
		if !noopEnded {
			for _, cmd := range []string{"NOOP", "RSET", "LHLO mta.example.org"} {
				if l := noop.say(cmd); !strings.HasPrefix(l, "250") {
					noopEnded = true
					break
				}
			}
		}
		if l := busy.say("MAIL FROM:<alice@example.org>"); !strings.HasPrefix(l, "250") {
			t.Fatalf("a session getting on with mail was answered %q; want it kept", l)
		}
		busy.say("RSET")
		time.Sleep(50 * time.Millisecond)
	}
	if !noopEnded {
		t.Error("a session of NOOP, RSET and LHLO outlived four times Idle; want it ended")
	}
}

// A session passing a mail's data is never ended for a new connection:
// with every slot passing mail, the new connection is refused with 421
// for the MTA to try again.
func TestSessionPassingMailKeepsItsSlot(t *testing.T) {
	t.Parallel()
	l := newSlots(nil, 1, 1, time.Minute, time.Minute)
	busy := &conn{slots: l, peer: "a", last: time.Now()}
	busy.data(true)
	l.open[busy] = true
	var wg sync.WaitGroup
	for _, peer := range []string{"a", "b"} {
		wg.Go(func() {
			if why := l.admit(&conn{slots: l, peer: peer}); !strings.HasPrefix(why, "421 ") {
				t.Errorf("a connection from %s while the one slot passes a mail: %q; want 421", peer, why)
			}
		})
	}
	wg.Wait()
	if !l.open[busy] || busy.evicted {
		t.Error("the session passing a mail lost its slot")
	}
}
