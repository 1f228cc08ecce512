package config

import (
	"strings"
	"testing"
)

// bounces.return_path is checked as reply_address is, pause_after within
// its range, and both reach the service's settings.
func TestBouncesSettings(t *testing.T) {
	base := "address: pbem@example.org\nimap: {host: imap.example.org, username: u, password: p}\nsmtp: {host: smtp.example.org}\n"
	c, err := Parse([]byte(base+"bounces: {return_path: 'pbem+{token}@example.org', pause_after: 5}\n"), env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if b := c.Service(nil).Bounces; b.ReturnPath != "pbem+{token}@example.org" || b.PauseAfter != 5 {
		t.Fatalf("the service's bounces settings: %+v", b)
	}
	for _, bad := range []string{
		"bounces: {return_path: 'pbem@example.org'}",
		"bounces: {return_path: 'pbem@{token}.example.org'}",
		"bounces: {pause_after: -1}",
		"bounces: {pause_after: 31}",
	} {
		_, err := Parse([]byte(base+bad+"\n"), env(nil))
		if err == nil || !strings.Contains(err.Error(), "bounces.") {
			t.Errorf("%s: %v, want an error naming the setting", bad, err)
		}
	}
}
