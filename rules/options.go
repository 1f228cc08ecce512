package rules

import (
	"fmt"
	"sort"
	"strings"
)

// An Option is one -param word a game accepts at challenge time.
//
// A flag option has no Values and is written "-name". A valued option is
// written "-name=value" with one of Values; when it is not given, Default
// applies.
type Option struct {
	Name    string
	Values  []string
	Default string
	Help    string
}

// Word is how the option is written in a challenge: "-pure", "-size=N".
func (o Option) Word() string {
	if len(o.Values) == 0 {
		return "-" + o.Name
	}
	return "-" + o.Name + "=" + strings.Join(o.Values, "|")
}

// Options are the chosen options of a board: name to value, "" for a flag
// that is set. Options not present have their default.
type Options map[string]string

// Has reports whether a flag option is set.
func (o Options) Has(name string) bool {
	_, ok := o[name]
	return ok
}

// Get returns the value of a valued option, or def when it was not chosen.
func (o Options) Get(name, def string) string {
	if v, ok := o[name]; ok {
		return v
	}
	return def
}

// Words returns the options as canonical -param words, sorted, the form in
// which boards store them and mails print them.
func (o Options) Words() []string {
	words := make([]string, 0, len(o))
	for name, v := range o {
		if v == "" {
			words = append(words, "-"+name)
		} else {
			words = append(words, "-"+name+"="+v)
		}
	}
	sort.Strings(words)
	return words
}

// String is Words joined by spaces.
func (o Options) String() string { return strings.Join(o.Words(), " ") }

// ParseOptions checks -param words against the options of g. An unknown or
// malformed word is refused with the list of valid ones. A valued option set
// to its default is not stored, so equal choices give equal Options.
func ParseOptions(g Game, words []string) (Options, error) {
	opts := Options{}
	for _, w := range words {
		if !strings.HasPrefix(w, "-") {
			return nil, optionError(w, "is not an option: options start with -; "+validOptions(g))
		}
		name, value, hasValue := strings.Cut(strings.ToLower(w[1:]), "=")
		o, n := findOption(g, name)
		switch {
		case n > 1:
			return nil, optionError(w, "is the start of more than one option of "+g.Title()+"; write more of its name")
		case n == 0:
			return nil, optionError(w, "is not an option; "+validOptions(g))
		case len(o.Values) == 0 && hasValue:
			return nil, optionError(w, "takes no value; write "+o.Word())
		case len(o.Values) > 0 && !hasValue:
			return nil, optionError(w, "needs a value; write "+o.Word())
		case len(o.Values) > 0 && !contains(o.Values, value):
			return nil, optionError(w, "has a value -"+o.Name+" does not take; write "+o.Word())
		}
		if hasValue && value == o.Default {
			delete(opts, o.Name)
			continue
		}
		opts[o.Name] = value
	}
	return opts, nil
}

// findOption finds the option called name, or else the options whose names
// start with it (as pbmserv, an option may be abbreviated to a unique
// prefix); n is how many matched.
func findOption(g Game, name string) (o Option, n int) {
	if name == "" {
		return Option{}, 0
	}
	for _, x := range g.Options() {
		if x.Name == name {
			return x, 1
		}
	}
	for _, x := range g.Options() {
		if strings.HasPrefix(x.Name, name) {
			o, n = x, n+1
		}
	}
	return o, n
}

// optionError refuses an option word in one sentence that starts with it
// and says what would be right.
func optionError(word, what string) error {
	return &Error{Msg: fmt.Sprintf("%q %s", word, what)}
}

func validOptions(g Game) string {
	opts := g.Options()
	if len(opts) == 0 {
		return g.Title() + " has no options"
	}
	words := make([]string, len(opts))
	for i, o := range opts {
		words[i] = o.Word()
	}
	return "the options of " + g.Title() + " are " + strings.Join(words, " ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Swap is the pie rule, an option a game offers when its rules allow it:
// after the first player's first turn, the second player may answer "swap"
// and take over the first player's side, so the first player has reason to
// open with a move of no great advantage. The server carries it out; the
// rules of the game are not changed.
var Swap = Option{Name: "swap", Help: "the pie rule: after the first move the second player may swap sides instead of moving"}
