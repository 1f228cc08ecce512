package config

import (
	"bytes"
	"log/slog"
	"net"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/pbem/pbemtest"
)

// The settings reach the service: the trusted ids vouch for a mail, other
// ids do not, and verify_dkim chooses whether DNS is asked at all.
func TestServiceAuth(t *testing.T) {
	t.Parallel()
	c, err := Parse([]byte(minimal+"trusted_authserv_ids: [MX.games.example]\nlimits:\n  largest_mail: 100000\n"), secrets)
	if err != nil {
		t.Fatal(err)
	}
	sc := c.Service(slog.New(slog.DiscardHandler))
	if sc.Address != "pbem@example.org" || sc.Mail.MaxMailBytes != 100000 || sc.Auth == nil {
		t.Fatalf("service config %+v", sc)
	}
	if sc.Auth.Resolver != net.DefaultResolver {
		t.Errorf("verify_dkim is on by default, with the system's resolver; got %#v", sc.Auth.Resolver)
	}
	mail := func(id string) []byte {
		return []byte("Authentication-Results: " + id + "; dmarc=pass header.from=example.net\r\n" +
			"From: alice@example.net\r\nSubject: help\r\n\r\n")
	}
	if r := sc.Auth.Check(mail("mx.games.example")); !r.Authenticated {
		t.Errorf("a DMARC pass from the trusted server: %+v", r)
	}
	// Unsigned: the signature check asks DNS nothing.
	if r := sc.Auth.Check(mail("mx.attacker.example")); r.Authenticated {
		t.Errorf("a DMARC pass from a server not trusted: %+v", r)
	}
	c.VerifyDKIM = false
	if v := c.Verifier(); v.Resolver != nil {
		t.Errorf("verify_dkim false still verifies with %#v", v.Resolver)
	}
}

// With dkim_resolver, the keys come from that DNS server: a signature of
// the From's domain verifies, the same mail changed on the way does not.
func TestDKIMResolver(t *testing.T) {
	t.Parallel()
	signer := pbemtest.NewSigner(t, "example.net", "s1")
	c, err := Parse([]byte(minimal+"dkim_resolver: "+pbemtest.ServeDNS(t, signer)+"\n"), secrets)
	if err != nil {
		t.Fatal(err)
	}
	v := c.Service(nil).Auth
	signed := signer.Sign(t, []byte("From: alice@example.net\r\nTo: pbem@example.org\r\nSubject: help\r\nMessage-ID: <1@example.net>\r\n\r\nhi\r\n"))
	if r := v.Check(signed); !r.Authenticated || r.How != "dkim example.net" {
		t.Errorf("a signed mail: %+v", r)
	}
	if r := v.Check(bytes.Replace(signed, []byte("help"), []byte("ultima resign 101"), 1)); r.Authenticated {
		t.Errorf("a signed mail whose Subject was changed: %+v", r)
	}
}

// dkim: both domain and selector, a domain that vouches for the address,
// and a key that can be read when the signer is built.
func TestDKIMSigning(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{
		"dkim:\n  domain: example.org\n",
		"dkim:\n  selector: pbemd1\n",
		"dkim:\n  domain: other.example\n  selector: pbemd1\n",
	} {
		if _, err := Parse([]byte(minimal+bad), secrets); err == nil || !strings.Contains(err.Error(), "dkim") {
			t.Errorf("%q: %v; want a dkim error", bad, err)
		}
	}
	c, err := Parse([]byte(minimal+"dkim:\n  domain: example.org\n  selector: pbemd1\n  key_file: "+t.TempDir()+"/none.pem\n"), secrets)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Signer(); err == nil || !strings.Contains(err.Error(), "dkim.key_file") {
		t.Errorf("a missing key: %v; want an error naming dkim.key_file", err)
	}
	c.DKIM = DKIM{}
	if s, err := c.Signer(); s != nil || err != nil {
		t.Errorf("no dkim: %v, %v; want no signer", s, err)
	}
}
