package mailmsg

import (
	"slices"
	"testing"
)

func TestComment(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text, want string
	}{
		{"plain", "Good move.\n", "Good move."},
		{"blank lines and trailing spaces", "\n\n  Good move.   \n\n  Really.\t\n\n\n", "  Good move.\n\n  Really."},
		{"empty", "", ""},
		{"quote without attribution", "Nice.\n> old text\nreply\n", "Nice.\n\nreply"},
		{"bottom posted", "On Sat, Nov 21, 2026 at 10:31 PM pbemd <pbem@example.org> wrote:\n> Summary of Ultima Board 104\n> board\n\nWell played.\n", "Well played."},
		{"bottom posted wrapped attribution", "On Sat, Nov 21, 2026 at 10:31 PM pbemd <\npbem@example.org> wrote:\n\n> board\n\nWell played.\n-- \nBob\n", "Well played."},
		{"interleaved", "Hello.\n\nbob wrote:\n> Your turn?\n\nYes.\n> Good.\nThanks.\n", "Hello.\n\nYes.\n\nThanks."},
		{"German bottom posted", "Am 21.11.26 um 22:31 schrieb pbemd:\n> board\nGut.\n", "Gut."},
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
	t.Parallel()
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
