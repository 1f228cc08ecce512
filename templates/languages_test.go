package templates

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// verb is a verb of a fmt format, with its argument index if it has one.
var verb = regexp.MustCompile(`%(\[\d+\])?[-+# 0-9.]*[a-zA-Z%]`)

// TestTranslationsKeepTheirVerbs formats every sentence of every language
// with arguments of the kinds its English key takes: a translation that
// lost, added or mistyped a verb prints fmt's "%!", and one whose verbs
// no longer take every argument drops what the player must read.
func TestTranslationsKeepTheirVerbs(t *testing.T) {
	for _, lang := range Languages()[1:] {
		keys := Keys(lang)
		if len(keys) < 200 {
			t.Errorf("%s has only %d sentences", lang, len(keys))
		}
		for _, key := range keys {
			var args []any
			var shown []string // each argument as the sentence prints it
			for i, v := range verb.FindAllString(key, -1) {
				switch v[len(v)-1] {
				case '%':
					continue
				case 'd':
					args = append(args, 1000+i)
					shown = append(shown, strconv.Itoa(1000+i))
				case 'c':
					args = append(args, rune('A'+i))
					shown = append(shown, string(rune('A'+i)))
				default:
					args = append(args, "arg"+string(rune('A'+i)))
					shown = append(shown, "arg"+string(rune('A'+i)))
				}
			}
			got := Sprintf(lang, key, args...)
			if strings.Contains(got, "%!") {
				t.Errorf("%s %q: %q", lang, key, got)
			}
			for _, a := range shown {
				if !strings.Contains(got, a) {
					t.Errorf("%s %q drops the argument %s: %q", lang, key, a, got)
				}
			}
		}
	}
}

// TestLanguage: a player names a language by its code in any case or with
// a region; anything else is none offered.
func TestLanguage(t *testing.T) {
	for name, want := range map[string]string{"de": "de", "DE": "de", "de-AT": "de", "en": "en", "en-GB": "en"} {
		if got, ok := Language(name); !ok || got != want {
			t.Errorf("Language(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"", "klingon", "fr", "../de", "de\x00", strings.Repeat("de-", 100), "x-" + strings.Repeat("a", 8)} {
		if got, ok := Language(name); ok {
			t.Errorf("Language(%q) = %q; want none", name, got)
		}
	}
}

// TestRenderIn: a language's own file replaces the English template; a
// template it lacks is English, with its short phrases translated; a
// language not offered is English.
func TestRenderIn(t *testing.T) {
	data := map[string]any{"Address": "pbem@example.org"}
	de, err := RenderIn("de", "tutorial", data)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(de, "Ein erstes Spiel, Schritt für Schritt\n") || !strings.Contains(de, "     tanbo move 101 alice secret h7#1\n") {
		t.Errorf("German tutorial:\n%s", de)
	}
	en, _ := Render("howto", map[string]any{"Address": "pbem@example.org"})
	if got, _ := RenderIn("de", "howto", map[string]any{"Address": "pbem@example.org"}); got != en {
		t.Errorf("a template German lacks is not the English one:\n%s", got)
	}
	msg := map[string]any{"Msg": "x", "Original": "> y"}
	if got, _ := RenderIn("de", "error", msg); !strings.Contains(got, "Es folgt die ursprüngliche Nachricht:") {
		t.Errorf("German error mail:\n%s", got)
	}
	for _, lang := range []string{"", "fr", English} {
		if got, _ := RenderIn(lang, "error", msg); !strings.Contains(got, "Original message follows:") {
			t.Errorf("error mail in %q:\n%s", lang, got)
		}
	}
}

// TestWordsOnlyAsWords: a word of the catalog ("White") is translated as
// an argument of a sentence, never as a sentence; a player's text that
// is no word stays as it is.
func TestWordsOnlyAsWords(t *testing.T) {
	if got := Sprintf("de", "It is %s's turn.", "White"); got != "Weiß ist am Zug." {
		t.Errorf("got %q", got)
	}
	if got := Sprintf("de", "It is %s's turn.", "white"); got != "white ist am Zug." {
		t.Errorf("got %q", got)
	}
	if got := T("de", "White"); got != "White" {
		t.Errorf("a word as a sentence: %q", got)
	}
	if got := Sprintf("de", "no such sentence %d", 1001); got != "no such sentence 1001" {
		t.Errorf("a sentence German lacks: %q", got)
	}
}
