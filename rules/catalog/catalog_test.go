package catalog

import (
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	for name, want := range map[string]string{
		"ultima": "ultima", "Baroque": "ultima", "TANBO": "tanbo", "taratibu": "taratibu", "tobit": "tobit",
	} {
		g, ok := Lookup(name)
		if !ok || g.Name() != want {
			t.Errorf("Lookup(%q) = %v, %v; want %s", name, g, ok, want)
		}
	}
	if g, ok := Lookup("chess"); ok {
		t.Errorf("Lookup(chess) found %s", g.Name())
	}
	if got := strings.Join(Names(), " "); got != "ultima tanbo taratibu tobit" {
		t.Errorf("Names() = %q; want the four games in display order", got)
	}
	all := All()
	all[0] = nil // a copy: the registry itself must not change
	if All()[0] == nil {
		t.Errorf("All returned the registry itself")
	}
}
