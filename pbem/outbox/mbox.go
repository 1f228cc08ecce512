package outbox

import (
	"bytes"
	"context"
	"io"
	"strings"
	"time"
)

// Mbox writes each mail to W in the mboxrd form instead of sending it:
// "pbemd deliver -print" and "pbemd sweep -print" show the replies on
// standard output.
type Mbox struct {
	W   io.Writer
	Now func() time.Time // the date of the "From " lines; default time.Now
}

// Send writes one message: a "From " line, the message with LF line ends
// and ">" before any line that starts with ">*From ", and a blank line. A
// failed write is a *ConnectionError: no mail is to blame.
func (m *Mbox) Send(_ context.Context, from string, _ []string, data []byte) error {
	now := time.Now
	if m.Now != nil {
		now = m.Now
	}
	var b bytes.Buffer
	b.WriteString("From " + from + " " + now().UTC().Format(time.ANSIC) + "\n")
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, ">"), "From ") {
			b.WriteString(">")
		}
		b.WriteString(line)
	}
	if !bytes.HasSuffix(data, []byte("\n")) {
		b.WriteString("\n")
	}
	b.WriteString("\n")
	if _, err := m.W.Write(b.Bytes()); err != nil {
		return &ConnectionError{Err: err}
	}
	return nil
}

// Close does nothing: each Send writes its whole message.
func (m *Mbox) Close() error { return nil }

// Print writes the outbox mails ids to w as an mbox and takes them out of
// the outbox.
func Print(q Queue, ids []uint64, w io.Writer) error {
	_, err := New(q, &Mbox{W: w}, Options{}).Send(context.Background(), ids...)
	return err
}
