package intake

import (
	"fmt"
	"strings"
	"testing"
)

// Each way in tells its own name with every verdict, once per mail, so the
// mails in are counted by way and verdict in one place.
func TestVerdictsByWay(t *testing.T) {
	f := newFake()
	f.fail["bad"] = permanent{}
	got := map[string]int{}
	in := New(f, Options{Logger: quiet, Largest: 100, OnVerdict: func(way string, k Kind) { got[way+" "+k.String()]++ }})
	in.Via("imap").Take(mails("one", "bad", "two"), InOrder)
	in.Via("lmtp").Take([]Mail{mail("three"), mail("big " + strings.Repeat("x", 200))}, Apart)
	want := map[string]int{"imap done": 2, "imap set aside": 1, "lmtp done": 1, "lmtp set aside": 1}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("verdicts told %v; want %v", got, want)
	}
	if fmt.Sprint(f.handled) != "[one two three]" {
		t.Errorf("handled %v; both ways into the one service", f.handled)
	}
}
