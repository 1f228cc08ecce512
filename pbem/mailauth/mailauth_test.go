package mailauth

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/emersion/go-msgauth/dkim"
)

// zone is a resolver of fixed TXT records.
type zone map[string][]string

func (z zone) LookupTXT(_ context.Context, name string) ([]string, error) {
	if txt, ok := z[strings.ToLower(name)]; ok {
		return txt, nil
	}
	return nil, errors.New("no such record")
}

// signer makes a key for domain and selector, and the zone that publishes it.
func signer(t *testing.T, domain, selector string) (ed25519.PrivateKey, zone) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return priv, zone{selector + "._domainkey." + domain: {"v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)}}
}

func sign(t *testing.T, raw, domain, selector string, key ed25519.PrivateKey) []byte {
	t.Helper()
	var out bytes.Buffer
	err := dkim.Sign(&out, strings.NewReader(raw), &dkim.SignOptions{
		Domain: domain, Selector: selector, Signer: key,
		HeaderKeys: []string{"From", "To", "Subject", "Message-ID"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

const plain = "From: Alice <alice@mail.example.org>\r\nTo: pbem@games.example\r\nSubject: ultima challenge alice bob\r\nMessage-ID: <1@mail.example.org>\r\n\r\nLet's play.\r\n"

func TestSignedMailIsAuthenticated(t *testing.T) {
	t.Parallel()
	key, dns := signer(t, "example.org", "s1")
	v := &Verifier{Resolver: dns}
	raw := sign(t, plain, "example.org", "s1", key)
	if r := v.Check(raw); !r.Authenticated || r.How != "dkim example.org" {
		t.Fatalf("a mail signed by the From's organizational domain: %+v", r)
	}
}

func TestSignatureThatDoesNotVouchForFrom(t *testing.T) {
	t.Parallel()
	key, dns := signer(t, "example.org", "s1")
	other, otherDNS := signer(t, "attacker.example", "s1")
	for k, txt := range otherDNS {
		dns[k] = txt
	}
	v := &Verifier{Resolver: dns}
	cases := map[string][]byte{
		// The attacker signs his own domain and forges alice's From.
		"other domain": sign(t, plain, "attacker.example", "s1", other),
		// A signed mail whose body was changed on the way.
		"body changed": bytes.Replace(sign(t, plain, "example.org", "s1", key), []byte("Let's play."), []byte("resign"), 1),
		// A signed mail whose From was changed after signing.
		"from changed": bytes.Replace(sign(t, plain, "example.org", "s1", key), []byte("alice@mail.example.org"), []byte("bob@mail.example.org"), 1),
		// The key is not published.
		"no key":     sign(t, plain, "example.org", "s2", key),
		"unsigned":   []byte(plain),
		"two froms":  []byte("From: bob@example.org\r\n" + string(sign(t, plain, "example.org", "s1", key))),
		"two people": []byte(strings.Replace(string(sign(t, plain, "example.org", "s1", key)), "Alice <alice@mail.example.org>", "alice@mail.example.org, bob@x.example", 1)),
	}
	for name, raw := range cases {
		if r := v.Check(raw); r.Authenticated {
			t.Errorf("%s: authenticated (%s)", name, r.How)
		}
	}
}

func TestTrustedResults(t *testing.T) {
	t.Parallel()
	v := &Verifier{TrustedIDs: []string{"mx.games.example"}}
	with := func(fields ...string) []byte {
		return []byte(strings.Join(fields, "\r\n") + "\r\n" + plain)
	}
	cases := []struct {
		name string
		raw  []byte
		want bool
	}{
		{"dmarc pass", with("Authentication-Results: mx.games.example; dmarc=pass header.from=mail.example.org"), true},
		{"dkim pass aligned", with("Authentication-Results: MX.games.example; spf=fail smtp.mailfrom=x; dkim=pass header.d=example.org"), true},
		{"submission login", with("Authentication-Results: mx.games.example; auth=pass smtp.auth=alice@mail.example.org"), true},
		{"dmarc of another domain", with("Authentication-Results: mx.games.example; dmarc=pass header.from=attacker.example"), false},
		{"dkim not aligned", with("Authentication-Results: mx.games.example; dkim=pass header.d=attacker.example"), false},
		{"spf only", with("Authentication-Results: mx.games.example; spf=pass smtp.mailfrom=mail.example.org"), false},
		{"dmarc fail", with("Authentication-Results: mx.games.example; dmarc=fail header.from=mail.example.org"), false},
		{"untrusted id", with("Authentication-Results: mx.attacker.example; dmarc=pass header.from=mail.example.org"), false},
		// The trusted server's own field comes first; one the sender
		// wrote further down does not count.
		{"forged below the server's", with(
			"Authentication-Results: mx.games.example; dmarc=fail header.from=mail.example.org",
			"Authentication-Results: mx.games.example; dmarc=pass header.from=mail.example.org"), false},
		{"no field", []byte(plain), false},
	}
	for _, c := range cases {
		if r := v.Check(c.raw); r.Authenticated != c.want {
			t.Errorf("%s: authenticated %v (%s), want %v", c.name, r.Authenticated, r.How, c.want)
		}
	}
	var none *Verifier
	if none.Check(with("Authentication-Results: mx.games.example; dmarc=pass header.from=mail.example.org")).Authenticated {
		t.Error("a nil Verifier authenticated a mail")
	}
}

func TestAligned(t *testing.T) {
	t.Parallel()
	cases := []struct {
		signer, from string
		want         bool
	}{
		{"example.org", "example.org", true},
		{"example.org", "mail.example.org", true},
		{"mail.example.org", "lists.example.org", true},
		{"example.co.uk", "other.co.uk", false},
		{"co.uk", "example.co.uk", false},
		{"example.org", "example.net", false},
		{"", "example.org", false},
	}
	for _, c := range cases {
		if got := Aligned(c.signer, c.from); got != c.want {
			t.Errorf("Aligned(%q, %q) = %v, want %v", c.signer, c.from, got, c.want)
		}
	}
}

// What the server signs, a receiver verifies against the record it
// prints: for both kinds of key, through Check itself.
func TestSignerRoundTrip(t *testing.T) {
	t.Parallel()
	for _, alg := range []string{"rsa", "ed25519"} {
		path := t.TempDir() + "/dkim.pem"
		key, err := NewKey(path, alg)
		if err != nil {
			t.Fatal(err)
		}
		if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
			t.Fatalf("%s key file: %v, %v; want mode 0600", alg, info, err)
		}
		if _, err := NewKey(path, alg); err == nil {
			t.Errorf("%s: NewKey overwrote a key", alg)
		}
		loaded, err := LoadKey(path)
		if err != nil {
			t.Fatal(err)
		}
		s := &Signer{Domain: "games.example", Selector: "pbemd1", Key: loaded}
		record, err := s.Record()
		if err != nil {
			t.Fatal(err)
		}
		mine := &Signer{Domain: "games.example", Selector: "pbemd1", Key: key}
		if r2, _ := mine.Record(); r2 != record {
			t.Errorf("%s: the loaded key's record differs from the made one's", alg)
		}
		mail := "From: pbemd <pbem@games.example>\r\nTo: alice@example.org\r\nSubject: Tanbo Board 101 alice\r\nMessage-ID: <1@games.example>\r\n\r\nSummary of Tanbo Board 101\r\n"
		signed, err := s.Sign([]byte(mail))
		if err != nil {
			t.Fatal(err)
		}
		v := &Verifier{Resolver: zone{s.RecordName(): {record}}}
		if r := v.Check(signed); !r.Authenticated || r.How != "dkim games.example" {
			t.Errorf("%s: a signed board mail: %+v", alg, r)
		}
		if r := v.Check(bytes.Replace(signed, []byte("alice@"), []byte("mallory@"), 1)); r.Authenticated {
			t.Errorf("%s: a signed mail readdressed still verifies", alg)
		}
	}
}

// A mail reader may read a From, Subject or Message-ID other than the one
// a signature covers: a second From written "From :", or a copy of a
// field put on top of another's signed mail. Such a mail vouches for no
// one.
func TestFieldsOnceOnly(t *testing.T) {
	t.Parallel()
	key, dns := signer(t, "evil.example", "s1")
	alicesKey, alicesDNS := signer(t, "example.org", "s1")
	for k, txt := range alicesDNS {
		dns[k] = txt
	}
	v := &Verifier{Resolver: dns}
	cases := map[string][]byte{
		"From with a space before its colon": sign(t, "From : alice@example.org\r\nFrom: me@evil.example\r\nTo: pbem@games.example\r\nSubject: tanbo challenge alice bob\r\nMessage-ID: <1@evil.example>\r\n\r\nhi\r\n",
			"evil.example", "s1", key),
		"a Subject and Message-ID on top of a signed mail": append([]byte("Subject: tanbo challenge alice mallory\r\nMessage-ID: <replay1@evil.example>\r\n"),
			sign(t, plain, "example.org", "s1", alicesKey)...),
	}
	for name, raw := range cases {
		if r := v.Check(raw); r.Authenticated {
			t.Errorf("%s: authenticated (%s)", name, r.How)
		}
	}
	// What was vouched for is said.
	if r := v.Check(sign(t, plain, "example.org", "s1", alicesKey)); !r.Authenticated || r.From != "alice@mail.example.org" {
		t.Errorf("a signed mail: %+v; want alice@mail.example.org vouched for", r)
	}
}

// Trusted reads only a trusted server's field, and a mail with a second
// From or Subject is not trusted either.
func TestTrusted(t *testing.T) {
	t.Parallel()
	v := &Verifier{TrustedIDs: []string{"mx.games.example"}}
	ok := []byte("Authentication-Results: mx.games.example; dmarc=pass header.from=mail.example.org\r\n" + plain)
	if !v.Trusted(ok) {
		t.Error("a trusted DMARC pass is not trusted")
	}
	for name, raw := range map[string][]byte{
		"untrusted id": []byte("Authentication-Results: mx.other.example; dmarc=pass header.from=mail.example.org\r\n" + plain),
		"second From":  append([]byte("From : mallory@evil.example\r\n"), ok...),
		"no field":     []byte(plain),
	} {
		if v.Trusted(raw) {
			t.Errorf("%s: trusted", name)
		}
	}
	var none *Verifier
	if none.Trusted(ok) {
		t.Error("a nil Verifier trusts")
	}
}

// countingZone counts the lookups it answers.
type countingZone struct {
	zone
	n int
}

func (z *countingZone) LookupTXT(ctx context.Context, name string) ([]string, error) {
	z.n++
	return z.zone.LookupTXT(ctx, name)
}

// A key is looked up once in a while, found or not: a sender whose DNS is
// slow or dead costs a batch one lookup, not one a mail.
func TestKeyLookupsRemembered(t *testing.T) {
	t.Parallel()
	key, dns := signer(t, "example.org", "s1")
	z := &countingZone{zone: dns}
	v := &Verifier{Resolver: z}
	signed := sign(t, plain, "example.org", "s1", key)
	unknown := sign(t, plain, "example.org", "gone", key)
	for range 5 {
		if !v.Check(signed).Authenticated {
			t.Fatal("a signed mail is not authenticated")
		}
		if v.Check(unknown).Authenticated {
			t.Fatal("a mail signed with an unpublished key is authenticated")
		}
	}
	if z.n != 2 {
		t.Errorf("10 checks asked DNS %d times; want 2, one a key", z.n)
	}
}
