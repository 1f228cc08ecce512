// Package mailauth tells whether the domain of a mail's From address vouches
// for it: a DKIM signature of an aligned domain verified here (RFC 6376), or
// a DKIM, DMARC or submission pass in the Authentication-Results field
// (RFC 8601) of a server the operator trusts. Nothing else does: the From
// line is written by the sender and proves nothing by itself.
//
// It knows nothing of the service; package pbem asks it about each mail and
// decides what an unauthenticated mail may do.
package mailauth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-msgauth/authres"
	"github.com/emersion/go-msgauth/dkim"
	"golang.org/x/net/publicsuffix"
)

// Resolver looks up DNS TXT records; *net.Resolver is one. Tests give
// their own, so that they run offline.
type Resolver interface {
	LookupTXT(ctx context.Context, name string) ([]string, error)
}

// Verifier checks mails. The zero Verifier authenticates nothing.
type Verifier struct {
	// TrustedIDs are the authserv-ids (RFC 8601, section 2.5) whose
	// Authentication-Results fields are believed: the operator's own MTA
	// or provider, which must remove fields that claim its id from mail
	// coming in. Compared without regard to case.
	TrustedIDs []string
	// Resolver, when set, lets the Verifier check DKIM signatures itself.
	Resolver Resolver
	// Timeout bounds the DNS lookups of one mail [5s].
	Timeout time.Duration

	keys keyCache // the key records looked up lately
}

// keyCache remembers the answers to key lookups, failures included, for
// keyLife: a sender whose domain's DNS is slow or dead (his own, say)
// makes the mails of a batch wait for one lookup in keyLife, not one per
// mail. At most maxKeys answers are kept; a full cache starts again.
type keyCache struct {
	mu      sync.Mutex
	answers map[string]keyAnswer
}

type keyAnswer struct {
	txt   []string
	err   error
	until time.Time
}

const (
	keyLife = 10 * time.Minute
	maxKeys = 4096
)

// lookup answers from the cache, or asks r and remembers the answer.
func (c *keyCache) lookup(ctx context.Context, r Resolver, name string) ([]string, error) {
	name = strings.ToLower(name)
	now := time.Now()
	c.mu.Lock()
	a, ok := c.answers[name]
	c.mu.Unlock()
	if ok && now.Before(a.until) {
		return a.txt, a.err
	}
	txt, err := r.LookupTXT(ctx, name)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.answers == nil || len(c.answers) >= maxKeys {
		c.answers = map[string]keyAnswer{}
	}
	c.answers[name] = keyAnswer{txt, err, now.Add(keyLife)}
	return txt, err
}

// maxSignatures bounds the DKIM signatures checked in one mail: each costs
// a DNS lookup and a pass over the body.
const maxSignatures = 3

// Result is what a Verifier found.
type Result struct {
	// Authenticated is true when the From domain is aligned with a
	// DKIM or DMARC pass, or the trusted server saw the From address
	// log in to submit the mail.
	Authenticated bool
	// How says, for the log, what vouched for the mail or why nothing
	// did: "dkim example.org", "ar mx.example.org dmarc", "no signature".
	How string
	// From is the address that was vouched for, lower case: the caller
	// must act for no other (a mail reader may read another From than
	// this one; see onceOnly).
	From string
}

// Check reads raw, a whole RFC 5322 mail, and says whether its From domain
// is vouched for. The cost is one pass over the mail per signature
// checked, at most maxSignatures, and DNS lookups within the Timeout.
func (v *Verifier) Check(raw []byte) Result {
	if v == nil {
		return Result{How: "not checked"}
	}
	hdr, err := readHeader(raw)
	if err != nil {
		return Result{How: "no header"}
	}
	if why := onceOnly(raw); why != "" {
		return Result{How: why}
	}
	from, err := singleFrom(hdr)
	if err != nil {
		return Result{How: err.Error()}
	}
	r, ok := v.fromResults(hdr, from)
	switch {
	case ok:
	case v.Resolver == nil:
		r = Result{How: "no trusted result"}
	default:
		r = v.fromSignatures(raw, from)
	}
	if r.Authenticated {
		r.From = from
	}
	return r
}

// Trusted reports whether the Authentication-Results of a trusted server
// vouch for raw's From, asking DNS nothing: cheap enough for a transport
// to put such mail ahead of mail that may prove nothing. Check still
// decides what the mail may do.
func (v *Verifier) Trusted(raw []byte) bool {
	if v == nil {
		return false
	}
	hdr, err := readHeader(raw)
	if err != nil || onceOnly(raw) != "" {
		return false
	}
	from, err := singleFrom(hdr)
	if err != nil {
		return false
	}
	r, ok := v.fromResults(hdr, from)
	return ok && r.Authenticated
}

// onceFields are the fields that say what a mail is, who it is from and
// how it threads. Each may stand once: a signature covers the bottom copy
// of a field, while a reader may take the top one, so a copy added on top
// of a signed mail would turn another's signed words into a command (RFC
// 6376, section 8.15).
var onceFields = map[string]bool{"from": true, "sender": true, "reply-to": true, "to": true, "cc": true,
	"subject": true, "date": true, "message-id": true, "in-reply-to": true, "references": true,
	"mime-version": true, "content-type": true, "content-transfer-encoding": true}

// onceOnly says why raw's header is not one to vouch for ("2 Subject
// fields"), or "" when each of onceFields stands at most once. A field's
// name is read as a mail reader reads it, white space before its colon
// ignored, so that "From :" counts as a From.
func onceOnly(raw []byte) string {
	seen := map[string]int{}
	for len(raw) > 0 {
		line := raw
		if nl := bytes.IndexByte(raw, '\n'); nl >= 0 {
			line, raw = raw[:nl], raw[nl+1:]
		} else {
			raw = nil
		}
		line = bytes.TrimRight(line, "\r")
		if len(line) == 0 {
			break // the end of the header
		}
		if line[0] == ' ' || line[0] == '\t' {
			continue
		}
		name, _, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		n := strings.ToLower(strings.TrimSpace(string(name)))
		if seen[n]++; onceFields[n] && seen[n] == 2 {
			return fmt.Sprintf("2 %s fields", strings.TrimSpace(string(name)))
		}
	}
	return ""
}

// readHeader parses only the header of raw.
func readHeader(raw []byte) (mail.Header, error) {
	end := bytes.Index(raw, []byte("\r\n\r\n"))
	if e := bytes.Index(raw, []byte("\n\n")); e >= 0 && (end < 0 || e < end) {
		end = e
	}
	if end < 0 {
		end = len(raw)
	}
	m, err := mail.ReadMessage(bytes.NewReader(append(raw[:end:end], "\r\n\r\n"...)))
	if err != nil {
		return nil, err
	}
	return m.Header, nil
}

// singleFrom returns the one address of the From field. A mail with no
// From, several From fields or several addresses in it cannot be aligned
// with one domain (RFC 7489, section 6.6.1) and is not authenticated.
func singleFrom(h mail.Header) (string, error) {
	if len(h["From"]) != 1 {
		return "", fmt.Errorf("%d From fields", len(h["From"]))
	}
	list, err := mail.ParseAddressList(h["From"][0])
	if err != nil || len(list) != 1 {
		return "", errors.New("no single From address")
	}
	return strings.ToLower(list[0].Address), nil
}

// fromResults reads the topmost Authentication-Results field of a trusted
// server: fields further down, or of other ids, may have been written by
// anyone.
func (v *Verifier) fromResults(h mail.Header, from string) (Result, bool) {
	for _, field := range h["Authentication-Results"] {
		id, results, err := authres.Parse(field)
		if !v.trusts(id) {
			continue
		}
		if err != nil {
			return Result{How: "ar " + id + " unreadable"}, true
		}
		domain := Domain(from)
		for _, res := range results {
			switch r := res.(type) {
			case *authres.DMARCResult:
				if r.Value == authres.ResultPass && strings.EqualFold(r.From, domain) {
					return Result{Authenticated: true, How: "ar " + id + " dmarc"}, true
				}
			case *authres.DKIMResult:
				if r.Value == authres.ResultPass && Aligned(r.Domain, domain) {
					return Result{Authenticated: true, How: "ar " + id + " dkim " + strings.ToLower(r.Domain)}, true
				}
			case *authres.AuthResult:
				if r.Value == authres.ResultPass && strings.EqualFold(r.Auth, from) {
					return Result{Authenticated: true, How: "ar " + id + " auth"}, true
				}
			}
		}
		if v.Resolver == nil {
			return Result{How: "ar " + id + " no aligned pass"}, true
		}
		return Result{}, false // the signatures may still tell
	}
	return Result{}, false
}

// trusts reports whether id is one of the trusted authserv-ids.
func (v *Verifier) trusts(id string) bool {
	for _, t := range v.TrustedIDs {
		if t != "" && strings.EqualFold(t, id) {
			return true
		}
	}
	return false
}

// fromSignatures verifies the mail's DKIM signatures and looks for one of
// a domain aligned with the From address.
func (v *Verifier) fromSignatures(raw []byte, from string) Result {
	timeout := v.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	verifications, err := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{
		LookupTXT:        func(name string) ([]string, error) { return v.keys.lookup(ctx, v.Resolver, name) },
		MaxVerifications: maxSignatures,
	})
	if err != nil && !errors.Is(err, dkim.ErrTooManySignatures) {
		return Result{How: "dkim unreadable"}
	}
	if len(verifications) == 0 {
		return Result{How: "no signature"}
	}
	how := "dkim fail"
	for _, ver := range verifications {
		switch {
		case ver.Err != nil:
			if dkim.IsTempFail(ver.Err) {
				how = "dkim temperror"
			}
		case !signs(ver.HeaderKeys, "subject"):
			how = "dkim pass, Subject not signed: " + strings.ToLower(ver.Domain)
		case Aligned(ver.Domain, Domain(from)):
			return Result{Authenticated: true, How: "dkim " + strings.ToLower(ver.Domain)}
		default:
			how = "dkim pass, not aligned: " + strings.ToLower(ver.Domain)
		}
	}
	return Result{How: how}
}

// signs reports whether a signature's list of fields holds the field.
func signs(keys []string, field string) bool {
	for _, k := range keys {
		if strings.EqualFold(strings.TrimSpace(k), field) {
			return true
		}
	}
	return false
}

// Aligned reports whether a signing domain is aligned with the From domain
// in DMARC's relaxed mode (RFC 7489, section 3.1.1): both have the same
// organizational domain, the one just below the public suffix.
func Aligned(signer, from string) bool {
	signer, from = strings.ToLower(strings.TrimSuffix(signer, ".")), strings.ToLower(strings.TrimSuffix(from, "."))
	if signer == "" || from == "" {
		return false
	}
	if signer == from {
		return true
	}
	a, errA := publicsuffix.EffectiveTLDPlusOne(signer)
	b, errB := publicsuffix.EffectiveTLDPlusOne(from)
	return errA == nil && errB == nil && a == b
}

// Organization is the organizational domain of an address's domain (the
// one just below its public suffix), or the domain itself when it has none:
// the unit a signing domain's owner controls, for counting his mail.
func Organization(addr string) string {
	d := Domain(addr)
	if org, err := publicsuffix.EffectiveTLDPlusOne(d); err == nil {
		return org
	}
	return d
}

// Domain is the domain of a mail address, lower-case: what follows its
// last "@" (a quoted local part may hold one); "" when it has none.
func Domain(addr string) string {
	at := strings.LastIndexByte(addr, '@')
	if at < 0 {
		return ""
	}
	return strings.ToLower(addr[at+1:])
}
