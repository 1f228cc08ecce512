package mailmsg

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbemd/pbemd/pbem/mailmsg/mailmsgtest"
)

// TestHTMLText reads HTML as clients write it when there is no plain text.
func TestHTMLText(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, html, text, comment string }{{
		name:    "Gmail",
		html:    `<div dir="ltr"><div>ultima move 101 carol secret b1-c3</div><div><br></div><div>Nice   opening.</div></div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Sat, Nov 21, 2026 at 10:31 PM pbemd &lt;<a href="mailto:pbem@example.org">pbem@example.org</a>&gt; wrote:<br></div><blockquote class="gmail_quote" style="margin:0px">Summary of Ultima Board 101<br><br>It is alice&#39;s turn.<br></blockquote></div>`,
		text:    "ultima move 101 carol secret b1-c3\n\nNice opening.\n\nOn Sat, Nov 21, 2026 at 10:31 PM pbemd <pbem@example.org> wrote:\n> Summary of Ultima Board 101\n>\n> It is alice's turn.\n",
		comment: "ultima move 101 carol secret b1-c3\n\nNice opening.",
	}, {
		name:    "Outlook",
		html:    `<html><head><style><!-- p.MsoNormal {margin:0cm} --></style></head><body lang="EN-GB"><div class="WordSection1"><p class="MsoNormal">Well played.<o:p></o:p></p><p class="MsoNormal"><o:p>&nbsp;</o:p></p><div style="border:none;border-top:solid #E1E1E1 1.0pt"><p class="MsoNormal"><b>From:</b> pbemd &lt;pbem@example.org&gt;<br><b>Sent:</b> Saturday, November 21, 2026 9:31 PM<br><b>Subject:</b> Ultima Board 101</p></div></div></body></html>`,
		text:    "Well played.\n\nFrom: pbemd <pbem@example.org>\nSent: Saturday, November 21, 2026 9:31 PM\nSubject: Ultima Board 101\n",
		comment: "Well played.",
	}, {
		name:    "nested blockquotes and uppercase tags",
		html:    "<P>Yes.</P><BLOCKQUOTE>one<BLOCKQUOTE>two</BLOCKQUOTE>back</BLOCKQUOTE><SCRIPT>alert(1)</SCRIPT>after",
		text:    "Yes.\n\n> one\n>> two\n> back\nafter\n",
		comment: "Yes.\n\nafter",
	}, {
		name: "unclosed tag",
		html: "Hello <b",
		text: "Hello\n",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := "From: a@example.com\r\nSubject: x\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + tt.html
			m, err := ReadMail([]byte(raw))
			if err != nil {
				t.Fatal(err)
			}
			if m.Text != tt.text {
				t.Errorf("Text = %q\nwant   %q", m.Text, tt.text)
			}
			if tt.comment != "" && Comment(m.Text) != tt.comment {
				t.Errorf("Comment = %q, want %q", Comment(m.Text), tt.comment)
			}
		})
	}
}

// TestHTMLTextTags checks how each kind of tag shapes the text.
func TestHTMLTextTags(t *testing.T) {
	t.Parallel()
	lim := Limits{}.WithDefaults()
	tests := []struct{ name, html, text string }{
		{"quote depth capped", strings.Repeat("<blockquote>", 30) + "deep" + strings.Repeat("</blockquote>", 30) + "out",
			strings.Repeat(">", lim.MaxQuoteDepth) + " deep\nout\n"},
		{"unbalanced closing tags", "</blockquote></blockquote>a<blockquote>b</blockquote></pre>c", "a\n> b\nc\n"},
		{"lists", "<ul><li>one</li><li>two</li></ul><ol><li>three<li>four</ol>end", "one\ntwo\n\nthree\nfour\n\nend\n"},
		{"table cells", "<table><tr><td>a1</td><td>b1</td></tr><tr><th>a2</th><td>b2</td></tr></table>after", "a1 b1\na2 b2\n\nafter\n"},
		{"pre keeps spaces and lines", "<pre>  a  b\n\n c&nbsp;d</pre>e", "  a  b\n\n c d\ne\n"},
		{"br", "a<br>b<br/><br />c", "a\nb\n\nc\n"},
		{"script style title template svg dropped", "<title>T</title><style>p{}</style>a<script>if (a<b) x()</script>b<template>t</template><svg><text>s</text></svg>c", "abc\n"},
		{"head without end", "<head><meta charset=utf-8><body>text", "text\n"},
		{"comments dropped", "a<!-- <blockquote> -->b<!---->c", "abc\n"},
		{"entities", "&lt;&amp;&gt; &eacute;&#233;&#x41; &nbsp;x&bogus;", "<&> \u00e9\u00e9A x&bogus;\n"},
		{"no-break spaces collapse", "a&nbsp;&nbsp; b", "a b\n"},
		{"headings and paragraphs", "<h1>Title</h1><p>one</p><p>two</p>", "Title\n\none\n\ntwo\n"},
		{"inline tags join", "<b>bo</b><i>ld</i> <span>x</span><a href=x>y</a>", "bold xy\n"},
		{"divs end lines", "<div>a</div><div><div>b</div></div><section>c</section>", "a\nb\nc\n"},
		{"quoted blank line", "<blockquote>a<br><br>b</blockquote>", "> a\n>\n> b\n"},
		{"empty", "", ""},
		{"only tags", "<div><p><br></p></div>", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := htmlText([]byte(tt.html), lim.MaxQuoteDepth, lim.MaxTextBytes); got != tt.text {
				t.Errorf("htmlText(%q) =\n%q\nwant\n%q", tt.html, got, tt.text)
			}
		})
	}
}

// TestHTMLTextBounds checks the bounds: text stops at maxText, a token over
// maxHTMLToken ends the text, and deep nesting of any tag gives lines
// quoted at most maxQuote deep.
func TestHTMLTextBounds(t *testing.T) {
	t.Parallel()
	got := htmlText([]byte(strings.Repeat("<p>word word word</p>", 100000)), 10, 1000)
	if len(got) > 1000 || !strings.HasPrefix(got, "word word word\n\nword") {
		t.Errorf("text of %d bytes, want at most 1000 beginning with the words", len(got))
	}
	got = htmlText([]byte("before<p>"+strings.Repeat("x", 2*maxHTMLToken)+"</p>after"), 10, 1<<30)
	if !strings.HasPrefix(got, "before\n\nxxx") || len(got) > maxHTMLToken+100 || strings.Contains(got, "after") {
		t.Errorf("a token over maxHTMLToken gave %d bytes: %.40q, want the text before it and its start", len(got), got)
	}
	for _, tag := range mailmsgtest.NestingTags {
		in := strings.Repeat("<"+tag+">x", 5000)
		got := htmlText([]byte(in), 3, 1<<30)
		if len(got) > len(in) {
			t.Errorf("<%s> nested 5000 deep gave %d bytes", tag, len(got))
		}
		for line := range strings.Lines(got) {
			if strings.HasPrefix(line, ">>>>") {
				t.Fatalf("<%s> nested: a line quoted deeper than 3: %q", tag, line)
			}
		}
	}
}

// FuzzHTMLText checks that no HTML makes htmlText panic, that its text is
// valid UTF-8 (for valid input) within maxText, and that the text grows at
// most linearly with the input: each byte of the input gives at most a
// line's quote prefix and line end.
func FuzzHTMLText(f *testing.F) {
	f.Add("<blockquote><blockquote><pre>x</blockquote><script>")
	f.Add("<P>Yes.</P><BLOCKQUOTE>one<BLOCKQUOTE>two</BLOCKQUOTE>back</BLOCKQUOTE>")
	f.Add("<table><tr><td>a<td>b</table><br><br/>&nbsp;&amp;<!-- x -->")
	f.Add("<pre>\n\n a\r\n</pre><head><title>x</title><body>y")
	f.Fuzz(func(t *testing.T, in string) {
		const maxQuote, maxText = 4, 4096
		got := htmlText([]byte(in), maxQuote, maxText)
		if len(got) > maxText {
			t.Errorf("%d bytes of text, over %d", len(got), maxText)
		}
		if bound := (maxQuote + 3) * (len(in) + 1); len(got) > bound {
			t.Errorf("%d bytes of input gave %d of text, over %d", len(in), len(got), bound)
		}
		if utf8.ValidString(in) && !utf8.ValidString(got) {
			t.Errorf("valid input gave invalid UTF-8 %q", got)
		}
		for line := range strings.Lines(got) {
			if strings.HasPrefix(line, strings.Repeat(">", maxQuote+1)) {
				t.Fatalf("line quoted deeper than %d: %q", maxQuote, line)
			}
		}
	})
}
