package rules

import "testing"

func TestExpandRow(t *testing.T) {
	good := []struct{ row, want string }{
		{"8", "........"},
		{"2P5", "..P....."},
		{"..P5", "..P....."},
		{"clxwkxli", "clxwkxli"},
	}
	for _, c := range good {
		got, err := ExpandRow(c.row, 8, "clxwkiPp")
		if err != nil || got != c.want {
			t.Errorf("ExpandRow(%q) = %q, %v; want %q", c.row, got, err, c.want)
		}
		if back := CompressRow(got); back != CompressRow(c.want) {
			t.Errorf("CompressRow(%q) = %q", got, back)
		}
	}
	if got, err := ExpandRow("12b6", 19, "bw"); err != nil || got != "............b......" {
		t.Errorf("multi-digit run: %q, %v", got, err)
	}
	bad := []struct{ row, want string }{
		{"9", `row "9" has an empty run of 9; runs are 1 to 8`},
		{"7", `row "7" has 7 points, want 8`},
		{"4P4", `row "4P4" is longer than 8 points`},
		{"3Q4", `row "3Q4" has 'Q'; a row holds the letters P p, '.' and digits`},
		{"0P7", `row "0P7" has an empty run of 0; runs are 1 to 8`},
	}
	for _, c := range bad {
		_, err := ExpandRow(c.row, 8, "Pp")
		if err == nil || err.Error() != c.want {
			t.Errorf("ExpandRow(%q) error %v, want %q", c.row, err, c.want)
		}
	}
	if got := CompressRow("..b......"); got != "2b6" {
		t.Errorf("CompressRow = %q", got)
	}
}
