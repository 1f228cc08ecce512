package pbem

import (
	"crypto/sha256"
	"encoding/hex"
	"net/mail"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
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
		// Bottom-posted: the comment ends at the first quote, as mail.md says.
		comment: "",
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
	for _, raw := range []string{"", "\r\n\r\nbody only", "hello world\n", "<html><body>x</body></html>"} {
		if m, err := ReadMail([]byte(raw)); err == nil {
			t.Errorf("ReadMail(%q) = %+v, want an error", raw, m)
		}
	}
}

func TestIgnore(t *testing.T) {
	own := []string{"pbemd <pbem@example.org>", "games@example.org"}
	tests := []struct {
		name   string
		header string
		want   string // a word of the reason, "" for no reason
	}{
		{"plain mail", "From: alice@example.com\r\n", ""},
		{"Auto-Submitted: no", "From: alice@example.com\r\nAuto-Submitted: no\r\n", ""},
		{"Auto-Submitted: auto-generated", "From: alice@example.com\r\nAuto-Submitted: auto-generated\r\n", "Auto-Submitted"},
		{"Auto-Submitted with a comment", "From: alice@example.com\r\nAuto-Submitted: auto-replied (vacation)\r\n", "Auto-Submitted"},
		{"Auto-Submitted: No; x=y", "From: alice@example.com\r\nAuto-Submitted: No; x=y\r\n", ""},
		{"Precedence bulk", "From: alice@example.com\r\nPrecedence: bulk\r\n", "Precedence"},
		{"Precedence list", "From: alice@example.com\r\nPrecedence: List\r\n", "Precedence"},
		{"Precedence junk", "From: alice@example.com\r\nPrecedence: junk\r\n", "Precedence"},
		{"Precedence first-class", "From: alice@example.com\r\nPrecedence: first-class\r\n", ""},
		{"List-Id", "From: alice@example.com\r\nList-Id: <x.example.com>\r\n", "List-Id"},
		{"null return path", "Return-Path: <>\r\nFrom: alice@example.com\r\n", "return path"},
		{"null return path with spaces", "Return-Path: < >\r\nFrom: alice@example.com\r\n", "return path"},
		{"multipart/report", "From: alice@example.com\r\nContent-Type: multipart/report; report-type=disposition-notification; boundary=b\r\n", "multipart/report"},
		{"MAILER-DAEMON", "From: Mail Delivery Subsystem <MAILER-DAEMON@example.com>\r\n", "MAILER-DAEMON"},
		{"postmaster", "From: postmaster@example.com\r\n", "postmaster"},
		{"noreply", "From: noreply@example.com\r\n", "noreply"},
		{"no-reply with tag", "From: no-reply+abc@example.com\r\n", "no-reply"},
		{"do-not-reply", "From: Shop <do-not-reply@shop.example>\r\n", "do-not-reply"},
		{"donotreply", "From: DoNotReply@shop.example\r\n", "DoNotReply"},
		{"a player named noreplyfan", "From: noreplyfan@example.com\r\n", ""},
		{"bounce return path", "Return-Path: <MAILER-DAEMON@example.com>\r\nFrom: alice@example.com\r\n", "MAILER-DAEMON"},
		{"own address", "From: pbemd <pbem@example.org>\r\n", "own"},
		{"own address, other case", "From: PBEM@Example.ORG\r\n", "own"},
		{"own second address", "From: games@example.org\r\n", "own"},
		{"no From", "Subject: x\r\n", "From"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ReadMail([]byte(tt.header + "\r\nbody\r\n"))
			if err != nil {
				t.Fatal(err)
			}
			why := m.Ignore(own)
			if tt.want == "" && why != "" || tt.want != "" && !strings.Contains(why, tt.want) {
				t.Errorf("Ignore = %q, want %q", why, tt.want)
			}
		})
	}
}

func TestComment(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"plain", "Good move.\n", "Good move."},
		{"blank lines and trailing spaces", "\n\n  Good move.   \n\n  Really.\t\n\n\n", "  Good move.\n\n  Really."},
		{"empty", "", ""},
		{"quote without attribution", "Nice.\n> old text\nreply\n", "Nice."},
		{"indented quote", "Nice.\n   > old text\n", "Nice."},
		{"signature", "Nice.\n-- \nAlice\n", "Nice."},
		{"signature without space", "Nice.\n--\nAlice\n", "Nice."},
		{"dashes in text are no signature", "Nice --- really.\n---\nmore\n", "Nice --- really.\n---\nmore"},
		{"Sent from my iPhone", "Nice.\n\nSent from my iPhone\n", "Nice."},
		{"Sent from my Galaxy", "Nice.\nSent from my Galaxy\n", "Nice."},
		{"Gmail attribution", "Nice.\n\nOn Sat, Nov 21, 2026 at 10:31 PM pbemd <pbem@example.org> wrote:\n\n> board\n", "Nice."},
		{"Gmail attribution wrapped", "Nice.\n\nOn Sat, Nov 21, 2026 at 10:31 PM pbemd <\npbem@example.org> wrote:\n\n> board\n", "Nice."},
		{"Thunderbird attribution", "Nice.\n\nOn 11/21/26 10:31 PM, pbemd wrote:\n> board\n", "Nice."},
		{"name wrote", "Nice.\n\npbemd wrote:\n> board\n", "Nice."},
		{"German Thunderbird", "Gut.\n\nAm 21.11.26 um 22:31 schrieb pbemd:\n> board\n", "Gut."},
		{"French", "Bien.\n\nLe 21/11/2026 \u00e0 22:31, pbemd a \u00e9crit\u00a0:\n> board\n", "Bien."},
		{"French ascii colon", "Bien.\n\nLe 21/11/2026 \u00e0 22:31, pbemd a \u00e9crit :\n> board\n", "Bien."},
		{"Apple Mail at-time", "Nice.\n\nOn Nov 21, 2026, at 22:31, pbemd <pbem@example.org> wrote:\n\nSummary\n", "Nice."},
		{"Apple Mail at-time quoted", "Nice.\n\n> On Nov 21, 2026, at 22:31, pbemd <pbem@example.org> wrote:\n>\n", "Nice."},
		{"Outlook original message", "Nice.\n\n-----Original Message-----\nFrom: pbemd\nSent: today\n", "Nice."},
		{"Outlook Express original message", "Nice.\n----- Original Message -----\nFrom: pbemd\n", "Nice."},
		{"Outlook From Sent block", "Nice.\n\nFrom: pbemd <pbem@example.org>\nSent: Saturday, November 21, 2026 9:31 PM\nTo: Dave\nSubject: x\n\nSummary\n", "Nice."},
		{"Outlook bold From Date block", "Nice.\n\n*From:* pbemd <pbem@example.org>\n*Date:* Saturday, November 21, 2026 9:31 PM\n", "Nice."},
		{"Outlook underline block", "Nice.\n\n________________________________\nFrom: pbemd <pbem@example.org>\nSent: Saturday\n", "Nice."},
		{"a line starting From: alone stays", "From: my heart\nGood game.\n", "From: my heart\nGood game."},
		{"Gmail forward", "See this.\n\n---------- Forwarded message ---------\nFrom: x\n", "See this."},
		{"Apple forward", "See this.\n\nBegin forwarded message:\n\nFrom: x\n", "See this."},
		{"On in the text is no attribution", "On second thought, I resign.\nGood game.\n", "On second thought, I resign.\nGood game."},
		{"colon line before quote is kept", "Look at this:\n> board\n", "Look at this:"},
		{"CRLF", "Nice.\r\n\r\nBye.\r\n-- \r\nA\r\n", "Nice.\n\nBye."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Comment(tt.text); got != tt.want {
				t.Errorf("Comment(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestCommandLines(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"lines", "ultima show 101\n  tanbo show 102  \n\n\ntobit games\n", []string{"ultima show 101", "tanbo show 102", "tobit games"}},
		{"signature", "help\n-- \nalice\nhelp ultima\n", []string{"help"}},
		{"mobile signature", "help\n\nSent from my iPhone\n", []string{"help"}},
		{"quoted mail", "help\n\nOn Sat, Nov 21, 2026, pbemd wrote:\n> ultima move 101\n", []string{"help"}},
		{"empty", "\n\n", nil},
		{"CRLF", "help\r\nlist\r\n", []string{"help", "list"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CommandLines(tt.text); !slices.Equal(got, tt.want) {
				t.Errorf("CommandLines(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

// FuzzReadMail checks that no input makes ReadMail, Comment or CommandLines
// panic, and that what ReadMail gives is valid UTF-8 with a one-line subject.
func FuzzReadMail(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "mail", "*.eml"))
	for _, name := range files {
		raw, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Add([]byte("From: a@b\r\nContent-Type: multipart/alternative; boundary=x\r\n\r\n--x\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n--x--\r\n"))
	f.Add([]byte("From: a@b\r\nContent-Type: text/html\r\n\r\n<blockquote><blockquote><pre>x</blockquote><script>"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		Comment(string(raw))
		CommandLines(string(raw))
		m, err := ReadMail(raw)
		if err != nil {
			return
		}
		if m.Key == "" {
			t.Error("empty Key")
		}
		for name, s := range map[string]string{"Subject": m.Subject, "Text": m.Text, "FromName": m.FromName} {
			if !utf8.ValidString(s) {
				t.Errorf("%s %q is not valid UTF-8", name, s)
			}
		}
		if strings.ContainsAny(m.Subject, "\r\n") || strings.Contains(m.Text, "\r") {
			t.Errorf("line breaks not normalized: Subject %q, Text %q", m.Subject, m.Text)
		}
		m.Ignore([]string{"pbem@example.org"})
		Comment(m.Text)
	})
}

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

func TestAlternativeBlankPlain(t *testing.T) {
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

// TestIgnoreBuilt checks Ignore on an Incoming made by hand, as tests of the
// command core make them: it reads only the exported fields.
func TestIgnoreBuilt(t *testing.T) {
	m := &Incoming{From: "alice@example.com", Header: mail.Header{"Content-Type": {`Multipart/Report; boundary="x"`}}}
	if why := m.Ignore(nil); !strings.Contains(why, "multipart/report") {
		t.Errorf("Ignore = %q, want multipart/report", why)
	}
	m = &Incoming{From: "alice@example.com"}
	if why := m.Ignore(nil); why != "" {
		t.Errorf("Ignore = %q, want the mail answered", why)
	}
}

// TestReadMailOtherCharsets checks charsets beyond the western ones, which
// go-message's charset tables decode.
func TestReadMailOtherCharsets(t *testing.T) {
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
