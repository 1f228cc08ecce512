package outbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/mailconn"
)

// scripted is an SMTP server that offers the extensions it is given and
// checks how a mail's commands come: with PIPELINING it answers none of
// them before it has read the last (BDAT with its chunk, or DATA), so a
// client that waits for an answer between them is caught by its read's
// deadline. Without PIPELINING it answers each at once and fails a
// command that comes before the answer to the one before.
type scripted struct {
	ext       []string
	refuse    string // a recipient RCPT refuses with 550
	closing   bool   // MAIL is answered 421 and the connection closed
	ln        net.Listener
	mu        sync.Mutex
	mails     [][]byte
	errs      []error
	conns     int
	wg        sync.WaitGroup
	pipelined bool
}

func startScripted(t *testing.T, ext ...string) *scripted {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &scripted{ext: ext, ln: ln}
	for _, e := range ext {
		s.pipelined = s.pipelined || e == "PIPELINING"
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns++
			s.mu.Unlock()
			s.wg.Add(1)
			go func() { defer s.wg.Done(); s.fail(s.serve(c)) }()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		s.wg.Wait()
		for _, err := range s.errs {
			t.Error(err)
		}
	})
	return s
}

func (s *scripted) fail(err error) {
	if err != nil && !errors.Is(err, io.EOF) {
		s.mu.Lock()
		s.errs = append(s.errs, err)
		s.mu.Unlock()
	}
}

func (s *scripted) serve(c net.Conn) error {
	defer c.Close()
	text := textproto.NewConn(c)
	answer := func(lines ...string) error {
		for _, l := range lines {
			if err := text.PrintfLine("%s", l); err != nil {
				return err
			}
		}
		return nil
	}
	read := func() (string, error) {
		c.SetReadDeadline(time.Now().Add(2 * time.Second))
		return text.ReadLine()
	}
	if err := answer("220 scripted ESMTP"); err != nil {
		return err
	}
	for {
		c.SetReadDeadline(time.Time{})
		line, err := text.ReadLine()
		if err != nil {
			return err
		}
		if !s.pipelined && text.R.Buffered() > 0 {
			return fmt.Errorf("%q came with the next command before its answer, to a server without PIPELINING", line)
		}
		verb := strings.ToUpper(strings.Fields(line + " x")[0])
		switch verb {
		case "EHLO":
			lines := []string{"250-scripted"}
			for _, e := range s.ext {
				lines = append(lines, "250-"+e)
			}
			err = answer(append(lines, "250 SIZE 10000000")...)
		case "NOOP", "RSET":
			err = answer("250 2.0.0 OK")
		case "QUIT":
			answer("221 2.0.0 bye")
			return nil
		case "MAIL":
			if s.closing {
				answer("421 4.3.2 shutting down")
				return nil
			}
			err = s.mail(line, text, read, answer)
		default:
			err = answer("502 5.5.1 not here")
		}
		if err != nil {
			return err
		}
	}
}

// mail takes one transaction from its MAIL command on.
func (s *scripted) mail(line string, text *textproto.Conn, read func() (string, error), answer func(...string) error) error {
	var answers []string
	reply := func(a string) error {
		if s.pipelined {
			answers = append(answers, a) // held until the last command
			return nil
		}
		return answer(a)
	}
	next := func(what string) (string, error) {
		if !s.pipelined && text.R.Buffered() > 0 {
			return "", fmt.Errorf("a command came before the answer to %s, to a server without PIPELINING", what)
		}
		l, err := read()
		if err != nil {
			return "", fmt.Errorf("waiting for the command after %s: %w (did the client wait for an answer?)", what, err)
		}
		return l, nil
	}
	if err := reply("250 2.1.0 sender OK"); err != nil {
		return err
	}
	refused := false
	for {
		l, err := next(line)
		if err != nil {
			return err
		}
		line = l
		if !strings.HasPrefix(strings.ToUpper(l), "RCPT TO:") {
			break
		}
		if s.refuse != "" && strings.Contains(l, s.refuse) {
			refused = true
			err = reply("550 5.1.1 no such user")
		} else {
			err = reply("250 2.1.5 recipient OK")
		}
		if err != nil {
			return err
		}
	}
	upper := strings.ToUpper(line)
	switch {
	case upper == "RSET": // the client gave up the mail
		return answer(append(answers, "250 2.0.0 OK")...)
	case strings.HasPrefix(upper, "BDAT ") && strings.HasSuffix(upper, " LAST"):
		n, err := strconv.Atoi(strings.Fields(line)[1])
		if err != nil {
			return err
		}
		data := make([]byte, n)
		if _, err := io.ReadFull(text.R, data); err != nil {
			return err
		}
		if refused {
			return answer(append(answers, "554 5.5.1 no valid recipients")...)
		}
		s.keep(data)
		return answer(append(answers, "250 2.0.0 queued")...)
	case upper == "DATA":
		if refused {
			return answer(append(answers, "554 5.5.1 no valid recipients")...)
		}
		if err := answer(append(answers, "354 go ahead")...); err != nil {
			return err
		}
		// Read as sent, CRLF kept (textproto's reader gives LF).
		var data []byte
		for {
			l, err := text.R.ReadBytes('\n')
			if err != nil {
				return err
			}
			if string(l) == ".\r\n" {
				break
			}
			data = append(data, bytes.TrimPrefix(l, []byte("."))...)
		}
		s.keep(data)
		return answer("250 2.0.0 queued")
	}
	return fmt.Errorf("after the recipients: %q, want BDAT or DATA", line)
}

func (s *scripted) keep(data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mails = append(s.mails, data)
}

func (s *scripted) got() ([][]byte, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mails, s.conns
}

// A mail's commands go to a server that offers PIPELINING together, with
// its content in BDAT when it offers CHUNKING too and after DATA when not
// (dot-stuffed), and one at a time to a server that offers neither; the
// mail arrives as it was written each way. A recipient refused leaves the
// connection ready for the next mail.
func TestSendPipelinesTheMail(t *testing.T) {
	t.Parallel()
	mail := []byte("From: pbem@localhost\r\nTo: p@localhost\r\nSubject: Tanbo Board 101\r\n\r\n.a line with a dot\r\n..two\r\nthe end\r\n")
	for _, c := range []struct {
		name string
		ext  []string
	}{
		{"pipelining and chunking", []string{"PIPELINING", "CHUNKING", "8BITMIME"}},
		{"pipelining", []string{"PIPELINING"}},
		{"neither", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := startScripted(t, c.ext...)
			srv.refuse = "nobody@"
			tr := &SMTP{Addr: srv.ln.Addr().String(), Security: mailconn.Plain, Timeout: 10 * time.Second}
			defer tr.Close()
			ctx := context.Background()
			if err := tr.Send(ctx, "pbem@localhost", []string{"p@localhost"}, mail); err != nil {
				t.Fatal(err)
			}
			var re *RejectedError
			if err := tr.Send(ctx, "pbem@localhost", []string{"nobody@localhost"}, mail); !errors.As(err, &re) || !strings.Contains(err.Error(), "550") {
				t.Errorf("a mail to a recipient refused with 550: %v; want it refused permanently, saying why", err)
			}
			if err := tr.Send(ctx, "pbem@localhost", []string{"q@localhost"}, mail); err != nil {
				t.Fatalf("the mail after a refused one: %v", err)
			}
			tr.Close()
			mails, conns := srv.got()
			if len(mails) != 2 || !bytes.Equal(mails[0], mail) || !bytes.Equal(mails[1], mail) {
				t.Errorf("the server got %q; want the mail twice, as written", mails)
			}
			if conns != 1 {
				t.Errorf("%d connections; want the three mails over one", conns)
			}
		})
	}
}

// A mail with a bare line feed goes after DATA, which sends it with CRLF,
// even to a server that takes BDAT: BDAT would send it unchanged.
func TestSendMendsBareLineFeeds(t *testing.T) {
	t.Parallel()
	srv := startScripted(t, "PIPELINING", "CHUNKING")
	tr := &SMTP{Addr: srv.ln.Addr().String(), Security: mailconn.Plain, Timeout: 10 * time.Second}
	if err := tr.Send(context.Background(), "pbem@localhost", []string{"p@localhost"}, []byte("Subject: x\n\nbody\n")); err != nil {
		t.Fatal(err)
	}
	tr.Close()
	if mails, _ := srv.got(); len(mails) != 1 || string(mails[0]) != "Subject: x\r\n\r\nbody\r\n" {
		t.Errorf("the server got %q; want the mail with CRLF line ends", mails)
	}
}

// A server's answer with no line end, or of lines without end, is cut
// off, not read without bound.
func TestSendBoundsTheServersAnswers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, line, want string
	}{
		{"a long line", "x", "longer than"},
		{"endless lines", "220-x\r\n", "more than"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			answerWithout(t, c.line, c.want)
		})
	}
}

// answerWithout has a server greet with line repeated to a megabyte, and
// checks that the error of the mail sent to it says want.
func answerWithout(t *testing.T, line, want string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		c.Write([]byte("220-"))
		c.Write(bytes.Repeat([]byte(line), (1<<20)/len(line)))
		time.Sleep(5 * time.Second)
	}()
	tr := &SMTP{Addr: ln.Addr().String(), Security: mailconn.Plain, Timeout: 10 * time.Second}
	err = tr.Send(context.Background(), "pbem@localhost", []string{"p@localhost"}, []byte("Subject: x\r\n\r\n"))
	var ce *ConnectionError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), want) {
		t.Errorf("a greeting of a megabyte: %v; want a connection error that says %q", err, want)
	}
}

// A server that answers a pipelined mail's MAIL with 421 and closes is a
// connection that failed with an answer, whatever the commands sent
// after it met.
func TestSendMeetsAServerClosing(t *testing.T) {
	t.Parallel()
	srv := startScripted(t, "PIPELINING", "CHUNKING")
	srv.closing = true
	tr := &SMTP{Addr: srv.ln.Addr().String(), Security: mailconn.Plain, Timeout: 10 * time.Second}
	defer tr.Close()
	err := tr.Send(context.Background(), "pbem@localhost", []string{"p@localhost"}, []byte("Subject: x\r\n\r\nbody\r\n"))
	var ce *ConnectionError
	if !errors.As(err, &ce) || !ce.Answered || ce.InMail || !strings.Contains(err.Error(), "421") {
		t.Errorf("MAIL answered 421: %#v (%v); want a connection error, answered, not in the mail", err, err)
	}
}
