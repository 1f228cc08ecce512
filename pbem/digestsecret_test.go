package pbem

import (
	"testing"
	"time"
)

// A player who writes the full command, password and all, as a line of
// his reply to a digest does not get his password quoted back.
func TestDigestReplyMasksPassword(t *testing.T) {
	h := digestHarness(t, 1)
	h.now = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	d := one(t, h.sweep(), "alice@example.org")
	_, move := firstLegal(t, h, 101)
	out := h.deliver(h.plainReply("alice@example.org", d, "tanbo move 101 alice pw-alice "+move+"\n"))
	a := one(t, filterTo(out, "alice@example.org"), "alice@example.org")
	hasNot(t, a.Body, "pw-alice")
	// The digest's token is spent: the refusal quotes the mail, masked.
	out = h.deliver(h.plainReply("alice@example.org", d, "tanbo move 101 alice pw-alice "+move+"\n"))
	a = one(t, filterTo(out, "alice@example.org"), "alice@example.org")
	says(t, a.Body, "This digest has been answered already")
	hasNot(t, a.Body, "pw-alice")
}
