package config

import (
	"strings"
	"testing"
)

func TestReplyAddress(t *testing.T) {
	t.Parallel()
	base := "address: pbem@example.org\nimap: {host: imap.example.org, username: u, password: p}\nsmtp: {host: smtp.example.org}\n"
	c, err := Parse([]byte(base+"reply_address: 'pbem+{token}@example.org'\n"), env(nil))
	if err != nil || c.ReplyAddress != "pbem+{token}@example.org" {
		t.Fatalf("reply_address: %+v, %v", c, err)
	}
	for _, bad := range []string{
		"pbem@example.org",                   // no place for the token
		"pbem+{token}{token}@example.org",    // two
		"pbem@{token}.example.org",           // in the domain
		"pbem+{token} x@example.org",         // no address
		"Players <pbem+{token}@example.org>", // a name: write the address alone
	} {
		_, err := Parse([]byte(base+"reply_address: '"+bad+"'\n"), env(nil))
		if err == nil || !strings.Contains(err.Error(), "reply_address") {
			t.Errorf("reply_address %q: %v, want an error naming reply_address", bad, err)
		}
	}
}
