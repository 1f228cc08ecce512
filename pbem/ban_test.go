package pbem

import "testing"

// Mail from a banned address, or from any address of a banned user, is
// dropped without a reply and changes nothing; unbanned, it works again.
func TestBan(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice")
	for _, what := range []string{"Alice@Example.org", "ALICE"} {
		if _, err := h.svc.Ban(what, true, h.now); err != nil {
			t.Fatal(err)
		}
		if out := h.send("alice@example.org", "help", ""); len(out) != 0 {
			t.Errorf("banned %s: got replies %v", what, subjects(out))
		}
		if _, err := h.svc.Ban(what, false, h.now); err != nil {
			t.Fatal(err)
		}
		one(t, h.send("alice@example.org", "help", ""), "alice@example.org")
	}
	if _, err := h.svc.Ban("nobody", true, h.now); err == nil {
		t.Error("banning a user id that does not exist: no error")
	}
	list, err := h.svc.Banned()
	if err != nil || len(list) != 0 {
		t.Errorf("Banned after unbanning all = %v, %v", list, err)
	}
}
