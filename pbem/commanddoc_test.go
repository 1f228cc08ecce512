package pbem

import (
	"bytes"
	"os"
	"strings"
	"testing"

	model "github.com/pbemd/pbemd/pbem/board"
)

// docs/commands.md is what the command table makes of it: a change to the
// table without "go generate ./pbem" fails here.
func TestCommandsDocIsCurrent(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/commands.md")
	if err != nil {
		t.Fatal(err)
	}
	want, err := CommandsDoc(doc)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(doc, want) {
		t.Errorf("docs/commands.md is not made from the command table; run \"go generate ./pbem\" (want)\n%s", want)
	}
	for _, c := range commands {
		for _, f := range c.forms {
			if !bytes.Contains(doc, []byte("| `"+cell(f.words)+"` |")) {
				t.Errorf("docs/commands.md lacks the form %q", f.words)
			}
		}
	}
}

// A document whose places do not match the table's sections is refused,
// saying what was expected, instead of losing commands or text.
func TestCommandsDocRefusesBadPlaces(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/commands.md")
	if err != nil {
		t.Fatal(err)
	}
	place := []byte(docBegin + "Playing -->\n")
	if !bytes.Contains(doc, place) {
		t.Fatalf("docs/commands.md has no %q", place)
	}
	for name, bad := range map[string][]byte{
		"a section without a place": bytes.Replace(doc, place, nil, 1),
		"an unknown section":        bytes.Replace(doc, place, []byte(docBegin+"Dancing -->\n"), 1),
		"a section twice":           append(append([]byte{}, doc...), []byte("\n"+string(place)+docEnd+"\n")...),
		"a place never ended":       append(append([]byte{}, doc[:bytes.Index(doc, place)]...), place...),
		"a marker cut short":        bytes.Replace(doc, place, []byte(docBegin+"Playing\n"), 1),
	} {
		if out, err := CommandsDoc(bad); err == nil {
			t.Errorf("%s: made a document of %d bytes, want an error", name, len(out))
		} else if !strings.Contains(err.Error(), "expected") && !strings.Contains(err.Error(), "no "+docEnd) {
			t.Errorf("%s: %v; want what was expected", name, err)
		}
	}
}

// The help lays a form too long for a line out on two, broken before an
// optional part, and never wider than a mail line.
func TestHelpWordsFitALine(t *testing.T) {
	t.Parallel()
	for _, c := range commands {
		for _, f := range c.forms {
			for _, l := range strings.Split("  "+helpWords(f.words), "\n") {
				if len(l) > model.LineWidth {
					t.Errorf("the help's line %q of %q is %d columns wide, more than %d", l, f.words, len(l), model.LineWidth)
				}
			}
		}
	}
	got := helpWords("GAME challenge userid1 userid2 [-option ...] [--nagtime=D --forfeittime=D]")
	want := "GAME challenge userid1 userid2 [-option ...]\n" + strings.Repeat(" ", 30) + "[--nagtime=D --forfeittime=D]"
	if got != want {
		t.Errorf("helpWords = %q, want %q", got, want)
	}
}
