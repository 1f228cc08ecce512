package mailmsg

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// An Attachment is a text file sent with a mail after its body, such as a
// game's record.
type Attachment struct {
	Name string // the file name: "tanbo-101.pgn"; ASCII letters, digits, '.', '-', '_'
	Type string // its media type without parameters: "text/plain"
	Text string // "\n" line ends
}

// writeMixed writes the rest of a multipart/mixed mail (RFC 2046 5.1.3)
// after its MIME-Version: its Content-Type, the body as the first part and
// each attachment as a part, each encoded as a body is (7bit when it can
// be). The boundary is made from the content, so the same mail gives the
// same bytes, and no part can hold it.
func writeMixed(b *bytes.Buffer, ctype, cte string, text []byte, files []Attachment) error {
	type part struct {
		head string
		data []byte
	}
	parts := []part{{head: headerField("Content-Type", ctype) + headerField("Content-Transfer-Encoding", cte), data: text}}
	sum := sha256.New()
	sum.Write(text)
	for _, f := range files {
		if !safeFileName(f.Name) {
			return fmt.Errorf("attachment name %q is not a plain file name of ASCII letters, digits, '.', '-' and '_'", f.Name)
		}
		if f.Type == "" || strings.ContainsAny(f.Type, ";\r\n \"") {
			return fmt.Errorf("attachment %s: media type %q is not a type/subtype without parameters", f.Name, f.Type)
		}
		body := normalizeNewlines(f.Text)
		if body != "" && !strings.HasSuffix(body, "\n") {
			body += "\n"
		}
		t, e, data, err := encodeText(body)
		if err != nil {
			return err
		}
		_, charset, _ := strings.Cut(t, "; ")
		head := headerField("Content-Type", fmt.Sprintf("%s; %s; name=%q", f.Type, charset, f.Name)) +
			headerField("Content-Disposition", fmt.Sprintf("attachment; filename=%q", f.Name)) +
			headerField("Content-Transfer-Encoding", e)
		parts = append(parts, part{head, data})
		sum.Write([]byte(head))
		sum.Write(data)
	}
	boundary := "pbemd-" + hex.EncodeToString(sum.Sum(nil)[:12])
	b.WriteString(headerField("Content-Type", fmt.Sprintf("multipart/mixed; boundary=%q", boundary)))
	b.WriteString("\r\n")
	for _, p := range parts {
		b.WriteString("--" + boundary + "\r\n")
		b.WriteString(p.head + "\r\n")
		b.Write(p.data)
		// The line break before a boundary is the boundary's: the part
		// keeps its own last one.
		b.WriteString("\r\n")
	}
	b.WriteString("--" + boundary + "--\r\n")
	return nil
}

// safeFileName reports whether name can stand in a header without
// quoting trouble or a path: ASCII letters, digits, '.', '-', '_', not
// starting with a dot, at most 64 bytes.
func safeFileName(name string) bool {
	if name == "" || len(name) > 64 || name[0] == '.' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
