package catalog

import (
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/rulestest"
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

// Register refuses a name or alias taken already, in any case, and a name
// that is no lower-case word: the catalog is left as it was.
func TestRegisterRefuses(t *testing.T) {
	tanbo, _ := Lookup("tanbo")
	for _, g := range []rules.Game{
		tanbo,
		rulestest.Renamed(tanbo, "ultima", "Ultima again"),
		aliased{rulestest.Renamed(tanbo, "newgame", "New"), []string{"baroque"}},
		rulestest.Renamed(tanbo, "Tanbo2", "Tanbo 2"),
		rulestest.Renamed(tanbo, "tanbo 2", "Tanbo 2"),
		rulestest.Renamed(tanbo, "", "Nameless"),
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q, aliases %q) did not refuse", g.Name(), g.Aliases())
				}
			}()
			Register(g)
		}()
	}
	if got := strings.Join(Names(), " "); got != "ultima tanbo taratibu tobit" {
		t.Errorf("after refusals the catalog is %q", got)
	}
}

type aliased struct {
	rules.Game
	aliases []string
}

func (a aliased) Aliases() []string { return a.aliases }
