package pbem

import (
	"strings"
	"testing"
)

// A multiple mail of 2,000 lines from a forged From: 20 commands run, and
// one reply answers them all and the rest, bounded in size.
func TestMultipleThousandsOfLines(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, line, each string }{
		{"shows", "tanbo show 101", "\n\nSummary of Tanbo Board 101\n"},
		{"errors", "tanbo show 999", "There is no Tanbo board 999"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := twoPlayers(t)
			body := strings.Repeat(c.line+"\n", 2000)
			raw := h.mail("victim@forged.example", "multiple", body)
			r := one(t, h.deliver(raw), "victim@forged.example")
			if r.Subject != "pbemd: 21 replies to your mail" {
				t.Errorf("subject %q", r.Subject)
			}
			if n := strings.Count(r.Body, c.each); n != 20 {
				t.Errorf("%d answers to %q in the reply; want 20", n, c.line)
			}
			says(t, r.Body, "1980 more commands were not run: at most 20 per mail. The first not run was:\n\n    "+c.line+"\n")
			t.Logf("a mail of %d bytes and 2,000 lines: one reply of %d bytes", len(raw), len(r.Raw))
			if len(r.Raw) > 64<<10 {
				t.Errorf("the reply has %d bytes; want at most 64 KB", len(r.Raw))
			}
		})
	}
}

// Answers to one address merge into one mail; board mails to the players
// stay one per board.
func TestMultipleMergesAnswers(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.send("bob@example.org", "tobit challenge bob alice", "")
	body := "tanbo move 101 alice pw-alice h7\ntanbo show 101\nhelp\ntobit show 101\ntanbo move 101 alice pw-alice b2\n"
	out := h.send("alice@example.org", "multiple", body)
	want := []string{
		"alice@example.org: Tanbo Board 101 bob",
		"bob@example.org: Tanbo Board 101 bob",
		"alice@example.org: pbemd: 4 replies to your mail",
	}
	if got := subjects(out); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("replies:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	says(t, out[2].Body,
		"This mail holds 4 replies to your mail, in the order of its commands.\n",
		"\n======== 1 of 4: Tanbo Board 101 bob ========\n",
		"\n======== 2 of 4: pbemd help ========\n",
		"\n======== 3 of 4: Tobit Board 101 bob ========\n",
		"\n======== 4 of 4: Tanbo Board 101 Error ========\n\nIt is not your turn on Tanbo board 101",
		"Original message follows:\n\n> From: alice@example.org\n> Subject: multiple\n> Date: Sun, 22 Nov 2026 12:00:00 +0000\n>\n> tanbo move 101 alice ******** b2\n")
	// The merged answer is in the thread of the first board it shows.
	if len(out[2].References) == 0 || out[2].References[0] != out[0].References[0] {
		t.Errorf("merged answer references %v, the board %v", out[2].References, out[0].References)
	}
}
