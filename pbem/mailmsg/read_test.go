package mailmsg

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pbemd/pbemd/pbem/mailmsg/mailmsgtest"
)

// readMailCorpus reads one mail of testdata/mail.
func readMailCorpus(t testing.TB, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "mail", name))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestReadMailCorpus reads mails as real clients write them and checks what
// pbemd takes from each: the command (Subject), the sender, the body text,
// the comment shown to the other players and whether the mail is answered.
func TestReadMailCorpus(t *testing.T) {
	t.Parallel()
	own := []string{"pbemd <PBEM@example.org>"}
	tests := []struct {
		file     string
		subject  string
		from     string
		fromName string
		text     string
		comment  string
		ignore   string // a word of Ignore's reason; "" when the mail is answered
	}{{
		file:     "thunderbird-flowed.eml",
		subject:  "ultima move 101 alice secret e2-e5",
		from:     "alice@example.com",
		fromName: "Alice Liddell",
		// format=flowed: the soft line breaks are joined, the signature kept.
		text:    "Opening with the king's pawn, as always. I have been reading about the withdrawer and I think it is underrated in the opening, so watch out for it.\n\nGood luck!\n\n-- \nAlice Liddell\nhttps://example.com/~alice\n",
		comment: "Opening with the king's pawn, as always. I have been reading about the withdrawer and I think it is underrated in the opening, so watch out for it.\n\nGood luck!",
	}, {
		file:     "thunderbird-reply.eml",
		subject:  "Re: Ultima Board 101 bob **",
		from:     "bob@example.net",
		fromName: "Bob Builder",
		text:     "Am 21.11.26 um 22:31 schrieb pbemd:\n> Summary of Ultima Board 101\n>\n> It is alice's turn.\n>\n>  1. e7-e5        Black  bob\n>\n>    a b c d e f g h\n> 8 L K I W C I N R 8\n\nHa, we'll see about that. Your withdrawer looks lonely over there.\n",
		// Bottom-posted: the text below the quote is the comment.
		comment: "Ha, we'll see about that. Your withdrawer looks lonely over there.",
	}, {
		file:     "gmail-reply.eml",
		subject:  "Re: Ultima Board 101 carol **",
		from:     "carol.example@gmail.com",
		fromName: "Carol Danvers",
		text:     "ultima move 101 carol secret b1-c3\n\nNice opening \u2013 but the chameleon will have something to say about it.\n\nOn Sat, Nov 21, 2026 at 10:31\u202fPM pbemd <pbem@example.org>\nwrote:\n\n> Summary of Ultima Board 101\n>\n> It is alice's turn.\n>\n>  1. e7-e5        Black  bob\n>\n>    a b c d e f g h\n> 8 L K I W C I N R 8\n",
		comment:  "ultima move 101 carol secret b1-c3\n\nNice opening \u2013 but the chameleon will have something to say about it.",
	}, {
		file:     "outlook-original.eml",
		subject:  "RE: Ultima Board 101 dave **",
		from:     "dave@example.co.uk",
		fromName: "Dave Smith",
		// ISO-8859-1 label, windows-1252 byte 0x96 (en dash), as Outlook sends.
		text:    "My move is in the subject. Caf\u00e9 break now \u2013 back in an hour.\n\nDave\n\n-----Original Message-----\nFrom: pbemd <pbem@example.org> \nSent: Saturday, November 21, 2026 9:31 PM\nTo: Dave Smith <dave@example.co.uk>\nSubject: Ultima Board 101 dave **\n\nSummary of Ultima Board 101\n\nIt is dave's turn.\n",
		comment: "My move is in the subject. Caf\u00e9 break now \u2013 back in an hour.\n\nDave",
	}, {
		file:     "outlook-fromsent.eml",
		subject:  "tanbo move 102 erin secret j13",
		from:     "erin@example.com",
		fromName: "Erin Example",
		text:     "That\u2019s my root cut off, I think.\n\nGet Outlook for iOS<https://aka.ms/o0ukef>\n________________________________\nFrom: pbemd <pbem@example.org>\nSent: Saturday, November 21, 2026 11:59:02 PM\nTo: Erin Example <erin@example.com>\nSubject: Tanbo Board 102 erin\n\nSummary of Tanbo Board 102\n",
		comment:  "That\u2019s my root cut off, I think.",
	}, {
		file:     "apple-iphone.eml",
		subject:  "Re: Ultima Board 101 frank **",
		from:     "frank@icloud.example",
		fromName: "Frank Hopper",
		text:     "Bishop to... no wait, wrong game. Coordinator it is.\n\nSent from my iPhone\n\n> On Nov 21, 2026, at 22:31, pbemd <pbem@example.org> wrote:\n>\n> \ufeffSummary of Ultima Board 101\n>\n> It is frank's turn.\n",
		comment:  "Bishop to... no wait, wrong game. Coordinator it is.",
	}, {
		file:     "apple-mac.eml",
		subject:  "Re: Taratibu Board 103 grace",
		from:     "grace@example.org.uk",
		fromName: "Grace Hopper",
		text:     "I resign this one, well played.\n\nGrace\n\nOn 21 Nov 2026, at 23:59, pbemd <pbem@example.org> wrote:\n\nSummary of Taratibu Board 103\n\nIt is grace's turn.\n\n",
		comment:  "I resign this one, well played.\n\nGrace",
	}, {
		file:     "mutt.eml",
		subject:  "multiple",
		from:     "heidi@example.net",
		fromName: "Heidi Klum",
		text:     "ultima move 104 heidi secret a2-a4\n  tanbo show 102\n\ntanbo games heidi active\n-- \nHeidi  |  gpg 0x4242DEADBEEF\n",
		comment:  "ultima move 104 heidi secret a2-a4\n  tanbo show 102\n\ntanbo games heidi active",
	}, {
		file:     "html-only.eml",
		subject:  "Re: Tobit Board 105 ivan",
		from:     "ivan@webmail.example",
		fromName: "Ivan Petrov",
		// Head, script, style and comments vanish; the blockquote is quoted.
		text:    "I take the draw & thank you for the game.\n\nIvan\nMoscow <\u2192> Berlin\n\n> Summary of Tobit Board 105\n> It is ivan's turn.\n",
		comment: "I take the draw & thank you for the game.\n\nIvan\nMoscow <\u2192> Berlin",
	}, {
		file:     "iso-subject.eml",
		subject:  "ultima move 101 j\u00f6rg secret e2-e5",
		from:     "joerg@example.de",
		fromName: "J\u00f6rg M\u00fcller",
		text:     "Gr\u00fc\u00dfe aus K\u00f6ln.\n",
		comment:  "Gr\u00fc\u00dfe aus K\u00f6ln.",
	}, {
		file:    "folded-subject.eml",
		subject: "tanbo challenge kate leo -size=9 --nagtime=3",
		from:    "kate@example.com",
		text:    "Fancy a game, Leo?\n",
		comment: "Fancy a game, Leo?",
	}, {
		file:     "attachment.eml",
		subject:  "ultima chat 101 mia secret",
		from:     "mia@example.com",
		fromName: "Mia Wong",
		// The notes.txt attachment is text/plain too, but a file.
		text:    "I attached my notes on the opening, if anyone wants them.\n",
		comment: "I attached my notes on the opening, if anyone wants them.",
	}, {
		file:     "bounce.eml",
		subject:  "Undelivered Mail Returned to Sender",
		from:     "MAILER-DAEMON@mx.example.org",
		fromName: "Mail Delivery System",
		text:     "This is the mail system at host mx.example.org.\n\nI'm sorry to have to inform you that your message could not\nbe delivered to one or more recipients.\n\n<nobody@example.invalid>: Host or domain name not found.\n",
		comment:  "This is the mail system at host mx.example.org.\n\nI'm sorry to have to inform you that your message could not\nbe delivered to one or more recipients.\n\n<nobody@example.invalid>: Host or domain name not found.",
		ignore:   "Auto-Submitted",
	}, {
		file:     "autoreply.eml",
		subject:  "Automatic reply: Ultima Board 101 nina",
		from:     "nina@example.com",
		fromName: "Nina Simone",
		text:     "I am out of the office until December 1st.\n",
		comment:  "I am out of the office until December 1st.",
		ignore:   "Auto-Submitted",
	}, {
		file:     "list.eml",
		subject:  "[games] ultima tournament this winter?",
		from:     "oscar@example.com",
		fromName: "Oscar Wilde",
		text:     "Anyone up for an Ultima tournament?\n",
		comment:  "Anyone up for an Ultima tournament?",
		ignore:   "List-Id",
	}, {
		file:    "no-message-id.eml",
		subject: "help",
		from:    "pat@example.com",
		text:    "please send help\n",
		comment: "please send help",
	}, {
		file:     "broken-charset.eml",
		subject:  "tobit show 105", // the encoded word of an unknown charset is still read
		from:     "quinn@example.com",
		fromName: "Quinn",
		text:     "Na\u00efve moves only.\n", // unknown charset, not UTF-8: read as windows-1252
		comment:  "Na\u00efve moves only.",
	}, {
		file:     "broken-base64.eml",
		subject:  "tobit show 105",
		from:     "rita@example.com",
		fromName: "Rita",
		text:     "Hello there.\n", // what decoded before the garbage
		comment:  "Hello there.",
	}, {
		file:     "noreply.eml",
		subject:  "Your weekly digest",
		from:     "no-reply@example.com",
		fromName: "Example Games",
		text:     "Nothing new this week.\n",
		comment:  "Nothing new this week.",
		ignore:   "no-reply@example.com",
	}}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			m, err := ReadMail(readMailCorpus(t, tt.file))
			if err != nil {
				t.Fatalf("ReadMail: %v", err)
			}
			if m.Subject != tt.subject {
				t.Errorf("Subject = %q, want %q", m.Subject, tt.subject)
			}
			if m.From != tt.from || m.FromName != tt.fromName {
				t.Errorf("From = %q, %q, want %q, %q", m.From, m.FromName, tt.from, tt.fromName)
			}
			if m.Text != tt.text {
				t.Errorf("Text = %q\nwant   %q", m.Text, tt.text)
			}
			if c := Comment(m.Text); c != tt.comment {
				t.Errorf("Comment = %q\nwant      %q", c, tt.comment)
			}
			why := m.Ignore(own)
			switch {
			case tt.ignore == "" && why != "":
				t.Errorf("Ignore = %q, want the mail answered", why)
			case tt.ignore != "" && !strings.Contains(why, tt.ignore):
				t.Errorf("Ignore = %q, want a reason naming %q", why, tt.ignore)
			}
		})
	}
}

// TestReadMailFields checks the fields that thread replies and deduplicate
// mail.
func TestReadMailFields(t *testing.T) {
	t.Parallel()
	m, err := ReadMail(readMailCorpus(t, "thunderbird-reply.eml"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "a9d0e6b2-77c4-4e0f-8d2b-1f2e3d4c5b6a@example.net"; m.MessageID != want || m.Key != "id:"+want {
		t.Errorf("MessageID, Key = %q, %q, want %q, %q", m.MessageID, m.Key, want, "id:"+want)
	}
	if m.InReplyTo != "c7vcr3ajx6gm2mljyjt5rq7d@example.org" {
		t.Errorf("InReplyTo = %q", m.InReplyTo)
	}
	// References is folded over two lines in the mail.
	if want := []string{"kq3mzt2b4w7xq5c6h2ypdr4a@example.org", "c7vcr3ajx6gm2mljyjt5rq7d@example.org"}; !slices.Equal(m.References, want) {
		t.Errorf("References = %q, want %q", m.References, want)
	}
	if want := time.Date(2026, 11, 21, 22, 2, 41, 0, time.UTC); !m.Date.Equal(want) {
		t.Errorf("Date = %v, want %v", m.Date, want)
	}
	if m.ReturnPath != "bob@example.net" {
		t.Errorf("ReturnPath = %q", m.ReturnPath)
	}
	if got := m.Header.Get("User-Agent"); got != "Mozilla Thunderbird" {
		t.Errorf(`Header.Get("User-Agent") = %q`, got)
	}

	raw := readMailCorpus(t, "no-message-id.eml")
	m, err = ReadMail(raw)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	if want := "sha256:" + hex.EncodeToString(sum[:]); m.MessageID != "" || m.Key != want {
		t.Errorf("without Message-ID: MessageID, Key = %q, %q, want \"\", %q", m.MessageID, m.Key, want)
	}

	m, err = ReadMail(readMailCorpus(t, "bounce.eml"))
	if err != nil {
		t.Fatal(err)
	}
	if m.ReturnPath != "<>" {
		t.Errorf("bounce ReturnPath = %q, want <>", m.ReturnPath)
	}
}

func TestReadMailLenient(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw      string
		subject, text  string
		from, fromName string
	}{
		{"LF line ends", "From: a@example.org\nSubject: help\n\nbody\n", "help", "body\n", "a@example.org", ""},
		{"no body", "From: a@example.org\r\nSubject: help\r\n", "help", "", "a@example.org", ""},
		{"mbox From line", "From a@example.org Sun Nov 22 10:00:00 2026\nFrom: a@example.org\nSubject: list\n\nx\n", "list", "x\n", "a@example.org", ""},
		{"garbage header line skipped", "From: a@example.org\r\nthis is no field\r\nSubject: list\r\n\r\nx\r\n", "list", "x\n", "a@example.org", ""},
		{"no Content-Type, 8-bit latin-1", "From: a@example.org\r\nSubject: x\r\n\r\nK\xf6ln\r\n", "x", "K\u00f6ln\n", "a@example.org", ""},
		{"raw UTF-8 subject", "From: a@example.org\r\nSubject: tanbo  show\t\u00e9t\u00e9 \r\n\r\n", "tanbo show \u00e9t\u00e9", "", "a@example.org", ""},
		{"unparsable From", "From: Bob Smith <bob@example.org (oops\r\nSubject: x\r\n\r\n", "x", "", "bob@example.org", "Bob Smith"},
		{"lone CR line ends", "From: a@example.org\r\nSubject: x\r\n\r\na\rb\r\n", "x", "a\nb\n", "a@example.org", ""},
		{"base64 with broken line", "From: a@example.org\r\nSubject: x\r\nContent-Transfer-Encoding: base64\r\n\r\naGk=\r\n", "x", "hi", "a@example.org", ""},
		{"unknown transfer encoding", "From: a@example.org\r\nSubject: x\r\nContent-Transfer-Encoding: x-uuencode\r\n\r\nraw\r\n", "x", "raw\n", "a@example.org", ""},
		{"multipart without boundary", "From: a@example.org\r\nSubject: x\r\nContent-Type: multipart/mixed\r\n\r\nraw\r\n", "x", "", "a@example.org", ""},
		{"image only", "From: a@example.org\r\nSubject: x\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n", "x", "", "a@example.org", ""},
		{"html with pre", "From: a@example.org\r\nSubject: x\r\nContent-Type: text/html\r\n\r\n<pre>a  b\n c</pre><p>d</p>", "x", "a  b\n c\n\nd\n", "a@example.org", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ReadMail([]byte(tt.raw))
			if err != nil {
				t.Fatalf("ReadMail: %v", err)
			}
			if m.Subject != tt.subject || m.Text != tt.text || m.From != tt.from || m.FromName != tt.fromName {
				t.Errorf("got Subject %q, Text %q, From %q, %q\nwant       %q, %q, %q, %q", m.Subject, m.Text, m.From, m.FromName, tt.subject, tt.text, tt.from, tt.fromName)
			}
		})
	}
}

func TestReadMailNotAMail(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{"", "\r\n\r\nbody only", "hello world\n", "<html><body>x</body></html>"} {
		if m, err := ReadMail([]byte(raw)); err == nil {
			t.Errorf("ReadMail(%q) = %+v, want an error", raw, m)
		}
	}
}

// FuzzReadMail checks that no input makes ReadMail, Comment, CommandLines or
// Excerpt panic, that what ReadMail gives is valid UTF-8 with a one-line
// subject within the limits (the defaults, and small ones that the fuzzer
// reaches), and that a refused mail comes with its header and no text.
func FuzzReadMail(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "mail", "*.eml"))
	for _, name := range files {
		raw, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	for _, c := range mailmsgtest.Hostile() {
		f.Add(c.Raw[:min(len(c.Raw), 2000)])
	}
	f.Add([]byte("From: a@b\r\nContent-Type: multipart/alternative; boundary=x\r\n\r\n--x\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n--x--\r\n"))
	f.Add([]byte("From: a@b\r\nContent-Type: text/html\r\n\r\n<blockquote><blockquote><pre>x</blockquote><script>"))
	small := Limits{MaxMailBytes: 4000, MaxHeaderBytes: 1000, MaxHeaderFields: 12, MaxMIMEDepth: 3, MaxMIMEParts: 6, MaxTextBytes: 300, MaxQuoteDepth: 2}
	f.Fuzz(func(t *testing.T, raw []byte) {
		Comment(string(raw))
		CommandLines(string(raw))
		if e := Excerpt(string(raw), 5, 200); len(e) > 200+60 {
			t.Errorf("Excerpt of %d bytes", len(e))
		}
		for _, lim := range []Limits{{}, small} {
			m, err := lim.ReadMail(raw)
			if errors.Is(err, ErrTooLarge) {
				if m == nil || m.Text != "" {
					t.Fatalf("refused mail gave %+v", m)
				}
			} else if err != nil {
				continue
			}
			if m.Key == "" || len(m.Key) > len("id:")+MaxMsgIDLen {
				t.Errorf("Key %q", m.Key)
			}
			for name, s := range map[string]string{"Subject": m.Subject, "Text": m.Text, "FromName": m.FromName} {
				if !utf8.ValidString(s) {
					t.Errorf("%s %q is not valid UTF-8", name, s)
				}
			}
			if strings.ContainsAny(m.Subject, "\r\n") || strings.Contains(m.Text, "\r") {
				t.Errorf("line breaks not normalized: Subject %q, Text %q", m.Subject, m.Text)
			}
			if l := lim.WithDefaults(); len(m.Text) > l.MaxTextBytes {
				t.Errorf("text of %d bytes, over %d", len(m.Text), l.MaxTextBytes)
			}
			m.Ignore([]string{"pbem@example.org"})
			Comment(m.Text)
		}
	})
}

func TestAlternativeBlankPlain(t *testing.T) {
	t.Parallel()
	raw := "From: a@example.com\r\nSubject: x\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n" +
		"--b\r\nContent-Type: text/plain\r\n\r\n \r\n" +
		"--b\r\nContent-Type: text/html\r\n\r\n<p>\xef\xbb\xbftanbo show 102</p>\r\n--b--\r\n"
	m, err := ReadMail([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"tanbo show 102"}; !slices.Equal(CommandLines(m.Text), want) {
		t.Errorf("Text %q gives commands %q, want %q", m.Text, CommandLines(m.Text), want)
	}
}

// TestReadMailOtherCharsets checks charsets beyond the western ones, which
// go-message's charset tables decode.
func TestReadMailOtherCharsets(t *testing.T) {
	t.Parallel()
	cases := []struct {
		charset string
		body    []byte
		want    string
	}{
		{"koi8-r", []byte{0xD0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4}, "привет"},
		{"iso-8859-7", []byte{0xE3, 0xE5, 0xE9, 0xE1}, "γεια"},
		{"shift_jis", []byte{0x82, 0xB1, 0x82, 0xF1}, "こん"},
	}
	for _, c := range cases {
		raw := append([]byte("From: a@example.org\r\nSubject: x\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset="+c.charset+"\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"), c.body...)
		m, err := ReadMail(raw)
		if err != nil {
			t.Fatalf("%s: %v", c.charset, err)
		}
		if got := strings.TrimSpace(m.Text); got != c.want {
			t.Errorf("%s: text %q, want %q", c.charset, got, c.want)
		}
	}
}
