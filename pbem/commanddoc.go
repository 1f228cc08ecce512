package pbem

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"text/template"

	model "github.com/pbemd/pbemd/pbem/board"
)

// helpIndent is where the help mail writes what a form does, under it.
const helpIndent = "      "

// helpForm is one form of a command as the help mail shows it.
type helpForm struct {
	Words    string // its lines, the later ones indented
	Text     string // wrapped to model.LineWidth at helpIndent, ending in a newline
	Examples string // the examples' lines, laid out alike, or ""
}

// sections returns the forms of the table by section, each form's text
// filled with data (what the help's templates get).
func sections(data any) (map[string][]formText, error) {
	out := map[string][]formText{}
	for _, c := range commands {
		for _, f := range c.forms {
			text, err := fill(f.words, f.text, data)
			if err != nil {
				return nil, err
			}
			long := text
			if f.more != "" {
				more, err := fill(f.words, f.more, data)
				if err != nil {
					return nil, err
				}
				long += " " + more
			}
			section := f.section
			if section == "" {
				section = c.section
			}
			out[section] = append(out[section], formText{f, text, long})
		}
	}
	return out, nil
}

// fill executes text, a template of the form words, with data.
func fill(words, text string, data any) (string, error) {
	t, err := template.New(words).Parse(text)
	if err != nil {
		return "", fmt.Errorf("command table: %s: %w", words, err)
	}
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		return "", fmt.Errorf("command table: %s: %w", words, err)
	}
	return b.String(), nil
}

// formText is a form with its texts filled in.
type formText struct {
	form
	text string // for the help
	long string // for docs/commands.md: text and more
}

// helpSections is the table as "help commands" lists it, by section.
func helpSections(data any) (map[string][]helpForm, error) {
	secs, err := sections(data)
	if err != nil {
		return nil, err
	}
	out := map[string][]helpForm{}
	for name, forms := range secs {
		for _, f := range forms {
			var text strings.Builder
			for _, l := range strings.Split(model.Wrap([]string{f.text}, model.LineWidth-len(helpIndent))[0], "\n") {
				text.WriteString(helpIndent + l + "\n")
			}
			out[name] = append(out[name], helpForm{Words: helpWords(f.words), Text: text.String(), Examples: helpExamples(f.examples)})
		}
	}
	return out, nil
}

// helpWords lays out a form for the help, after two spaces: one too long
// for a line goes on at a deeper indent, broken before an optional part.
func helpWords(words string) string {
	const more = "                              " // where the help's short texts began
	parts := strings.Split(words, " [")
	b := strings.Builder{}
	b.WriteString(parts[0])
	line := 2 + len(parts[0])
	for _, p := range parts[1:] {
		p = "[" + p
		if line+1+len(p) > model.LineWidth {
			b.WriteString("\n" + more + p)
			line = len(more) + len(p)
			continue
		}
		b.WriteString(" " + p)
		line += 1 + len(p)
	}
	return b.String()
}

// helpExamples lays out examples: on the line of "Example:" where they
// fit, else one a line under it, so that none is broken.
func helpExamples(examples []string) string {
	if len(examples) == 0 {
		return ""
	}
	line := helpIndent + "Example: " + strings.Join(examples, ", ")
	if len(line) <= model.LineWidth {
		return line + "\n"
	}
	out := helpIndent + "Example:\n"
	for _, e := range examples {
		out += helpIndent + "  " + e + "\n"
	}
	return out
}

// A shortForm is what else names a command: its aliases and prefixes.
type shortForm struct {
	Name    string   // the command's name
	Aliases []string // the other words for it
	Prefix  string   // its shortest prefix, or ""
}

// shortForms lists the commands of the table that have short forms, in
// its order.
func shortForms() []shortForm {
	var out []shortForm
	for _, c := range commands {
		if len(c.aliases) == 0 && c.prefix == 0 {
			continue
		}
		f := shortForm{Name: c.name, Aliases: c.aliases}
		if c.prefix > 0 {
			f.Prefix = c.name[:c.prefix]
		}
		out = append(out, f)
	}
	return out
}

// Markers of the parts of docs/commands.md made from the table: a section's
// table stands between "<!-- commands: SECTION -->" and docEnd.
const (
	docBegin = "<!-- commands: "
	docEnd   = "<!-- end of commands -->"
	// shortFormsDoc is the place of the list of short forms.
	shortFormsDoc = "short forms"
)

// CommandsDoc returns docs/commands.md, given as doc, with its command
// tables and its list of short forms (the section shortFormsDoc) made anew
// from the command table, for "go generate" and the test that the file is
// current. Every section of the table must have its place in doc, and
// every place a section.
func CommandsDoc(doc []byte) ([]byte, error) {
	secs, err := sections(map[string]any{"Limits": DefaultLimits()})
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	rest := doc
	var done []string
	for {
		before, after, ok := bytes.Cut(rest, []byte(docBegin))
		out.Write(before)
		if !ok {
			break
		}
		line, after, _ := bytes.Cut(after, []byte("\n"))
		name, ok := strings.CutSuffix(string(line), " -->")
		forms := secs[name]
		if !ok || len(forms) == 0 && name != shortFormsDoc {
			return nil, fmt.Errorf("%s%s: expected a marker %sSECTION --> with a section of the command table", docBegin, line, docBegin)
		}
		if slices.Contains(done, name) {
			return nil, fmt.Errorf("section %q has two places in the document; expected one", name)
		}
		done = append(done, name)
		_, after, ok = bytes.Cut(after, []byte(docEnd))
		if !ok {
			return nil, fmt.Errorf("section %q has no %s after it", name, docEnd)
		}
		fmt.Fprintf(&out, "%s%s -->\n", docBegin, name)
		if name == shortFormsDoc {
			for _, f := range shortForms() {
				var words []string
				for _, a := range f.Aliases {
					words = append(words, "`"+a+"`")
				}
				if f.Prefix != "" {
					words = append(words, fmt.Sprintf("any start of it from %d letters (`%s`)", len(f.Prefix), f.Prefix))
				}
				fmt.Fprintf(&out, "- `%s`: %s\n", f.Name, strings.Join(words, ", "))
			}
		} else {
			out.WriteString("| Subject | What it does | Example |\n| --- | --- | --- |\n")
		}
		for _, f := range forms {
			var ex []string
			for _, e := range f.examples {
				cmd, note, ok := strings.Cut(e, " (")
				if ok {
					note = " (" + note
				}
				ex = append(ex, "`"+cmd+"`"+note)
			}
			fmt.Fprintf(&out, "| `%s` | %s | %s |\n", cell(f.words), cell(f.long), cell(strings.Join(ex, ", ")))
		}
		out.WriteString(docEnd)
		rest = after
	}
	for name := range secs {
		if !slices.Contains(done, name) {
			return nil, fmt.Errorf("section %q of the command table has no place in the document; expected a line %s%s -->", name, docBegin, name)
		}
	}
	return out.Bytes(), nil
}

// cell makes text fit a Markdown table's cell.
func cell(text string) string { return strings.ReplaceAll(text, "|", `\|`) }
