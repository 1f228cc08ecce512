// Package imaptest reads and fills IMAP mailboxes for tests, as a plain
// IMAP client (no TLS: loopback servers only).
package imaptest

import (
	"bytes"
	"slices"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// A Message is one mail in a mailbox.
type Message struct {
	UID   imap.UID
	Flags []imap.Flag
	Data  []byte
}

// Seen reports whether the message has the \Seen flag.
func (m Message) Seen() bool { return slices.Contains(m.Flags, imap.FlagSeen) }

func login(addr, user, password string) (*imapclient.Client, error) {
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		return nil, err
	}
	if err := c.Login(user, password).Wait(); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Read returns every message of a mailbox in UID order, without marking
// any seen.
func Read(addr, user, password, mailbox string) ([]Message, error) {
	c, err := login(addr, user, password)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		return nil, err
	}
	if sel.NumMessages == 0 {
		return nil, nil
	}
	section := &imap.FetchItemBodySection{Peek: true}
	bufs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{UID: true, Flags: true,
		BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		return nil, err
	}
	var msgs []Message
	for _, b := range bufs {
		msgs = append(msgs, Message{UID: b.UID, Flags: b.Flags, Data: b.FindBodySection(section)})
	}
	slices.SortFunc(msgs, func(a, b Message) int { return int(a.UID) - int(b.UID) })
	c.Logout().Wait()
	return msgs, nil
}

// Append adds a message to a mailbox, with flags.
func Append(addr, user, password, mailbox string, data []byte, flags ...imap.Flag) error {
	c, err := login(addr, user, password)
	if err != nil {
		return err
	}
	defer c.Close()
	cmd := c.Append(mailbox, int64(len(data)), &imap.AppendOptions{Flags: flags})
	if _, err := cmd.Write(data); err != nil {
		return err
	}
	if err := cmd.Close(); err != nil {
		return err
	}
	if _, err := cmd.Wait(); err != nil {
		return err
	}
	return c.Logout().Wait()
}

// Header returns the value of the first header field key in a raw mail,
// or "" (a simple reader for tests: no folding, no encoded words).
func Header(data []byte, key string) string {
	head, _, _ := bytes.Cut(data, []byte("\r\n\r\n"))
	for _, line := range bytes.Split(head, []byte("\r\n")) {
		k, v, ok := bytes.Cut(line, []byte(":"))
		if ok && bytes.EqualFold(k, []byte(key)) {
			return string(bytes.TrimSpace(v))
		}
	}
	return ""
}
