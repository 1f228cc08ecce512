package pbem

import (
	"strings"
	"testing"
)

// A paused address resumes when its player answers a board mail from it:
// the reply's token proves the mail comes from an address of his, as the
// pause notice tells him ("answer a board mail from it").
func TestReplyTokenResumesPausedAddress(t *testing.T) {
	h := watchHarness(t)
	out := h.send("dead@example.net", "tanbo challenge dead bob", "")
	var boardMail *reply
	for i := range out {
		if out[i].To == "dead@example.net" && strings.HasPrefix(out[i].messageID(), tokenIDPrefix) {
			boardMail = &out[i]
		}
	}
	if boardMail == nil {
		t.Fatalf("dead@example.net got no board mail with a token: %v", subjects(out))
	}
	h.pause("dead@example.net")
	who, move := firstLegal(t, h, 102)
	if who != "dead" {
		t.Fatalf("%s to move on board 102, want dead", who)
	}
	// The token named only in References, as any later mail of the thread
	// copies it, proves nothing.
	threaded := strings.Replace(string(h.plainReply("dead@example.net", *boardMail, "thanks\n")),
		"In-Reply-To: <"+boardMail.messageID()+">", "In-Reply-To: <x@client.example>", 1)
	h.sendStamped([]byte(threaded))
	if !pausedNow(h, "dead@example.net") {
		t.Fatal("a token named only in References resumed the address")
	}
	h.sendStamped(h.plainReply("dead@example.net", *boardMail, move+"\n"))
	if n := len(h.game("tanbo", 102).Moves); n != 1 {
		t.Fatalf("the reply played %d moves, want 1", n)
	}
	if pausedNow(h, "dead@example.net") {
		t.Error("a reply with the board mail's token, from the paused address, did not resume it")
	}
}
