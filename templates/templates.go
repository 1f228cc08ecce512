// Package templates holds the text of every mail pbemd writes, embedded in the
// binary. The service fills them with text/template; golden files in package
// pbem test what comes out.
package templates

import (
	"bytes"
	"embed"
	"strings"
	"text/template"
)

//go:embed *.tmpl
var files embed.FS

var set = template.Must(template.New("").Funcs(template.FuncMap{
	"join": strings.Join,
}).ParseFS(files, "*.tmpl"))

// Render fills the template called name (the file name without .tmpl) with data.
func Render(name string, data any) (string, error) {
	var b bytes.Buffer
	if err := set.ExecuteTemplate(&b, name+".tmpl", data); err != nil {
		return "", err
	}
	return squeeze(b.String()), nil
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
