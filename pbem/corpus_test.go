package pbem

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/mailmsg"
)

// subjectLine matches a Subject header with its folded lines.
var subjectLine = regexp.MustCompile(`(?mi)^Subject:.*(\r?\n[ \t].*)*`)

// TestCorpusMoves sends a move in each mail of the corpus of real clients'
// mails (multipart, quoted-printable, base64, ISO-8859-1, HTML-only, replies
// quoting the last board, signatures): the move is played, and the board
// mails carry the player's own words and none of what he quoted. The mails
// of robots are answered with silence.
func TestCorpusMoves(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("mailmsg/testdata/mail/*.eml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	// The loop guard's mails, named here rather than asked of Ignore, so
	// that a real client's mail wrongly ignored fails the test.
	robots := map[string]bool{"autoreply.eml": true, "bounce.eml": true, "list.eml": true, "noreply.eml": true}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		in, err := mailmsg.ReadMail(raw)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			h := twoPlayers(t)
			mail := subjectLine.ReplaceAll(raw, []byte("Subject: Re: tanbo move 101 alice pw-alice h7 **"))
			out := h.deliver(mail)
			if robots[filepath.Base(f)] {
				if len(out) != 0 {
					t.Fatalf("a mail the loop guard ignores was answered: %v", subjects(out))
				}
				return
			}
			if len(out) != 2 || out[0].Subject != "Tanbo Board 101 bob **" && out[0].Subject != "Tanbo Board 101 bob" {
				t.Fatalf("the move was not played: %v", subjects(out))
			}
			comment := mailmsg.Comment(in.Text)
			body := out[1].Body
			if comment != "" && !strings.Contains(body, "alice writes:\n"+model.Reflow(comment)+"\n") {
				t.Errorf("the comment %q is not in the board mail:\n%s", comment, body)
			}
			if comment == "" && strings.Contains(body, "writes:") {
				t.Errorf("a comment appeared from a mail with none:\n%s", body)
			}
			for _, line := range strings.Split(in.Text, "\n") {
				if strings.HasPrefix(line, ">") && len(line) > 3 && strings.Contains(body, line) {
					t.Errorf("quoted text %q reached the board mail", line)
				}
			}
		})
	}
}
