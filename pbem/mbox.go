package pbem

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"time"

	"github.com/pbemd/pbemd/store"
)

// PrintMbox writes the outbox mails ids to w as an mbox and takes them out of
// the outbox: "pbemd deliver -print" shows the replies instead of sending them.
func PrintMbox(db *store.DB, ids []uint64, w io.Writer) error {
	var msgs []*store.Outgoing
	err := db.View(func(tx *store.Tx) error {
		for _, id := range ids {
			m, err := tx.Outgoing(id)
			if err != nil {
				return err
			}
			msgs = append(msgs, m)
		}
		return nil
	})
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, m := range msgs {
		writeMboxMessage(bw, m)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return db.Sent(ids...)
}

// writeMboxMessage writes one message in the mboxrd form: a "From " line, the
// message with LF line ends and ">" before any line that starts with
// ">*From ", and a blank line.
func writeMboxMessage(w *bufio.Writer, m *store.Outgoing) {
	w.WriteString("From " + m.From + " " + m.Queued.UTC().Format(time.ANSIC) + "\n")
	data := bytes.ReplaceAll(m.Data, []byte("\r\n"), []byte("\n"))
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, ">"), "From ") {
			w.WriteString(">")
		}
		w.WriteString(line)
	}
	if !bytes.HasSuffix(data, []byte("\n")) {
		w.WriteString("\n")
	}
	w.WriteString("\n")
}
