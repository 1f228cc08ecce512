package web

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/pbem/pbemtest"
)

// The front page lists each game's newest seeks, frontSeeks at most, each
// with the exact command that takes its seat; an invitation, which keeps
// its seats for the players it names, and a seek taken are no seeks.
func TestFrontPageSeeks(t *testing.T) {
	t.Parallel()
	var mails [][]byte
	mail := func(from, subject string) {
		mails = append(mails, pbemtest.Mail(from+"@example.org", subject, "", fmt.Sprintf("s%d@client.example", len(mails))))
	}
	n := frontSeeks + 1
	for i := range n {
		id := fmt.Sprintf("p%d", i)
		mail(id, "signup "+id+" secret")
		mail(id, "tanbo seek "+id+" secret -size=9")
	}
	mail("p0", "tobit seek p0 secret")
	mail("p1", "tobit accept 101 p1 secret") // taken: in play, no seek
	mails = append(mails, pbemtest.Forged("mallory@evil.example", "tanbo challenge p2 ?", "", "s-forged@client.example"))

	page := body(t, get(t, servedAfter(t, mails...), "/"))
	for i := 1; i < n; i++ {
		for _, want := range []string{
			fmt.Sprintf(`<a href="/tanbo/%d">tanbo %d</a> by <a href="/users/p%d">p%d</a> (-size=9)`, 101+i, 101+i, i, i),
			fmt.Sprintf("<code>tanbo accept %d USERID PASSWORD</code>", 101+i),
		} {
			if !strings.Contains(page, want) {
				t.Errorf("the front page lacks %q", want)
			}
		}
	}
	// Both are on the page, in play.
	for _, want := range []string{`<a href="/tanbo/110">tanbo 110</a>`, "invited: p2", `<a href="/tobit/101">tobit 101</a>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the front page lacks %q", want)
		}
	}
	// The oldest seek is past the bound; the invitation and the seek
	// taken are none.
	for _, not := range []string{"tanbo accept 101 ", "tanbo accept 110 ", "tobit accept "} {
		if strings.Contains(page, not) {
			t.Errorf("the front page lists %q as a seek", not)
		}
	}
	if got := strings.Count(page, "<li><a href=\"/tanbo/"); got != frontSeeks {
		t.Errorf("the front page lists %d tanbo seeks; want %d", got, frontSeeks)
	}
}
