package pbem

import (
	"strings"
	"testing"
)

// A multiple mail of 2,000 lines from a forged From: 20 commands run; the
// boards shown come one a mail, as pbmserv sends them, and one reply
// answers the rest, all bounded in size.
func TestMultipleThousandsOfLines(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, line, each string }{
		{"shows", "tanbo show 101", "Summary of Tanbo Board 101\n"},
		{"errors", "tanbo show 999", "There is no Tanbo board 999"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := twoPlayers(t)
			body := strings.Repeat(c.line+"\n", 2000)
			raw := h.mail("victim@forged.example", "multiple", body)
			out := h.deliver(raw)
			size, each := 0, 0
			for _, r := range out {
				if r.To != "victim@forged.example" {
					t.Fatalf("reply %q to %s", r.Subject, r.To)
				}
				size += len(r.Raw)
				each += strings.Count(r.Body, c.each)
			}
			if each != 20 {
				t.Errorf("%d answers to %q in the replies; want 20", each, c.line)
			}
			says(t, merged(t, out).Body, "1980 more commands were not run: at most 20 per mail. The first not run was:\n\n    "+c.line+"\n")
			t.Logf("a mail of %d bytes and 2,000 lines: %d replies of %d bytes", len(raw), len(out), size)
			if len(out) > 21 || size > 128<<10 {
				t.Errorf("%d replies of %d bytes; want at most 21 and 128 KB", len(out), size)
			}
		})
	}
}

// The answers to one address merge into one mail, but a board shown (or a
// board's error) goes in a mail of its own whose subject names the board,
// as on pbmserv, so that a mail filter on "Tanbo Board 101" finds it; board
// mails to the players stay one per board.
func TestMultipleMergesAnswers(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.send("bob@example.org", "tobit challenge bob alice", "")
	body := "tanbo move 101 alice pw-alice h7\ntanbo show 101\nhelp\ntobit show 101\nlist tanbo\ntanbo move 101 alice pw-alice b2\n"
	out := h.send("alice@example.org", "multiple", body)
	want := []string{
		"alice@example.org: Tanbo Board 101 bob",
		"bob@example.org: Tanbo Board 101 bob",
		"alice@example.org: Tanbo Board 101 bob",
		"alice@example.org: pbemd: 2 replies to your mail",
		"alice@example.org: Tobit Board 101 bob",
		"alice@example.org: Tanbo Board 101 Error",
	}
	if got := subjects(out); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("replies:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	says(t, out[3].Body,
		"This mail holds 2 replies to your mail, in the order of its commands.\n",
		"\n======== 1 of 2: pbemd help ========\n",
		"\n======== 2 of 2: ")
	says(t, out[5].Body, "It is not your turn on Tanbo board 101",
		"Original message follows:\n\n> From: alice@example.org\n> Subject: multiple\n> Date: Sun, 22 Nov 2026 12:00:00 +0000\n>\n> tanbo move 101 alice ******** b2\n")
	// A board shown is in the thread of its board.
	if len(out[2].References) == 0 || out[2].References[0] != out[0].References[0] {
		t.Errorf("board shown references %v, the board %v", out[2].References, out[0].References)
	}
}

// merged is the one reply of out that is no board's own mail: the answers
// to the sender merged (subject "pbemd: ...").
func merged(t *testing.T, out []reply) reply {
	t.Helper()
	var found []reply
	for _, r := range out {
		if strings.HasPrefix(r.Subject, "pbemd: ") {
			found = append(found, r)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d merged answers in %v; want one", len(found), subjects(out))
	}
	return found[0]
}
