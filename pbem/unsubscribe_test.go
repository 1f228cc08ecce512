package pbem

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// unsubscribeLinks are the web token and the mailto address of a copy's
// List-Unsubscribe, checking that both are there with RFC 8058's field.
func unsubscribeLinks(t *testing.T, c *stampedCopy) (token, mailto string) {
	t.Helper()
	v := c.mail.Header.Get("List-Unsubscribe")
	web, rest, ok := strings.Cut(v, ">, <mailto:")
	token, ok2 := strings.CutPrefix(web, "<https://pbem.example.org/unsubscribe/")
	mailto, _, ok3 := strings.Cut(rest, "?subject=unsubscribe>")
	if !ok || !ok2 || !ok3 || c.mail.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Fatalf("the copy to %s has List-Unsubscribe %q, List-Unsubscribe-Post %q; want a web link, a mailto and One-Click",
			c.to, v, c.mail.Header.Get("List-Unsubscribe-Post"))
	}
	return token, mailto
}

// A watcher's copy carries its own List-Unsubscribe, a player's mail of
// his game in play none; the one click of its web link (as RFC 8058's POST calls
// Unsubscribe) stops the board's mail to that address and says so, and a
// later subscribe brings it back. A link changed in any part is refused.
func TestOneClickUnsubscribe(t *testing.T) {
	h := watchHarness(t)
	out := h.chat("hello")
	dead := copyTo(out, "dead@example.net")
	token, _ := unsubscribeLinks(t, dead)
	alive, _ := unsubscribeLinks(t, copyTo(out, "alive@example.org"))
	if alive == token {
		t.Fatal("two addresses got the same link")
	}
	if v := copyTo(out, "bob@example.org").mail.Header.Get("List-Unsubscribe"); v != "" {
		t.Fatalf("a player's mail of his game in play has List-Unsubscribe %q", v)
	}
	parts := strings.Split(token, ".")
	otherAddr := strings.Split(alive, ".")[3]
	for _, bad := range []string{
		"", "tanbo.101", token + "x",
		strings.Join([]string{parts[0], parts[1], parts[2], otherAddr}, "."),                     // dead's MAC, alive's address
		strings.Join([]string{parts[0], "102", parts[2], parts[3]}, "."),                         // another board
		strings.Join([]string{parts[0], parts[1], strings.Repeat("a", macChars), parts[3]}, "."), // a guessed MAC
		strings.Repeat("a", 10000),
	} {
		text, ok, err := h.svc.Unsubscribe(bad)
		if ok || err != nil || text == "" {
			t.Fatalf("Unsubscribe(%.40q) = %q, %v, %v; want a refusal that says why", bad, text, ok, err)
		}
	}
	if copyTo(h.chat("still there?"), "dead@example.net") == nil {
		t.Fatal("a refused link unsubscribed")
	}
	text, ok, err := h.svc.Unsubscribe(token)
	if !ok || err != nil || !strings.Contains(text, "No more mail of Tanbo board 101 goes to this address") {
		t.Fatalf("Unsubscribe = %q, %v, %v", text, ok, err)
	}
	if c := copyTo(h.chat("gone?"), "dead@example.net"); c != nil {
		t.Fatal("the chat still went to the address that unsubscribed")
	}
	// Its board mail, the first a subscriber gets, carries the link too.
	unsubscribeLinks(t, copyTo(h.sendStamped(h.mail("dead@example.net", "tanbo subscribe 101 dead pw-dead", "")), "dead@example.net"))
	if copyTo(h.chat("back"), "dead@example.net") == nil {
		t.Fatal("subscribing again did not bring the board's mail back")
	}
}

// The mailto link unsubscribes when mailed from the address it was made
// for, and says so; mailed from another address it does nothing and
// says what would work.
func TestUnsubscribeByMail(t *testing.T) {
	h := watchHarness(t)
	_, mailto := unsubscribeLinks(t, copyTo(h.chat("hello"), "dead@example.net"))
	to := func(raw []byte) []byte {
		return []byte(strings.Replace(string(raw), "To: pbem@example.org", "To: "+mailto, 1))
	}
	out := h.sendStamped(to(h.forged("alice@example.org", "unsubscribe", "")))
	if len(out) != 1 || out[0].to != "alice@example.org" || !strings.Contains(out[0].mail.Text, "not one pbemd made for your address") {
		t.Fatalf("another address's unsubscribe mail got %+v", recipients(out))
	}
	if copyTo(h.chat("still"), "dead@example.net") == nil {
		t.Fatal("another address's mail unsubscribed dead")
	}
	out = h.sendStamped(to(h.forged("dead@example.net", "unsubscribe", "")))
	if len(out) != 1 || out[0].to != "dead@example.net" || !strings.Contains(out[0].mail.Text, "No more mail of Tanbo board 101") {
		t.Fatalf("the unsubscribe mail got %v", recipients(out))
	}
	checkWidth(t, "unsubscribed", reply{Subject: out[0].mail.Subject, Body: out[0].mail.Text})
	if copyTo(h.chat("gone?"), "dead@example.net") != nil {
		t.Fatal("the chat still went to the address that unsubscribed")
	}
}

// A reminder carries List-Unsubscribe; its click stops the reminders of
// that board to the player, never the mails of his game's moves.
func TestUnsubscribeFromReminders(t *testing.T) {
	h := watchHarness(t)
	h.stamped()
	h.now = h.now.Add(7 * day)
	if err := h.svc.Sweep(h.now); err != nil {
		t.Fatal(err)
	}
	nag := copyTo(h.stamped(), "alice@example.org")
	if nag == nil || !strings.HasPrefix(nag.mail.Subject, "Nag: ") {
		t.Fatal("no reminder to alice")
	}
	token, _ := unsubscribeLinks(t, nag)
	if text, ok, err := h.svc.Unsubscribe(token); !ok || err != nil || !strings.Contains(text, "no reminders") {
		t.Fatalf("Unsubscribe = %q, %v, %v", text, ok, err)
	}
	h.now = h.now.Add(7*day + time.Hour)
	if err := h.svc.Sweep(h.now); err != nil {
		t.Fatal(err)
	}
	if c := copyTo(h.stamped(), "alice@example.org"); c != nil {
		t.Fatalf("a reminder went after the click: %q", c.mail.Subject)
	}
	if c := copyTo(h.chat("my move comes"), "alice@example.org"); c == nil {
		t.Fatal("the player's own board mail stopped")
	}
}

// Mails to an unsubscribe address count against their sender's budget as
// any command does: forged in numbers under a victim's From, they draw at
// most the budget's answers to him (and one warning), not one each.
func TestUnsubscribeByMailBounded(t *testing.T) {
	h := watchHarness(t)
	_, mailto := unsubscribeLinks(t, copyTo(h.chat("hello"), "dead@example.net"))
	bad := strings.Replace(mailto, "@", "x@", 1) // a changed link
	answers := 0
	for i := range 80 {
		raw := h.forged("victim@example.com", fmt.Sprintf("unsubscribe %d", i), "")
		raw = []byte(strings.Replace(string(raw), "To: pbem@example.org", "To: "+bad, 1))
		answers += len(h.sendStamped(raw))
	}
	if most := h.svc.limits.Mails + 1; answers > most {
		t.Errorf("80 forged mails to a changed unsubscribe address drew %d answers to their From; want at most %d", answers, most)
	}
}
