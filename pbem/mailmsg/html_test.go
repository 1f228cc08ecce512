package mailmsg

import (
	"testing"
)

// TestHTMLText reads HTML as clients write it when there is no plain text.
func TestHTMLText(t *testing.T) {
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
		comment: "Yes.",
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
