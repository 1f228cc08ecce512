package mailmsg

import (
	"bufio"
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"regexp"
	"strings"
)

// A Bounce is what a delivery report says of the recipients it is about:
// a delivery status notification (RFC 3464, multipart/report) or one of
// the plain-text reports some servers write instead (Exim, qmail, and the
// X-Failed-Recipients field of Exim and Gmail).
type Bounce struct {
	Failures []Failure
}

// A Failure is one recipient the report says the mail did not reach.
type Failure struct {
	Recipient string // the address, lower case
	Status    string // the enhanced status code (RFC 3463), e.g. "5.1.1"; "" when the report gives none
	// Permanent is a hard bounce: the server gave up for good (an action
	// "failed" with a 5.x.x status, or a text report that says so). A
	// delay or a 4.x.x status is not.
	Permanent bool
}

// Bounds of reading a report: a report is read from its first
// MaxBounceBytes, and at most MaxFailures recipients are taken from it.
const (
	MaxBounceBytes = 128 << 10
	MaxFailures    = 16
	maxReportParts = 8
)

// ReadBounce reads the delivery report in raw, the whole mail, and returns
// the recipients it says failed, or nil when raw is no report of failure
// it knows. It reads at most MaxBounceBytes of raw, whatever raw holds.
func ReadBounce(raw []byte) *Bounce {
	if len(raw) > MaxBounceBytes {
		raw = raw[:MaxBounceBytes]
	}
	msg, err := mail.ReadMessage(bytes.NewReader(skipFromLine(raw)))
	if err != nil {
		return nil
	}
	b := &Bounce{}
	mt, params, _ := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if mt == "multipart/report" && params["boundary"] != "" {
		b.readReport(multipart.NewReader(msg.Body, params["boundary"]))
	}
	if len(b.Failures) == 0 {
		// Not a DSN, or one whose status part could not be read: the
		// forms of text reports, and Exim's and Gmail's field.
		b.readFailedField(msg.Header)
		if body, err := io.ReadAll(msg.Body); err == nil || len(body) > 0 {
			b.readText(string(body))
		}
	}
	if len(b.Failures) == 0 {
		return nil
	}
	return b
}

// skipFromLine drops an mbox "From " line, as ReadMail does.
func skipFromLine(raw []byte) []byte {
	if bytes.HasPrefix(raw, []byte("From ")) {
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			return raw[i+1:]
		}
	}
	return raw
}

// readReport reads the message/delivery-status part of a report (RFC 3464,
// section 2): after the fields of the message, one group of fields per
// recipient, each group ended by a blank line.
func (b *Bounce) readReport(r *multipart.Reader) {
	for range maxReportParts {
		p, err := r.NextPart()
		if err != nil {
			return
		}
		mt, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		if mt != "message/delivery-status" && mt != "message/global-delivery-status" {
			continue
		}
		groups := readGroups(p)
		for _, g := range groups {
			rcpt := addressOf(g.Get("Final-Recipient"))
			if rcpt == "" {
				rcpt = addressOf(g.Get("Original-Recipient"))
			}
			if rcpt == "" {
				continue // the per-message group, or a recipient unnamed
			}
			action := strings.ToLower(strings.TrimSpace(g.Get("Action")))
			status := statusCode(g.Get("Status"))
			if action != "failed" {
				continue // delayed, delivered, relayed, expanded: no failure
			}
			b.add(Failure{Recipient: rcpt, Status: status, Permanent: !strings.HasPrefix(status, "4")})
		}
		return
	}
}

// readGroups reads the groups of fields of a delivery-status part. The
// part is read line by line as a header, and a blank line ends a group.
func readGroups(r io.Reader) []mail.Header {
	var groups []mail.Header
	var lines []string
	flush := func() {
		if len(lines) > 0 {
			if m, err := mail.ReadMessage(strings.NewReader(strings.Join(lines, "\r\n") + "\r\n\r\n")); err == nil {
				groups = append(groups, m.Header)
			}
		}
		lines = nil
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxBounceBytes)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		lines = append(lines, line)
	}
	flush()
	return groups
}

// addressOf reads the address of an address field of a report, "rfc822;
// alice@example.org" (RFC 3464, 2.3.2), or "" when it holds none.
func addressOf(v string) string {
	kind, addr, ok := strings.Cut(v, ";")
	if !ok {
		addr = kind
	} else if k := strings.ToLower(strings.TrimSpace(kind)); k != "rfc822" && k != "utf-8" {
		return ""
	}
	addr = strings.Trim(strings.TrimSpace(addr), "<>")
	if !plausibleAddress(addr) {
		return ""
	}
	return strings.ToLower(addr)
}

// statusCode is the enhanced status code at the start of a Status field,
// "" when it holds none.
func statusCode(v string) string {
	if m := statusRE.FindString(strings.TrimSpace(v)); m != "" {
		return m
	}
	return ""
}

var statusRE = regexp.MustCompile(`^[245]\.\d{1,3}\.\d{1,3}`)

// readFailedField reads X-Failed-Recipients, which Exim and Gmail put on
// their reports: addresses the mail failed permanently for.
func (b *Bounce) readFailedField(h mail.Header) {
	for _, v := range h["X-Failed-Recipients"] {
		for _, a := range strings.Split(v, ",") {
			if a = addressOf(a); a != "" {
				b.add(Failure{Recipient: a, Permanent: true})
			}
		}
	}
}

// readText reads the plain-text reports of servers that write no DSN:
// Exim's "The following address(es) failed:" with the addresses indented
// below, and qmail's "<alice@example.org>:" paragraphs. Such a report is
// permanent when it says so ("permanent error") or its server's answer is
// a 5xx; a report that says only that it will try again is no failure.
func (b *Bounce) readText(body string) {
	lower := strings.ToLower(body)
	if strings.Contains(lower, "delay") && strings.Contains(lower, "will") && strings.Contains(lower, "retry") &&
		!strings.Contains(lower, "permanent") {
		return // a warning of delay: "... will retry ..."
	}
	permanent := strings.Contains(lower, "permanent error") || strings.Contains(lower, "permanent fatal") ||
		smtp5xxRE.MatchString(body)
	var rcpts []string
	lines := strings.Split(body, "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.ToLower(strings.TrimSpace(lines[i]))
		switch {
		case strings.HasSuffix(l, "failed:") && strings.Contains(l, "address"):
			// Exim: the addresses follow, indented, each alone on its
			// line, until a blank line or one that is no address. The
			// lines read here are not read again: each line of a report
			// is looked at a bounded number of times, however it is made.
			j := i + 1
			for ; j < len(lines); j++ {
				next := lines[j]
				t := strings.TrimSpace(next)
				if t == "" && len(rcpts) == 0 {
					continue
				}
				if t == "" || !startsIndented(next) {
					break
				}
				if a := addressOf(strings.Fields(t)[0]); a != "" {
					rcpts = append(rcpts, a)
				}
			}
			i = j - 1
		case strings.HasPrefix(l, "<") && strings.HasSuffix(l, ">:"):
			// qmail: "<alice@example.org>:" opens its paragraph.
			if a := addressOf(l[:len(l)-1]); a != "" {
				rcpts = append(rcpts, a)
			}
		}
	}
	for _, a := range rcpts {
		b.add(Failure{Recipient: a, Permanent: permanent})
	}
}

// smtp5xxRE finds a server's permanent refusal quoted in a text report:
// "550 5.1.1" or "550-5.1.1" or "550 User unknown".
var smtp5xxRE = regexp.MustCompile(`(?m)\b5[0-5]\d[ -](5\.\d{1,3}\.\d{1,3}|[A-Za-z])`)

func startsIndented(line string) bool {
	return strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")
}

// plausibleAddress reports whether s looks like one address: a local
// part, an "@" and a domain, no spaces, not too long.
func plausibleAddress(s string) bool {
	at := strings.LastIndexByte(s, '@')
	return at > 0 && at < len(s)-1 && len(s) <= 254 && !strings.ContainsAny(s, " \t<>,;\"")
}

// add adds a failure, once per recipient (a permanent one wins), and at
// most MaxFailures in all.
func (b *Bounce) add(f Failure) {
	for i := range b.Failures {
		if b.Failures[i].Recipient == f.Recipient {
			if f.Permanent && !b.Failures[i].Permanent {
				b.Failures[i] = f
			}
			return
		}
	}
	if len(b.Failures) < MaxFailures {
		b.Failures = append(b.Failures, f)
	}
}
