// Package mailmsgtest makes mails for tests of code that reads mail: a
// corpus of hostile mails, each built by a few lines of code so that a
// reader sees what it holds without opening megabytes.
package mailmsgtest

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strings"
)

// A Case is one hostile mail.
type Case struct {
	Name string // "html-nesting-blockquote", "header-10mb-subject", ...
	Kind string // what it attacks: "html", "header", "addresses", "bytes", "mime", "size"
	Raw  []byte
}

// From is the sender of every case whose From field is not the attack.
const From = "mallory@example.net"

// NestingTags are the HTML tags the corpus nests thousands deep.
var NestingTags = []string{
	"blockquote", "div", "ul", "ol", "li", "dl", "dd", "table", "tr", "td", "pre", "p", "span", "b", "i",
	"font", "a", "q", "h1", "section", "center", "form", "textarea", "script", "style", "head", "title",
	"template", "svg", "noscript", "iframe", "select", "option", "object", "frameset",
}

// mail builds a mail from its header fields (without line ends) and body.
func mail(fields []string, body string) []byte {
	var b strings.Builder
	for _, f := range fields {
		b.WriteString(f)
		b.WriteString("\r\n")
	}
	b.WriteString("\r\n")
	b.WriteString(body)
	return []byte(b.String())
}

func html(body string) []byte {
	return mail([]string{"From: " + From, "Subject: help", "Content-Type: text/html; charset=utf-8"}, body)
}

func plain(body string) []byte {
	return mail([]string{"From: " + From, "Subject: help"}, body)
}

func addresses(n int) string {
	a := make([]string, n)
	for i := range a {
		a[i] = fmt.Sprintf("Player %d <p%d@example.org>", i, i)
	}
	return strings.Join(a, ", ")
}

// Hostile returns the corpus: HTML nested 40,000 deep with every tag of
// NestingTags and other HTML traps, huge headers and header counts,
// thousands of addresses, NUL and 8-bit bytes, broken and deep MIME, and a
// mail over 10 MiB. The mails are the same on every call.
func Hostile() []Case {
	var cs []Case
	add := func(kind, name string, raw []byte) {
		cs = append(cs, Case{Name: kind + "-" + name, Kind: kind, Raw: raw})
	}

	const depth = 40000
	for _, tag := range NestingTags {
		add("html", "nesting-"+tag, html(strings.Repeat("<"+tag+">x", depth)))
	}
	add("html", "nesting-closed-blockquote", html(strings.Repeat("<blockquote>x", depth)+strings.Repeat("</blockquote>y", depth)))
	add("html", "closing-only", html(strings.Repeat("</blockquote></pre></div>x", depth)))
	add("html", "br-flood", html("<blockquote><blockquote><blockquote>"+strings.Repeat("<br>", 200000)))
	add("html", "unclosed-comment", html("hi <!-- "+strings.Repeat("x", 1<<20)))
	add("html", "unclosed-script", html("hi <script>"+strings.Repeat("x<y", 300000)))
	add("html", "huge-attribute", html(`<div title="`+strings.Repeat("a", 2<<20)+`">x</div>`))
	add("html", "entity-flood", html(strings.Repeat("&amp;&#x41;&nbsp;&bogus;", 100000)))
	add("html", "one-word-1mb", html(strings.Repeat("w", 1<<20)))

	add("header", "10mb-subject", mail([]string{"From: " + From, "Subject: help " + strings.Repeat("x", 10<<20)}, "body\r\n"))
	add("header", "100k-subject", mail([]string{"From: " + From, "Subject: help " + strings.Repeat("y ", 50<<10)}, "body\r\n"))
	add("header", "folded-100k-lines", mail([]string{"From: " + From, "Subject: help" + strings.Repeat("\r\n x", 100000)}, "body\r\n"))
	fields := []string{"From: " + From, "Subject: help"}
	for i := range 100000 {
		fields = append(fields, fmt.Sprintf("X-Junk-%d: %d", i, i))
	}
	add("header", "100k-fields", mail(fields, "body\r\n"))
	add("header", "1500-received", mail(append([]string{"From: " + From, "Subject: help"}, strings.Split(strings.TrimSuffix(strings.Repeat("Received: from x by y; Sun, 22 Nov 2026 10:00:00 +0000\n", 1500), "\n"), "\n")...), "body\r\n"))
	add("header", "no-end", []byte("From: "+From+"\r\nSubject: help\r\n"+strings.Repeat("X-A: b\r\n", 200000)))
	add("header", "only-garbage-lines", []byte(strings.Repeat("this is no field\r\n", 100000)+"\r\nbody\r\n"))
	add("header", "huge-message-id", mail([]string{"From: " + From, "Subject: help", "Message-ID: <" + strings.Repeat("m", 40<<10) + "@example.net>"}, "body\r\n"))
	add("header", "references-10k", mail([]string{"From: " + From, "Subject: help", "References: " + strings.Repeat("<r@example.net> ", 10000)}, "body\r\n"))

	add("addresses", "to-3000", mail([]string{"From: " + From, "To: " + addresses(3000), "Subject: help"}, "body\r\n"))
	add("addresses", "to-5000", mail([]string{"From: " + From, "To: " + addresses(5000), "Subject: help"}, "body\r\n"))
	add("addresses", "cc-5000", mail([]string{"From: " + From, "Cc: " + addresses(5000), "Subject: help"}, "body\r\n"))
	add("addresses", "from-2000", mail([]string{"From: " + addresses(2000), "Subject: help"}, "body\r\n"))
	add("addresses", "from-2000-unparsable", mail([]string{"From: " + strings.Repeat("<a@b ", 2000), "Subject: help"}, "body\r\n"))

	add("bytes", "nul-body", plain(strings.Repeat("help\x00\r\n", 100000)))
	add("bytes", "nul-header", mail([]string{"From: " + From, "Subject: he\x00lp", "X-Nul: \x00\x00\x00"}, "body\r\n"))
	add("bytes", "8bit-header", mail([]string{"From: M\xe4llory <" + From + ">", "Subject: h\xe9lp \xff\xfe"}, "b\xf6dy\r\n"))
	r := rand.New(rand.NewPCG(1, 2))
	noise := make([]byte, 1<<20)
	for i := range noise {
		noise[i] = byte(r.UintN(256))
	}
	add("bytes", "random-body", plain(string(noise)))
	add("bytes", "random-html", html(string(noise)))
	add("bytes", "only-random", noise)
	add("bytes", "bare-cr", []byte("From: "+From+"\rSubject: help\r\r"+strings.Repeat("x\r", 100000)))

	mp := func(ct, body string) []byte {
		return mail([]string{"From: " + From, "Subject: help", "MIME-Version: 1.0", "Content-Type: " + ct}, body)
	}
	add("mime", "no-boundary", mp("multipart/mixed", "--x\r\nhi\r\n--x--\r\n"))
	add("mime", "unclosed", mp("multipart/mixed; boundary=x", "--x\r\nContent-Type: text/plain\r\n\r\nhello\r\n"+strings.Repeat("z", 1<<20)))
	add("mime", "100k-empty-parts", mp("multipart/mixed; boundary=x", strings.Repeat("--x\r\n\r\n", 100000)+"--x--\r\n"))
	add("mime", "100k-text-parts", mp("multipart/mixed; boundary=x", strings.Repeat("--x\r\nContent-Type: text/plain\r\n\r\nhelp\r\n", 100000)+"--x--\r\n"))
	var nest, ends strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&nest, "--b%d\r\nContent-Type: multipart/mixed; boundary=b%d\r\n\r\n", i, i+1)
		fmt.Fprintf(&ends, "--b%d--\r\n", 10000-i)
	}
	add("mime", "depth-10000", mp("multipart/mixed; boundary=b0", nest.String()+"--b10000\r\nContent-Type: text/plain\r\n\r\ndeep\r\n"+ends.String()+"--b0--\r\n"))
	add("mime", "depth-10000-same-boundary", mp("multipart/mixed; boundary=x", strings.Repeat("--x\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n", 10000)+"--x--\r\n"))
	add("mime", "part-header-1mb", mp("multipart/mixed; boundary=x", "--x\r\nX-Big: "+strings.Repeat("h", 1<<20)+"\r\nContent-Type: text/plain\r\n\r\nhi\r\n--x--\r\n"))
	add("mime", "part-header-100k-fields", mp("multipart/mixed; boundary=x", "--x\r\n"+strings.Repeat("X-F: v\r\n", 100000)+"\r\nhi\r\n--x--\r\n"))
	add("mime", "content-type-10k-params", mp("text/plain; "+strings.Repeat("a=b; ", 10000)+"charset=utf-8", "hi\r\n"))
	add("mime", "broken-base64", mail([]string{"From: " + From, "Subject: help", "Content-Transfer-Encoding: base64"}, strings.Repeat("!!!!", 100000)))
	add("mime", "broken-qp", mail([]string{"From: " + From, "Subject: help", "Content-Transfer-Encoding: quoted-printable"}, strings.Repeat("=ZZ=\r\n=", 100000)))
	add("mime", "unknown-charset", mail([]string{"From: " + From, "Subject: =?x-bogus?q?help?=", "Content-Type: text/plain; charset=x-bogus"}, strings.Repeat("\xe9t\xe9 ", 100000)))
	add("mime", "utf7-charset", mail([]string{"From: " + From, "Subject: help", "Content-Type: text/plain; charset=utf-7"}, strings.Repeat("+AGg-elp ", 100000)))
	add("mime", "encoded-words-10k", mail([]string{"From: " + From, "Subject: " + strings.Repeat("=?utf-8?b?aGVscA==?= ", 5000)}, "body\r\n"))
	add("mime", "html-in-base64", mail([]string{"From: " + From, "Subject: help", "Content-Type: text/html", "Content-Transfer-Encoding: base64"}, b64(strings.Repeat("<blockquote>x", 20000))))

	add("size", "11mb-body", plain(strings.Repeat("0123456789abcdef\r\n", 11<<20/18)))
	add("size", "11mb-one-line", plain(strings.Repeat("x", 11<<20)))
	return cs
}

// b64 encodes s in base64 lines of 76 characters, as mailers write it.
func b64(s string) string {
	e := base64.StdEncoding.EncodeToString([]byte(s))
	var b strings.Builder
	for len(e) > 76 {
		b.WriteString(e[:76] + "\r\n")
		e = e[76:]
	}
	b.WriteString(e + "\r\n")
	return b.String()
}
