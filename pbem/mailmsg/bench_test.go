package mailmsg

import (
	"runtime"
	"strings"
	"testing"
)

func BenchmarkReadMail(b *testing.B) {
	raw := readMailCorpus(b, "gmail-reply.eml")
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		m, err := ReadMail(raw)
		if err != nil {
			b.Fatal(err)
		}
		Comment(m.Text)
	}
}

// benchMail is a mail of about size bytes whose body repeats unit.
func benchMail(contentType, unit string, size int) []byte {
	head := "From: alice@example.org\r\nSubject: ultima move 101 alice secret e2-e5\r\nContent-Type: " + contentType + "\r\n\r\n"
	return []byte(head + strings.Repeat(unit, (size-len(head))/len(unit)+1))
}

// BenchmarkReadMailSize reads plain, HTML and deeply nested HTML mails of
// 10 KB to 10 MB and reports the bytes allocated per byte of mail, which
// must not grow with the size.
func BenchmarkReadMailSize(b *testing.B) {
	kinds := []struct{ name, contentType, unit string }{
		{"plain", "text/plain; charset=utf-8", "Good move, I did not see that one coming. Let us see what the coordinator says.\r\n"},
		{"html", "text/html; charset=utf-8", "<div>Good move, <b>I did not</b> see that one&nbsp;coming.</div><p>Let us see &amp; what the coordinator says.<br></p>\r\n"},
		{"nested-html", "text/html; charset=utf-8", "<blockquote><div>x"},
	}
	for _, k := range kinds {
		for _, s := range []struct {
			label string
			size  int
		}{{"10KB", 10e3}, {"100KB", 100e3}, {"1MB", 1e6}, {"10MB", 10e6}} {
			raw := benchMail(k.contentType, k.unit, s.size)
			b.Run(k.name+"/"+s.label, func(b *testing.B) {
				b.SetBytes(int64(len(raw)))
				b.ReportAllocs()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				for b.Loop() {
					if _, err := ReadMail(raw); err != nil {
						b.Fatal(err)
					}
				}
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(len(raw)), "B/mailbyte")
			})
		}
	}
}
