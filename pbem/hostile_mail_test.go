package pbem

import (
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/mailmsg/mailmsgtest"
)

// TestHostileMail runs the hostile corpus through the service: each mail
// is handled (a mail that is no mail at all excepted), gets at most one
// reply, to its sender (the first address of a From that lists many), of a
// few kilobytes.
func TestHostileMail(t *testing.T) {
	h := newHarness(t)
	for _, c := range mailmsgtest.Hostile() {
		t.Run(c.Name, func(t *testing.T) {
			if err := h.svc.Deliver(c.Raw); err != nil {
				if c.Name == "bytes-only-random" {
					return // no header: not a mail; the transport keeps it
				}
				t.Fatalf("Deliver: %v", err)
			}
			out := h.outbox()
			if len(out) > 1 {
				t.Fatalf("%d replies: %v", len(out), subjects(out))
			}
			for _, r := range out {
				if r.To != mailmsgtest.From && !strings.HasPrefix(c.Name, "addresses-from-") {
					t.Errorf("reply to %s, want the sender %s", r.To, mailmsgtest.From)
				}
				if len(r.Raw) > 16<<10 {
					t.Errorf("reply %q of %d bytes", r.Subject, len(r.Raw))
				}
			}
			h.now = h.now.Add(25 * time.Hour) // past the daily how-to bound
		})
	}
}
