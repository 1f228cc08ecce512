package pbemtest

// The mails of the tests as the world would vouch for them, or not: the
// Authentication-Results field of the MTA the tests' configurations trust,
// DKIM signatures of a generated key, and a DNS server on the loopback
// interface that publishes the key, so that pbemd verifies real
// signatures offline.

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net"
	"regexp"
	"strings"
	"testing"

	"github.com/emersion/go-msgauth/dkim"
	"golang.org/x/net/dns/dnsmessage"
)

// Untrusted is an authserv-id no test configuration trusts.
const Untrusted = "mx.elsewhere.example"

// A Signer signs mails for a domain with a key made for the test.
type Signer struct {
	Domain, Selector string
	key              ed25519.PrivateKey
	pub              ed25519.PublicKey
}

// NewSigner makes a key for domain, published under selector.
func NewSigner(t testing.TB, domain, selector string) *Signer {
	t.Helper()
	pub, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return &Signer{Domain: domain, Selector: selector, key: key, pub: pub}
}

// Record returns the DNS name and TXT record that publish the key.
func (s *Signer) Record() (name, txt string) {
	return s.Selector + "._domainkey." + s.Domain + ".", "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(s.pub)
}

// Sign returns raw with a DKIM signature over its From, To, Subject and
// Message-ID and its body.
func (s *Signer) Sign(t testing.TB, raw []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	err := dkim.Sign(&out, bytes.NewReader(raw), &dkim.SignOptions{
		Domain: s.Domain, Selector: s.Selector, Signer: s.key,
		HeaderKeys: []string{"From", "To", "Subject", "Message-ID"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// ServeDNS answers TXT queries for the signers' keys over UDP on the
// loopback interface until the test ends, and returns its host:port for
// pbemd's dkim_resolver. Other names do not exist.
func ServeDNS(t testing.TB, signers ...*Signer) string {
	t.Helper()
	zone := map[string][]string{}
	for _, s := range signers {
		name, txt := s.Record()
		zone[name] = []string{txt}
	}
	return ServeZone(t, zone)
}

// ServeZone is ServeDNS for any TXT records: zone maps a name (with or
// without its final dot) to its TXT records.
func ServeZone(t testing.TB, records map[string][]string) string {
	t.Helper()
	zone := map[string][]string{}
	for name, txt := range records {
		zone[strings.ToLower(strings.TrimSuffix(name, "."))+"."] = txt
	}
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, addr, err := pc.ReadFrom(buf)
			if err != nil {
				return // closed
			}
			if resp := answer(buf[:n], zone); resp != nil {
				pc.WriteTo(resp, addr)
			}
		}
	}()
	return pc.LocalAddr().String()
}

// answer is the response to one query, or nil for what is not a query.
func answer(query []byte, zone map[string][]string) []byte {
	var p dnsmessage.Parser
	h, err := p.Start(query)
	if err != nil || h.Response {
		return nil
	}
	q, err := p.Question()
	if err != nil {
		return nil
	}
	txts, found := zone[strings.ToLower(q.Name.String())]
	rh := dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired, RecursionAvailable: true}
	if !found {
		rh.RCode = dnsmessage.RCodeNameError
	}
	b := dnsmessage.NewBuilder(nil, rh)
	b.EnableCompression()
	if b.StartQuestions() != nil || b.Question(q) != nil || b.StartAnswers() != nil {
		return nil
	}
	for _, txt := range txts {
		if q.Type != dnsmessage.TypeTXT {
			break
		}
		// A TXT string holds at most 255 bytes.
		var parts []string
		for len(txt) > 255 {
			parts, txt = append(parts, txt[:255]), txt[255:]
		}
		parts = append(parts, txt)
		rr := dnsmessage.ResourceHeader{Name: q.Name, Type: dnsmessage.TypeTXT, Class: dnsmessage.ClassINET, TTL: 60}
		if b.TXTResource(rr, dnsmessage.TXTResource{TXT: parts}) != nil {
			return nil
		}
	}
	resp, err := b.Finish()
	if err != nil {
		return nil
	}
	return resp
}

// A Zone answers TXT lookups from its records, by name with or without
// the final dot, as a mailauth.Resolver; other names do not exist.
type Zone map[string]string

func (z Zone) LookupTXT(_ context.Context, name string) ([]string, error) {
	if txt, ok := z[strings.ToLower(strings.TrimSuffix(name, "."))]; ok {
		return []string{txt}, nil
	}
	return nil, fmt.Errorf("%s: no such record", name)
}

// PrintedRecord reads the DNS record that "pbemd dkim" prints for the
// operator to publish, "NAME. IN TXT ( "..." "..." )", as a Zone of one
// record: its strings joined, as DNS gives them.
func PrintedRecord(t testing.TB, out []byte) Zone {
	t.Helper()
	m := regexp.MustCompile(`(?m)^    (\S+)\. IN TXT \( (.*) \)$`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no TXT record in the output of pbemd dkim:\n%s", out)
	}
	var txt strings.Builder
	for _, s := range regexp.MustCompile(`"([^"]*)"`).FindAllSubmatch(m[2], -1) {
		txt.Write(s[1])
	}
	return Zone{strings.ToLower(string(m[1])): txt.String()}
}
