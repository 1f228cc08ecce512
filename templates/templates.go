// Package templates holds the text of every mail pbemd writes, embedded in the
// binary. The service fills them with text/template; golden files in package
// pbem test what comes out.
package templates

import (
	"bytes"
	"embed"
	"io/fs"
	"strings"
	"text/template"
)

//go:embed *.tmpl de/*.tmpl
var files embed.FS

// set holds the English templates; sets the templates of each language:
// the English ones, whose short phrases "tr" translates, with the
// language's own files (de/*.tmpl, the long texts) in place of those of
// the same name.
var (
	set  = parse(English)
	sets = parseAll()
)

func parseAll() map[string]*template.Template {
	m := map[string]*template.Template{}
	for _, lang := range Languages() {
		m[lang] = parse(lang)
	}
	return m
}

func parse(lang string) *template.Template {
	t := template.Must(template.New("").Funcs(template.FuncMap{
		"join": strings.Join,
		"tr":   func(format string, args ...any) string { return Sprintf(lang, format, args...) },
	}).ParseFS(files, "*.tmpl"))
	if lang == English {
		return t
	}
	if own, _ := fs.Glob(files, lang+"/*.tmpl"); len(own) > 0 {
		t = template.Must(t.ParseFS(files, own...))
	}
	return t
}

// Render fills the template called name (the file name without .tmpl) with data.
func Render(name string, data any) (string, error) { return RenderIn(English, name, data) }

// RenderIn fills the template called name in the language lang, English
// when lang is none offered.
func RenderIn(lang, name string, data any) (string, error) {
	t := sets[lang]
	if t == nil {
		t = set
	}
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, name+".tmpl", data); err != nil {
		return "", err
	}
	return squeeze(b.String()), nil
}

// Source is the text of the template called name as lang has it in a file
// of its own, and false when lang has none (English has every one).
func Source(lang, name string) (string, bool) {
	path := name + ".tmpl"
	if lang != English {
		path = lang + "/" + path
	}
	b, err := files.ReadFile(path)
	return string(b), err == nil
}

// Names lists the templates, for tests.
func Names() []string {
	var names []string
	for _, t := range set.Templates() {
		if n, ok := strings.CutSuffix(t.Name(), ".tmpl"); ok {
			names = append(names, n)
		}
	}
	return names
}

// squeeze removes blank lines at the start, folds runs of blank lines into one
// (so optional sections leave no holes) and ends the text with one newline.
// Other lines are kept byte for byte: boards must arrive exactly as drawn.
func squeeze(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 1)
	kept, gap := false, false // a line was kept; blank lines came after it
	for {
		line, rest, more := strings.Cut(s, "\n")
		if strings.TrimSpace(line) == "" {
			gap = kept
		} else {
			if gap {
				b.WriteByte('\n')
			}
			b.WriteString(line)
			b.WriteByte('\n')
			kept, gap = true, false
		}
		if !more {
			break
		}
		s = rest
	}
	if !kept {
		return "\n"
	}
	return b.String()
}
