package web

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	"net/url"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed templates/style.css
var styleCSS []byte

// pages are the page templates, each parsed with the shared layout.
var pages = func() map[string]*template.Template {
	funcs := template.FuncMap{
		"path": url.PathEscape,
		// rows is the table of a list of boards, with or without the
		// column of end dates (rows.go).
		"rows":  boardsHTML,
		"round": rounded,
	}
	m := map[string]*template.Template{}
	for _, name := range []string{"front", "game", "board", "standings", "user", "error", "unsubscribe", "tournaments", "tournament"} {
		m[name] = template.Must(template.New("layout.html").Funcs(funcs).ParseFS(templateFiles, "templates/layout.html", "templates/"+name+".html"))
	}
	return m
}()

// render writes the page template name with data.
func (s *Server) render(w io.Writer, name string, data any) error {
	t, ok := pages[name]
	if !ok {
		return fmt.Errorf("web: no page template %q", name)
	}
	if err := t.Execute(w, data); err != nil {
		return fmt.Errorf("web: page %s: %w", name, err)
	}
	return nil
}
