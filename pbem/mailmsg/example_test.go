package mailmsg_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/pbemd/pbemd/pbem/mailmsg"
)

// A player answers a board mail from a web mailer that sends HTML only: the
// command is the subject, the text is the HTML reduced to plain text, and
// the comment is what he wrote above the quoted board.
func Example() {
	raw := "From: Alice Liddell <alice@example.org>\r\n" +
		"Subject: ultima move 101 alice secret e2-e5\r\n" +
		"Message-ID: <1234@mail.example.org>\r\n" +
		"Content-Type: text/html; charset=utf-8\r\n" +
		"\r\n" +
		"<div>Your move, Bob&nbsp;&ndash; good luck.</div>" +
		"<div>On Sunday, pbemd wrote:</div>" +
		"<blockquote>Summary of Ultima Board 101<br>It is alice's turn.</blockquote>"
	m, err := mailmsg.ReadMail([]byte(raw))
	if err != nil {
		fmt.Println(err)
		return
	}
	if why := m.Ignore([]string{"pbem@example.org"}); why != "" {
		fmt.Println("not answered:", why)
		return
	}
	fmt.Println("from:", m.From)
	fmt.Println("command:", m.Subject)
	fmt.Print("text:\n", m.Text)
	fmt.Println("comment:", mailmsg.Comment(m.Text))
	// Output:
	// from: alice@example.org
	// command: ultima move 101 alice secret e2-e5
	// text:
	// Your move, Bob – good luck.
	// On Sunday, pbemd wrote:
	// > Summary of Ultima Board 101
	// > It is alice's turn.
	// comment: Your move, Bob – good luck.
}

// A reply to that mail: its header is 7-bit whatever the names and ids.
func ExampleMail_Bytes() {
	m := &mailmsg.Mail{
		From:          "pbemd <pbem@example.org>",
		To:            "Jörg <joerg@bücher.example>",
		Subject:       "Ultima Board 101 bob",
		Body:          "It is bob's turn.\n",
		MessageID:     "reply1@example.org",
		InReplyTo:     "1234@mail.example.org",
		References:    []string{"bad\x01id@example.org"}, // not a msg-id: left out
		Date:          time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC),
		AutoSubmitted: "auto-replied",
	}
	b, err := m.Bytes()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(strings.ReplaceAll(string(b), "\r\n", "\n")) // the lines end in CRLF
	// Output:
	// Date: Mon, 23 Nov 2026 12:00:00 +0000
	// From: pbemd <pbem@example.org>
	// To: =?utf-8?q?J=C3=B6rg?= <joerg@xn--bcher-kva.example>
	// Subject: Ultima Board 101 bob
	// Message-ID: <reply1@example.org>
	// In-Reply-To: <1234@mail.example.org>
	// Auto-Submitted: auto-replied
	// MIME-Version: 1.0
	// Content-Type: text/plain; charset=us-ascii
	// Content-Transfer-Encoding: 7bit
	//
	// It is bob's turn.
}

// Quoting a stranger's mail in an error reply costs a few lines, whatever
// he sent.
func ExampleExcerpt() {
	text := "Subject: tanbo move 101 alice pw zz99\n\nline 1\nline 2\nline 3\nline 4\n"
	fmt.Println(mailmsg.Excerpt(text, 4, 2000))
	// Output:
	// Subject: tanbo move 101 alice pw zz99
	//
	// line 1
	// line 2
	// [... 2 more lines, 13 bytes, not quoted]
}
