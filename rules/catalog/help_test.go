package catalog

import (
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules"
)

// Every game's help draws its start with the rules themselves (so it cannot
// drift from play), and its worked examples are legal: Help would panic on
// one that is not. Prose lines fit 72 columns.
func TestHelpDrawsStartAndExamples(t *testing.T) {
	for _, g := range All() {
		help := g.Help()
		opts, _ := rules.ParseOptions(g, nil)
		if g.Name() == "tanbo" {
			opts, _ = rules.ParseOptions(g, []string{"-size=9"})
		}
		start, err := g.Start(opts)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(help, strings.TrimRight(start.Board(), "\n")) {
			t.Errorf("%s help lacks the start diagram", g.Name())
		}
		if strings.Count(help, "(takes ") == 0 && g.Name() != "taratibu" {
			t.Errorf("%s help has no worked capture", g.Name())
		}
		for _, l := range strings.Split(help, "\n") {
			if len(l) > 72 {
				t.Errorf("%s help line of %d columns: %q", g.Name(), len(l), l)
			}
		}
	}
}

// An example the rules refuse is an error, not a wrong help.
func TestHelpExampleIllegal(t *testing.T) {
	g, _ := Lookup("tanbo")
	_, err := rules.HelpExamples(g, []string{"-size=9"}, []rules.HelpExample{{Title: "bad", Moves: []string{"e5"}}})
	if err == nil {
		t.Error("an illegal example was drawn")
	}
}
