package pbem

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/pbem/pbemtest"
)

// A Message-ID longer than the store's largest key is handled once, like any
// other: the second copy changes nothing and gets no reply.
func TestHugeMessageIDHandledOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id := strings.Repeat("x", 40000) + "@client.example"
	raw := pbemtest.Vouch("alice@example.org", []byte(fmt.Sprintf("From: alice@example.org\r\nTo: pbem@example.org\r\nSubject: signup alice pw-alice\r\nMessage-ID: <%s>\r\n\r\n", id)))
	if out := h.deliver(raw); len(out) != 1 || !strings.Contains(out[0].Subject, "welcome") {
		t.Fatalf("first copy: replies %v, want the welcome", subjects(out))
	}
	if out := h.deliver(raw); len(out) != 0 {
		t.Fatalf("second copy: replies %v, want none", subjects(out))
	}
}
