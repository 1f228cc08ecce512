package admin

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/store"
)

// "admin user" marks an address whose board mail is paused after its
// bounces, and no other.
func TestUserShowsPausedAddress(t *testing.T) {
	env, now := testEnv(t,
		pbemtest.Mail("alice@example.org", "signup alice secret", "", "p1@client.example"),
		pbemtest.Mail("bob@example.org", "signup bob secret", "", "p2@client.example"))
	// The record pbem's bounces.go keeps of a paused address.
	if err := env.DB.Update(func(tx *store.Tx) error {
		return tx.PutCounter("paused:alice@example.org", store.Counter{Start: now, Count: 1, Expires: now.Add(24 * time.Hour)})
	}); err != nil {
		t.Fatal(err)
	}
	for user, want := range map[string]bool{"alice": true, "bob": false} {
		var out bytes.Buffer
		if err := Run(env, []string{"user", user}, &out); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(out.String(), "@example.org (paused since 2026-11-22 12:00: its mail bounced)"); got != want {
			t.Errorf("admin user %s shows paused %v, want %v:\n%s", user, got, want, out.String())
		}
	}
}
