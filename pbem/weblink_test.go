package pbem

import (
	"strings"
	"testing"
)

// With a public web address configured, every board mail ends with the
// link to its board's page (only the command to send follows it in the
// mail to the player to move); without one, board mails carry no link.
func TestBoardMailLink(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	out := h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "")
	for _, r := range out {
		if strings.Contains(r.Body, "on the web") || strings.Contains(r.Body, "http") {
			t.Errorf("without public_url the board mail to %s links somewhere:\n%s", r.To, r.Body)
		}
	}
	h.svc.cfg.PublicURL = "https://pbem.example.org/"
	out = h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "")
	r := boardMails(t, out, "Tanbo Board 101 alice", "alice@example.org", "bob@example.org")
	body, _, _ := strings.Cut(r.Body, "\nYour move. ")
	if !strings.HasSuffix(body, "\n\nThe board on the web: https://pbem.example.org/tanbo/101\n") {
		t.Errorf("the board mail does not end with its link:\n%s", r.Body)
	}
	out = h.send("carol@example.org", "tanbo show 101", "")
	if len(out) != 1 || !strings.Contains(out[0].Body, "The board on the web: https://pbem.example.org/tanbo/101\n") {
		t.Errorf("show: %v", out)
	}
}
