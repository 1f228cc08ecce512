package templates

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/message/catalog"
)

// English is the language of a player who chose none: the text of the
// code and of the templates in this directory, which the catalogs of the
// other languages translate.
const English = "en"

// messages holds the translations of every language but English, keyed by
// the English text (a fmt format when the text has arguments), so English
// needs no second copy. A language is one line here and a file of its own
// (de.go) with one line a string; its long texts are files in a directory
// of its name (de/help.tmpl).
//
// Words are the strings a sentence takes as arguments that are the
// server's or a game's, not a player's: sides ("White"), the ends of games
// ("checkmate"), pieces. They are kept apart (wordKey), so that a player's
// move or user id is never taken for one and translated.
var (
	catalogs = map[language.Tag]texts{
		language.German: {[]map[string]string{german, germanRules, germanService}, germanWords},
	}
	messages = build(catalogs)
)

// texts are a language's sentences, in as many maps as its file keeps
// apart, and its words.
type texts struct {
	sentences []map[string]string
	words     map[string]string
}

// build makes the catalog.
func build(langs map[language.Tag]texts) *catalog.Builder {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	set := func(lang language.Tag, key, text string) {
		if err := b.SetString(lang, key, text); err != nil {
			panic(fmt.Sprintf("templates: %s %q: %v", lang, key, err))
		}
	}
	for lang, t := range langs {
		for _, m := range t.sentences {
			for key, text := range m {
				set(lang, key, text)
			}
		}
		for key, text := range t.words {
			set(lang, wordKey+key, text)
		}
	}
	return b
}

// wordKey starts the keys of words in the catalog.
const wordKey = "\x00word:"

// Languages lists the languages a player may choose, English first.
func Languages() []string {
	out := []string{English}
	for _, t := range messages.Languages() {
		if s := t.String(); s != English {
			out = append(out, s)
		}
	}
	slices.Sort(out[1:])
	return out
}

// Language is the code of the language a player named ("de", "DE",
// "de-AT"), and false when it is none offered: the first offered that the
// name's base language matches.
func Language(name string) (string, bool) {
	if len(name) > 35 { // the longest tag anyone writes is far shorter
		return "", false
	}
	t, err := language.Parse(name)
	if err != nil {
		return "", false
	}
	base, _ := t.Base()
	for _, l := range Languages() {
		if lb, _ := language.Make(l).Base(); lb == base {
			return l, true
		}
	}
	return "", false
}

// Text is a sentence not yet translated: a format of the catalog and its
// arguments. As a value it prints in English; Sprintf prints it in the
// reader's language, and so does an argument of Sprintf that is a Text.
type Text struct {
	Format string
	Args   []any
}

func (t Text) String() string { return fmt.Sprintf(t.Format, t.Args...) }

// Sprintf formats in lang what format, a key of the catalog, says in
// English. A format the language lacks is printed in English. Arguments
// that are Texts, or strings that are words of the catalog (a side,
// "White"; a game's end, "checkmate"), are translated too. Numbers are
// printed as fmt prints them: a board number a player copies into a
// command must stay "1001", not "1.001".
func Sprintf(lang, format string, args ...any) string {
	if lang == English || lang == "" {
		return fmt.Sprintf(format, args...)
	}
	out := make([]any, len(args))
	for i, a := range args {
		switch a := a.(type) {
		case Text:
			out[i] = Sprintf(lang, a.Format, a.Args...)
		case string:
			if w, ok := lookup(lang, wordKey+a); ok {
				out[i] = w
			} else {
				out[i] = a
			}
		default:
			out[i] = a
		}
	}
	return fmt.Sprintf(translate(lang, format), out...)
}

// Keys lists the sentences lang translates (not its words), for tests
// and tools; nil for English, which translates none.
func Keys(lang string) []string {
	var keys []string
	for _, m := range catalogs[language.Make(lang)].sentences {
		for key := range m {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	return keys
}

// T is s, a sentence of the catalog without arguments, in lang; s itself
// when lang lacks it.
func T(lang, s string) string { return translate(lang, s) }

// Has reports whether lang translates key, a sentence or, when word is
// set, a word: English has every one.
func Has(lang, key string, word bool) bool {
	if lang == English {
		return true
	}
	if word {
		key = wordKey + key
	}
	_, ok := lookup(lang, key)
	return ok
}

// translate is the text of key in lang, or key itself when it has none.
func translate(lang, key string) string {
	if s, ok := lookup(lang, key); ok {
		return s
	}
	return key
}

func lookup(lang, key string) (string, bool) {
	if lang == English || lang == "" || key == "" {
		return "", false
	}
	var r raw
	if err := messages.Context(language.Make(lang), &r).Execute(key); err != nil {
		return "", false
	}
	return r.String(), true
}

// raw takes a message of the catalog as it is stored, its verbs
// unexpanded: the formatting is fmt's (see Sprintf), not the catalog
// printer's, which would group a board's number in thousands.
type raw struct{ strings.Builder }

func (r *raw) Render(s string) { r.WriteString(s) }
func (r *raw) Arg(i int) any   { return nil }
