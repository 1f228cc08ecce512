package rules

import (
	"strings"
	"testing"
)

// testGame is the smallest Game: enough to check option parsing.
type testGame struct{}

func (testGame) Name() string      { return "test" }
func (testGame) Title() string     { return "Test" }
func (testGame) Aliases() []string { return nil }
func (testGame) Sides() [2]string  { return [2]string{"White", "Black"} }
func (testGame) Options() []Option {
	return []Option{
		{Name: "pure", Help: "pure rules"},
		{Name: "size", Values: []string{"19", "13", "9"}, Default: "19", Help: "board size"},
		Swap,
	}
}
func (testGame) Start(Options) (Position, error)                 { return nil, nil }
func (testGame) ParsePosition(string, Options) (Position, error) { return nil, nil }
func (testGame) Help() string                                    { return "" }

func TestParseOptions(t *testing.T) {
	good := []struct {
		words []string
		want  string
	}{
		{nil, ""},
		{[]string{"-pure"}, "-pure"},
		{[]string{"-SIZE=9", "-pure"}, "-pure -size=9"},
		{[]string{"-size=19"}, ""}, // the default is not stored
		{[]string{"-size=9", "-size=19"}, ""},
		// A unique prefix is the option, stored under its full name.
		{[]string{"-pu", "-si=9"}, "-pure -size=9"},
		{[]string{"-SW"}, "-swap"},
	}
	for _, c := range good {
		opts, err := ParseOptions(testGame{}, c.words)
		if err != nil {
			t.Errorf("ParseOptions(%q): %v", c.words, err)
			continue
		}
		if got := opts.String(); got != c.want {
			t.Errorf("ParseOptions(%q) = %q, want %q", c.words, got, c.want)
		}
	}
	bad := []struct {
		word, want string
	}{
		{"-fast", `"-fast" is not an option; the options of Test are -pure -size=19|13|9 -swap`},
		{"-s=9", `"-s=9" is the start of more than one option of Test; write more of its name`},
		{"-", `"-" is not an option; the options of Test are`},
		{"pure", `"pure" is not an option: options start with -`},
		{"-pure=yes", `"-pure=yes" takes no value; write -pure`},
		{"-size", `"-size" needs a value; write -size=19|13|9`},
		{"-size=7", `"-size=7" has a value -size does not take; write -size=19|13|9`},
	}
	for _, c := range bad {
		_, err := ParseOptions(testGame{}, []string{c.word})
		if err == nil {
			t.Errorf("ParseOptions(%q) accepted a bad word", c.word)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseOptions(%q) error = %q, want it to start %q", c.word, err, c.want)
		}
	}
}

func TestOptionsGetHas(t *testing.T) {
	opts, err := ParseOptions(testGame{}, []string{"-pure", "-size=13"})
	if err != nil {
		t.Fatal(err)
	}
	if !opts.Has("pure") || opts.Get("size", "19") != "13" {
		t.Errorf("options %v: want pure set and size 13", opts)
	}
	none := Options{}
	if none.Has("pure") || none.Get("size", "19") != "19" {
		t.Errorf("empty options should have defaults")
	}
}

func TestStepString(t *testing.T) {
	if got := (Step{Move: "Ld2-d8", Captured: []string{"d3", "d5", "d7"}}).String(); got != "Ld2-d8 (takes d3 d5 d7)" {
		t.Errorf("got %q", got)
	}
	if got := (Step{Move: "Pe2-e5"}).String(); got != "Pe2-e5" {
		t.Errorf("got %q", got)
	}
}
