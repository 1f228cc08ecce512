package web

import (
	"strings"
	"testing"

	"github.com/pbemd/pbemd/pbem/pbemtest"
)

// A board's page tells the reminder and forfeit days its challenge set,
// as its board mails do, not the defaults; a board that set none tells
// the defaults the sweep keeps.
func TestBoardDays(t *testing.T) {
	s := servedAfter(t,
		pbemtest.Mail("alice@example.org", "signup alice secret", "", "d1@client.example"),
		pbemtest.Mail("bob@example.org", "signup bob secret", "", "d2@client.example"),
		pbemtest.Mail("alice@example.org", "tanbo challenge alice bob --nagtime=3 --forfeittime=10", "", "d3@client.example"),
		pbemtest.Mail("alice@example.org", "tanbo challenge alice bob", "", "d4@client.example"))
	for path, want := range map[string]string{
		"/tanbo/101": "Reminder after 3 days, forfeit after 10 days without a move.",
		"/tanbo/102": "Reminder after 7 days, forfeit after 21 days without a move.",
	} {
		page := body(t, get(t, s, path))
		if strings.Count(page, "Reminder after") != 1 || !strings.Contains(page, want) {
			t.Errorf("%s does not tell %q once:\n%.3000s", path, want, page)
		}
	}
}
