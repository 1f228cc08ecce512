package mailmsg

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"testing"
)

// A mail with attachments is multipart/mixed: its body first, read by a
// plain-text client as it is, then each file with its name, each part 7bit
// when it can be, byte-exact; the same mail gives the same bytes.
func TestAttachments(t *testing.T) {
	record := "[Event \"Tanbo Board 101\"]\n\n1. h7 b7 {end -- }\n--pbemd-fake\n*\n"
	m := &Mail{From: "pbemd <pbem@example.org>", To: "alice@example.org", Subject: "Tanbo Board 101 record",
		Body: "The record of Tanbo Board 101:\n\n" + record, MessageID: "r1@example.org", Date: mailTestDate,
		AutoSubmitted: "auto-replied",
		Attachments: []Attachment{
			{Name: "tanbo-101.pgn", Type: "text/plain", Text: record},
			{Name: "tanbo-101.sgf", Type: "text/plain", Text: "(;FF[4]C[caf\u00e9  ])"},
		}}
	data, err := m.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := m.Bytes(); !bytes.Equal(again, data) {
		t.Error("the same mail gave other bytes")
	}
	msg, err := mail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/mixed" {
		t.Fatalf("Content-Type %q, %v", msg.Header.Get("Content-Type"), err)
	}
	r := multipart.NewReader(msg.Body, params["boundary"])
	want := []struct{ name, ctype, cte, text string }{
		{"", "text/plain; charset=us-ascii", "7bit", strings.ReplaceAll(m.Body, "\n", "\r\n")},
		{"tanbo-101.pgn", `text/plain; charset=us-ascii; name="tanbo-101.pgn"`, "7bit", strings.ReplaceAll(record, "\n", "\r\n")},
		{"tanbo-101.sgf", `text/plain; charset=utf-8; name="tanbo-101.sgf"`, "quoted-printable", "(;FF[4]C[caf\u00e9  ])\r\n"},
	}
	for i, w := range want {
		p, err := r.NextRawPart()
		if err != nil {
			t.Fatalf("part %d: %v", i, err)
		}
		if p.FileName() != w.name || p.Header.Get("Content-Type") != w.ctype || p.Header.Get("Content-Transfer-Encoding") != w.cte {
			t.Errorf("part %d: name %q, type %q, encoding %q; want %q %q %q", i, p.FileName(),
				p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), w.name, w.ctype, w.cte)
		}
		body, _ := io.ReadAll(p)
		if w.cte == "quoted-printable" {
			body, _ = io.ReadAll(quotedprintable.NewReader(bytes.NewReader(body)))
		}
		if string(body) != w.text {
			t.Errorf("part %d reads %q, want %q", i, body, w.text)
		}
	}
	if _, err := r.NextPart(); err != io.EOF {
		t.Errorf("a part more: %v", err)
	}
	for _, bad := range []Attachment{{Name: "../x.pgn", Type: "text/plain"}, {Name: "a\"b", Type: "text/plain"},
		{Name: "x.pgn", Type: "text/plain; charset=x"}, {Name: "", Type: "text/plain"}} {
		m.Attachments = []Attachment{bad}
		if _, err := m.Bytes(); err == nil {
			t.Errorf("attachment %+v composed", bad)
		}
	}
}
