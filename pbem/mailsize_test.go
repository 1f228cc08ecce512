package pbem

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestMailTooLarge checks that a mail over the bounds of reading is answered
// once, shortly, with the size that would be read, and changes nothing.
func TestMailTooLarge(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	huge := strings.Repeat("0123456789abcdef\r\n", 11<<20/18) // 11 MiB of body
	tests := []struct {
		name string
		raw  string
		want string // in the reply's first line
	}{{
		name: "body",
		raw:  "From: alice@example.org\r\nSubject: tanbo move 101 alice pw-alice h7\r\nMessage-ID: <big1@client.example>\r\n\r\n" + huge,
		want: "the mail is 11.0 MiB; a mail may be at most 10 MiB",
	}, {
		name: "subject",
		raw:  "From: alice@example.org\r\nMessage-ID: <big2@client.example>\r\nSubject: tanbo move 101 alice pw-alice h7 " + strings.Repeat("x", 10<<20) + "\r\n\r\nbody\r\n",
		want: "the header is 10.0 MiB; a header may be at most 128 KiB",
	}, {
		name: "header fields",
		raw:  "From: alice@example.org\r\nMessage-ID: <big3@client.example>\r\n" + strings.Repeat("X-Junk: x\r\n", 5000) + "Subject: tanbo move 101 alice pw-alice h7\r\n\r\nbody\r\n",
		want: "the header has more than 1000 fields; a header may have at most 1000",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := h.deliver([]byte(tt.raw))
			r := errorReply(t, out, "alice@example.org", fmt.Sprintf("Your mail was not read: %s. Send the command again in a shorter mail.", tt.want))
			if len(r.Raw) > 8<<10 {
				t.Errorf("the reply to a %d-byte mail is %d bytes", len(tt.raw), len(r.Raw))
			}
			// The move was not played: bob still waits for alice's move.
			if out := h.send("bob@example.org", "tanbo move 101 bob pw-bob b2", "after "+tt.name); len(out) != 1 || !strings.Contains(out[0].Body, "not your turn") {
				t.Errorf("after a mail too large, bob's move gave %v", subjects(out))
			}
		})
	}
}

// TestErrorReplyQuotesAnExcerpt checks that an error reply quotes the start
// of the mail only, whatever its size.
func TestErrorReplyQuotesAnExcerpt(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	body := strings.Repeat("a long comment line that goes on and on\n", 5000)
	for _, subject := range []string{"tanbo move 101 alice pw-alice zz99", "nosuch " + strings.Repeat("y ", 50<<10)} {
		out := h.send("alice@example.org", subject, body)
		r := one(t, out, "alice@example.org")
		if len(r.Raw) > 8<<10 {
			t.Errorf("the error reply to a %d-byte mail is %d bytes", len(body)+len(subject), len(r.Raw))
		}
		if !strings.Contains(r.Body, "Original message follows:\n\n> From: alice@example.org\n> Subject: ") ||
			!strings.Contains(r.Body, "> [... ") || !strings.Contains(r.Body, "not quoted]") {
			t.Errorf("the error reply does not quote the start and say that the quote was cut:\n%s", r.Body)
		}
	}
}

// TestMoveWithBadMessageID checks that a Message-ID no header may carry (a
// control byte, 8-bit bytes, 40 KB) costs the replies their In-Reply-To, not
// the replies: both board mails of the move are queued, valid 7-bit.
func TestMoveWithBadMessageID(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"ab\x01c@client.example", "j\xc3\xb6rg@client.example", strings.Repeat("x", 40<<10) + "@client.example"} {
		h := twoPlayers(t)
		raw := "From: alice@example.org\r\nSubject: tanbo move 101 alice pw-alice h7\r\nMessage-ID: <" + id + ">\r\n\r\n\r\n"
		out := h.deliver([]byte(raw))
		if len(out) != 2 || out[0].To != "alice@example.org" && out[1].To != "alice@example.org" {
			t.Fatalf("Message-ID %.40q: the move gave %v, want the board mails to alice and bob", id, subjects(out))
		}
		for _, r := range out {
			if !strings.HasPrefix(r.Subject, "Tanbo Board 101 bob") {
				t.Errorf("reply %q, want the board", r.Subject)
			}
			if r.InReplyTo != "" {
				t.Errorf("In-Reply-To %.40q kept", r.InReplyTo)
			}
			header, _, _ := bytes.Cut(r.Raw, []byte("\r\n\r\n"))
			for _, c := range header {
				if c >= 0x7f || c < 0x20 && c != '\r' && c != '\n' {
					t.Fatalf("reply header byte %#x is not 7-bit text", c)
				}
			}
		}
	}
}
