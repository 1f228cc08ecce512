package mailauth

import "testing"

// The domain of an address is what follows its last "@", in lower case,
// so that a quoted local part holding an "@" names no other domain, and
// the daemon and the doctor read the configured address as the trust
// rules read a sender's.
func TestDomain(t *testing.T) {
	for addr, want := range map[string]string{
		"alice@Mail.Example.ORG":         "mail.example.org",
		`"bob@evil.example"@example.org`: "example.org",
		"no-at-sign":                     "",
		"trailing@":                      "",
	} {
		if got := Domain(addr); got != want {
			t.Errorf("Domain(%q) = %q; want %q", addr, got, want)
		}
	}
}
