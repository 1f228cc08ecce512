package pbem

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/pbemd/pbemd/templates"
)

// TestGermanIsComplete checks German has every sentence of the code that
// a player's mail may show: each format of a refusal (fail, failOn), a
// notice (say), a sentence the code translates itself (templates.Sprintf,
// templates.T, templates.Text) and each rules.Errorf of the games, found in
// the source with go/ast, so that a new English sentence without its German
// fails here rather than mailing English to a German player.
func TestGermanIsComplete(t *testing.T) {
	var missing []string
	n := 0
	for _, s := range catalogSentences(t, "../pbem", "../pbem/board", "../rules/tanbo", "../rules/taratibu", "../rules/tobit", "../rules/ultima") {
		n++
		if !templates.Has("de", s.key, false) {
			missing = append(missing, fmt.Sprintf("%s: %q", s.at, s.key))
		}
	}
	if n < 200 {
		t.Errorf("found only %d sentences in the source; the scan misses some", n)
	}
	if len(missing) > 0 {
		t.Errorf("German lacks %d of %d sentences (add them to templates/de.go):\n%s", len(missing), n, strings.Join(missing, "\n"))
	}
}

// A sentence is a key of the catalogs and where the source uses it.
type sentence struct{ key, at string }

// catalogSentences are the sentences of the Go files (not tests) of the
// directories.
func catalogSentences(t *testing.T, dirs ...string) []sentence {
	var out []sentence
	fset := token.NewFileSet()
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				var arg ast.Expr
				switch n := n.(type) {
				case *ast.CallExpr:
					if i, ok := formatArg(n); ok && i < len(n.Args) {
						arg = n.Args[i]
					}
				case *ast.CompositeLit:
					if sel, ok := n.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Text" && isIdent(sel.X, "templates") {
						for _, e := range n.Elts {
							if kv, ok := e.(*ast.KeyValueExpr); ok && isIdent(kv.Key, "Format") {
								arg = kv.Value
							}
						}
					}
				}
				if key, ok := literal(arg); ok && hasWords(key) {
					out = append(out, sentence{key, fset.Position(arg.Pos()).String()})
				}
				return true
			})
		}
	}
	return out
}

// formatArg is the index of the format among the arguments of a call
// that makes a sentence of the catalogs, and false for any other call.
func formatArg(call *ast.CallExpr) (int, bool) {
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		switch fn.Name {
		case "fail", "say": // pbem's fail, and the games' own fail helpers
			return 0, true
		}
	case *ast.SelectorExpr:
		switch {
		case fn.Sel.Name == "fail" || fn.Sel.Name == "say":
			return 0, true
		case fn.Sel.Name == "failOn" || fn.Sel.Name == "tfail":
			return 1, true
		case isIdent(fn.X, "rules") && fn.Sel.Name == "Errorf",
			isIdent(fn.X, "templates") && (fn.Sel.Name == "Sprintf" || fn.Sel.Name == "T"):
			return 1, true
		}
	}
	return 0, false
}

// hasWords reports whether a format says something besides its verbs:
// "%s%s" has nothing to translate.
func hasWords(format string) bool {
	return strings.ContainsFunc(verb.ReplaceAllString(format, ""), unicode.IsLetter)
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// literal is the value of a string literal, or of literals joined by +.
func literal(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		a, ok1 := literal(e.X)
		b, ok2 := literal(e.Y)
		return a + b, ok1 && ok2
	}
	return "", false
}
