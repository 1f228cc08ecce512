package config

import (
	"log/slog"
	"net"
	"testing"
)

// The settings reach the service: the trusted ids vouch for a mail, other
// ids do not, and verify_dkim chooses whether DNS is asked at all.
func TestServiceAuth(t *testing.T) {
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
	c.VerifyDKIM, c.DKIMResolver = true, "127.0.0.1:5353"
	if r, ok := c.Verifier().Resolver.(*net.Resolver); !ok || r == net.DefaultResolver || !r.PreferGo {
		t.Errorf("dkim_resolver gives %#v; want a resolver of its own", c.Verifier().Resolver)
	}
}
