package mailmsg

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbemd/pbemd/pbem/mailmsg/mailmsgtest"
)

// hostileOutcomes is what ReadMail must make of each mail of the hostile
// corpus: "read" (an Incoming from mailmsgtest.From with the subject
// "help"), "refused: " and the TooLargeError's What, or "any" (read or
// refused, as long as it is bounded).
var hostileOutcomes = map[string]string{
	"header-10mb-subject":            "refused: header",
	"header-folded-100k-lines":       "refused: header",
	"header-100k-fields":             "refused: header fields",
	"header-1500-received":           "refused: header fields",
	"header-no-end":                  "refused: header fields",
	"header-only-garbage-lines":      "refused: header",
	"header-references-10k":          "refused: header",
	"addresses-to-5000":              "refused: header",
	"addresses-cc-5000":              "refused: header",
	"bytes-only-random":              "any",
	"bytes-bare-cr":                  "refused: header",
	"bytes-nul-header":               "any",
	"bytes-8bit-header":              "any",
	"mime-encoded-words-10k":         "any",
	"mime-unknown-charset":           "any",
	"size-11mb-body":                 "refused: mail",
	"size-11mb-one-line":             "refused: mail",
	"addresses-from-2000":            "any",
	"addresses-from-2000-unparsable": "any",
}

// TestHostileCorpus reads every mail of the hostile corpus and checks its
// outcome, that the text is bounded and valid, and that the bytes
// allocated stay within a small multiple of the mail's size.
func TestHostileCorpus(t *testing.T) {
	lim := Limits{}.WithDefaults()
	for _, c := range mailmsgtest.Hostile() {
		t.Run(c.Name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			m, err := ReadMail(c.Raw)
			runtime.ReadMemStats(&after)
			alloc := after.TotalAlloc - before.TotalAlloc
			if limit := 10*uint64(len(c.Raw)) + 4<<20; alloc > limit {
				t.Errorf("reading %d bytes allocated %d bytes, over %d", len(c.Raw), alloc, limit)
			}

			want := hostileOutcomes[c.Name]
			if want == "" {
				want = "read"
			}
			var tooLarge *TooLargeError
			switch {
			case want == "read":
				if err != nil {
					t.Fatalf("ReadMail: %v", err)
				}
				if m.From != mailmsgtest.From || !strings.HasPrefix(m.Subject, "help") {
					t.Errorf("From %q, Subject %.40q, want %s, help", m.From, m.Subject, mailmsgtest.From)
				}
			case strings.HasPrefix(want, "refused: "):
				if !errors.As(err, &tooLarge) || !errors.Is(err, ErrTooLarge) || tooLarge.What != strings.TrimPrefix(want, "refused: ") {
					t.Fatalf("ReadMail error %v, want the %s too large", err, strings.TrimPrefix(want, "refused: "))
				}
				if m == nil || m.Text != "" {
					t.Fatalf("a refused mail gave %+v, want its header and no text", m)
				}
			}
			if m == nil {
				return
			}
			if len(m.Text) > lim.MaxTextBytes {
				t.Errorf("text of %d bytes kept, over %d", len(m.Text), lim.MaxTextBytes)
			}
			for name, s := range map[string]string{"Subject": m.Subject, "Text": m.Text, "FromName": m.FromName} {
				if !utf8.ValidString(s) {
					t.Errorf("%s is not valid UTF-8", name)
				}
			}
			for line := range strings.Lines(m.Text) {
				if d := len(line) - len(strings.TrimLeft(line, ">")); c.Kind == "html" && d > lim.MaxQuoteDepth {
					t.Fatalf("a line quoted %d deep, over %d", d, lim.MaxQuoteDepth)
				}
			}
			if len(m.Key) > len("id:")+MaxMsgIDLen {
				t.Errorf("Key of %d bytes", len(m.Key))
			}
			m.Ignore([]string{"pbem@example.org"})
			Comment(m.Text)
			CommandLines(m.Text)
		})
	}
}
