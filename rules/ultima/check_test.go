package ultima

import (
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules"
)

// TestCheckAfterFreezing lists complete move lists where the check rule
// depends on which pieces are frozen in the position after the move. In
// each, the black withdrawer on d2 would take the white king on e1 by
// withdrawing to c3 if it were free to move.
func TestCheckAfterFreezing(t *testing.T) {
	tests := []struct {
		name string
		pos  string
		opts rules.Options
		want string
	}{
		// The immobilizer may move only to squares that keep the withdrawer
		// frozen (or that block its way out).
		{"the immobilizer must keep the withdrawer frozen", "7k/8/8/8/8/3I4/3w4/4K3 w", defaults,
			"Ke1-d1 Ke1-f1 Ke1-d2 Ke1-e2 Ke1-f2 Id3-c2 Id3-e2 Id3-c3 Id3-e3"},
		// The immobilizer is frozen by the chameleon on c4 but still freezes
		// the withdrawer; removing it would free the withdrawer.
		{"no suicide that frees an attacker", "7k/8/8/8/2x5/3I4/3w4/4K3 w", defaults,
			"Ke1-d1 Ke1-f1 Ke1-d2 Ke1-e2 Ke1-f2"},
		// Under the pure rules the chameleon next to the immobilizer frees
		// the withdrawer: White is in check, and Ke1-e2 stays in it.
		{"pure: a chameleon frees the attacker", "7k/8/8/8/2x5/3I4/3w4/4K3 w", pure,
			"Ke1-d1 Ke1-f1 Ke1-d2 Ke1-f2"},
	}
	for _, tt := range tests {
		pos := mustParse(t, tt.pos, tt.opts)
		if got := strings.Join(pos.Legal(), " "); sorted(got) != sorted(tt.want) {
			t.Errorf("%s: legal moves\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
	if p := mustParse(t, "7k/8/8/8/2x5/3I4/3w4/4K3 w", pure).(*Position); !p.b.inCheck(p.r) {
		t.Errorf("pure: White is not in check from the freed withdrawer")
	}
	if p := mustParse(t, "7k/8/8/8/2x5/3I4/3w4/4K3 w", defaults).(*Position); p.b.inCheck(p.r) {
		t.Errorf("default: White is in check from a frozen withdrawer")
	}
}
