package outbox

import (
	"bytes"
	"cmp"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-smtp"
)

// A client speaks SMTP (RFC 5321) to one server for SMTP.Send. It is
// go-smtp's client but for one thing: a mail's commands go out together.
// With PIPELINING (RFC 2920) and CHUNKING (RFC 3030), which Postfix and
// go-smtp's server offer, MAIL, RCPT and BDAT with the whole mail are one
// write and one wait for the answers, where one command at a time is four
// waits and some nine system calls: the replies of a backlog were a sixth
// of the daemon's CPU, and their round trips what held the last reply
// back. With PIPELINING alone, the mail goes after DATA's 354; with
// neither, one command at a time.
type client struct {
	conn    net.Conn
	limit   *answerLimit
	text    *textproto.Conn
	ext     map[string]string // the EHLO keywords, upper case, and their parameters
	timeout time.Duration     // for each exchange; five times that for the mail's acceptance
}

// maxResponseLine bounds a line of the server's answers (RFC 5321 allows
// 512 bytes; go-smtp's client allows twice that much), and
// maxExchangeBytes what it may send in answer to one exchange (an EHLO's
// list of extensions is the longest, some hundreds of bytes), so that a
// server that sends no line end, or lines without end, cannot grow our
// memory.
const (
	maxResponseLine  = 2000
	maxExchangeBytes = 64 << 10
)

// newClient reads the server's greeting on conn.
func newClient(conn net.Conn, timeout time.Duration) (*client, error) {
	c := &client{timeout: timeout}
	c.setConn(conn)
	c.deadline(1)
	if _, _, err := c.read(220); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func (c *client) setConn(conn net.Conn) {
	c.conn = conn
	c.limit = &answerLimit{r: conn}
	c.text = textproto.NewConn(struct {
		io.Reader
		io.Writer
		io.Closer
	}{c.limit, conn, conn})
}

// deadline begins an exchange: n times the timeout, maxExchangeBytes of
// answers.
func (c *client) deadline(n int) {
	c.conn.SetDeadline(time.Now().Add(time.Duration(n) * c.timeout))
	c.limit.left = maxExchangeBytes
}

// read reads one answer, a *smtp.SMTPError when its code is not the
// one expected (a code of one digit, 2, takes any 2xx).
func (c *client) read(expect int) (int, string, error) {
	code, msg, err := c.text.ReadResponse(expect)
	var pe *textproto.Error
	if errors.As(err, &pe) {
		err = smtpError(pe)
	}
	return code, msg, err
}

// cmd sends one command and reads its answer.
func (c *client) cmd(expect int, line string) (string, error) {
	if strings.ContainsAny(line, "\r\n") {
		return "", errors.New("smtp: a command must not hold a line break")
	}
	c.deadline(1)
	if err := c.text.PrintfLine("%s", line); err != nil {
		return "", err
	}
	_, msg, err := c.read(expect)
	return msg, err
}

// hello greets the server as localName and learns its extensions; a
// server that knows no EHLO is greeted with HELO.
func (c *client) hello(localName string) error {
	msg, err := c.cmd(250, "EHLO "+localName)
	var se *smtp.SMTPError
	if errors.As(err, &se) && (se.Code == 500 || se.Code == 502) {
		c.ext = nil
		_, err = c.cmd(250, "HELO "+localName)
		return err
	}
	if err != nil {
		return err
	}
	c.ext = map[string]string{}
	lines := strings.Split(msg, "\n")
	for _, l := range lines[1:] {
		k, v, _ := strings.Cut(l, " ")
		c.ext[strings.ToUpper(k)] = v
	}
	return nil
}

// has reports whether the server offers the extension.
func (c *client) has(ext string) bool {
	_, ok := c.ext[ext]
	return ok
}

// startTLS secures the connection and greets the server again, as RFC
// 3207 requires.
func (c *client) startTLS(cfg *tls.Config, localName string) error {
	if _, err := c.cmd(220, "STARTTLS"); err != nil {
		return err
	}
	tc := tls.Client(c.conn, cfg)
	c.deadline(1)
	if err := tc.Handshake(); err != nil {
		return err
	}
	c.setConn(tc)
	return c.hello(localName)
}

// auth logs in with AUTH PLAIN (RFC 4616), the credentials in the
// command itself.
func (c *client) auth(user, password string) error {
	resp := base64.StdEncoding.EncodeToString([]byte("\x00" + user + "\x00" + password))
	_, err := c.cmd(235, "AUTH PLAIN "+resp)
	return err
}

func (c *client) noop() error  { _, err := c.cmd(250, "NOOP"); return err }
func (c *client) reset() error { _, err := c.cmd(250, "RSET"); return err }

// quit ends the session and closes the connection.
func (c *client) quit() error {
	_, err := c.cmd(221, "QUIT")
	c.Close()
	return err
}

// Close closes the connection.
func (c *client) Close() error { return c.text.Close() }

// send submits one mail: its envelope from from to each of to, then data,
// whose lines end in CRLF. A refusal is a *smtp.SMTPError, the first the
// server gave; the connection is left ready for the next mail (RSET is
// the caller's).
func (c *client) send(from string, to []string, data []byte) error {
	mail := "MAIL FROM:<" + from + ">"
	if c.has("8BITMIME") {
		mail += " BODY=8BITMIME"
	}
	if !ascii(from) || !allASCII(to) {
		mail += " SMTPUTF8" // Send checked that the server offers it
	}
	lines := []string{mail}
	for _, t := range to {
		lines = append(lines, "RCPT TO:<"+t+">")
	}
	for _, l := range lines {
		if strings.ContainsAny(l, "\r\n") {
			return errors.New("smtp: an address must not hold a line break")
		}
	}
	// A mail to several at once goes one command at a time, as before:
	// pipelined, a recipient refused would not stop the mail going to the
	// others.
	if !c.has("PIPELINING") || len(to) != 1 {
		return c.sendEach(lines, data)
	}
	chunked := c.has("CHUNKING") && crlfOnly(data)
	w := c.text.W
	for _, l := range lines {
		w.WriteString(l + "\r\n")
	}
	if chunked {
		w.WriteString("BDAT " + strconv.Itoa(len(data)) + " LAST\r\n")
		w.Write(data)
	} else {
		w.WriteString("DATA\r\n")
	}
	c.deadline(5)
	if err := w.Flush(); err != nil {
		return err
	}
	// Every answer is read, so that the next mail starts with the next
	// command's; the first refusal is the mail's, even when the server
	// then closed the connection (as after a 421).
	var first error
	taken := false // the last command, BDAT or DATA, was
	last := 354
	if chunked {
		last = 250
	}
	for i, expect := range []int{250, 25, last} {
		_, _, err := c.read(expect)
		if err == nil {
			taken = i == 2
			continue
		}
		first = cmp.Or(first, err)
		if !isSMTPError(err) {
			return first
		}
	}
	switch {
	case chunked || !taken:
		return first
	case first != nil:
		// DATA taken after a refusal: no mail can be ended without
		// sending it, so the connection goes.
		c.Close()
		return first
	}
	return c.content(data)
}

// sendEach sends the envelope's commands one at a time, then DATA and the
// mail.
func (c *client) sendEach(lines []string, data []byte) error {
	for i, l := range lines {
		expect := 250
		if i > 0 {
			expect = 25 // 251: a recipient forwarded
		}
		if _, err := c.cmd(expect, l); err != nil {
			return err
		}
	}
	if _, err := c.cmd(354, "DATA"); err != nil {
		return err
	}
	return c.content(data)
}

// content sends the mail after DATA's 354, dot-stuffed, and reads the
// server's acceptance.
func (c *client) content(data []byte) error {
	c.deadline(5)
	dw := c.text.DotWriter()
	if _, err := dw.Write(data); err != nil {
		return err
	}
	if err := dw.Close(); err != nil {
		return err
	}
	_, _, err := c.read(250)
	return err
}

func isSMTPError(err error) bool {
	var se *smtp.SMTPError
	return errors.As(err, &se)
}

// smtpError is the server's answer as go-smtp's error, with the enhanced
// status code (RFC 3463) that opens its text, when there is one.
func smtpError(pe *textproto.Error) *smtp.SMTPError {
	se := &smtp.SMTPError{Code: pe.Code, Message: pe.Msg}
	code, msg, ok := strings.Cut(pe.Msg, " ")
	parts := strings.Split(code, ".")
	if !ok || len(parts) != 3 {
		return se
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return se
		}
		se.EnhancedCode[i] = n
	}
	// Each line of the text repeats the code (RFC 2034).
	se.Message = strings.ReplaceAll(msg, "\n"+code+" ", "\n")
	return se
}

func allASCII(ss []string) bool {
	for _, s := range ss {
		if !ascii(s) {
			return false
		}
	}
	return true
}

// crlfOnly reports whether every line of data ends in CRLF, as BDAT sends
// it unchanged: a bare LF goes after DATA, which mends it.
func crlfOnly(data []byte) bool {
	for i := bytes.IndexByte(data, '\n'); i >= 0; {
		if i == 0 || data[i-1] != '\r' {
			return false
		}
		j := bytes.IndexByte(data[i+1:], '\n')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return bytes.HasSuffix(data, []byte("\r\n"))
}

// answerLimit fails a read that would make a line longer than
// maxResponseLine, or the answers of an exchange longer than
// maxExchangeBytes.
type answerLimit struct {
	r    io.Reader
	line int // bytes since the last line end
	left int // bytes the exchange may still read
}

func (l *answerLimit) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	if l.left -= n; l.left < 0 {
		return 0, textproto.ProtocolError(fmt.Sprintf("smtp: the server answered with more than %d bytes", maxExchangeBytes))
	}
	for _, b := range p[:n] {
		if b == '\n' {
			l.line = 0
		} else if l.line++; l.line > maxResponseLine {
			return 0, textproto.ProtocolError(fmt.Sprintf("smtp: the server sent a line longer than %d bytes", maxResponseLine))
		}
	}
	return n, err
}
