package web

import (
	"html/template"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
)

// htmlTemplateRows is the template boardsHTML replaced: html/template's
// escaping in each place is what the table must keep, whatever a user id
// or a state holds.
var htmlTemplateRows = template.Must(template.New("boards").Funcs(template.FuncMap{"path": url.PathEscape}).Parse(
	`<div class="scroll"><table class="boards">
<thead><tr><th scope="col">Board</th><th scope="col">Players</th><th scope="col" class="num">Moves</th><th scope="col">State</th>{{if .Ended}}<th scope="col">Ended</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr><td><a href="/{{.Kind}}/{{.Board}}">{{.Kind}} {{.Board}}</a></td><td>{{template "players" .}}</td><td class="num">{{.Moves}}</td><td>{{.State}}</td>{{if $.Ended}}<td>{{.Ended}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>{{define "players"}}{{range $i, $p := .Players}}{{if $i}} – {{end}}{{if $p}}<a href="/users/{{path $p}}">{{$p}}</a>{{else}}<i>open</i>{{end}}{{end}}{{end}}`))

// TestBoardsHTMLEscapesAsTemplate holds the lists of boards to what
// html/template wrote for them, on hostile user ids, states and kinds:
// markup, quotes, entities, percent signs, NUL, bad UTF-8, and
// characters a URL may not hold.
func TestBoardsHTMLEscapesAsTemplate(t *testing.T) {
	hostile := []string{"", "alice", `<script>alert(1)</script>`, `" onmouseover="x`, "o'neil", "a+b", "a&amp;b",
		"100%", "%41%zz", "\x00nul", "bad\xffutf8", "ünïcödé", "a b/c?d#e", "javascript:alert(1)", "\uFFFD\uFDD0",
		"tab\tnew\nline", "[x]@y;z=1,2!$*~", "`~^{|}\\"}
	rng := rand.New(rand.NewPCG(7, 8))
	pick := func() string { return hostile[rng.IntN(len(hostile))] }
	for i := range 200 {
		var rows []boardRow
		for range rng.IntN(4) {
			r := boardRow{Kind: pick(), Board: rng.IntN(1e6) - 10, Moves: rng.IntN(300), State: pick(), Ended: pick()}
			for range rng.IntN(4) {
				r.Players = append(r.Players, pick())
			}
			rows = append(rows, r)
		}
		ended := i%2 == 0
		var want strings.Builder
		if err := htmlTemplateRows.Execute(&want, struct {
			Rows  []boardRow
			Ended bool
		}{rows, ended}); err != nil {
			t.Fatal(err)
		}
		if got := string(boardsHTML(rows, ended)); got != want.String() {
			t.Fatalf("rows %+v, ended %v:\ngot  %q\nwant %q", rows, ended, got, want.String())
		}
	}
}
