package admin

import (
	"bytes"
	"io"
	"slices"
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

// "admin resume" ends the pause of an address, which is told; an address
// not paused is an error, and so is a second resume.
func TestResumeEndsPause(t *testing.T) {
	env, now := testEnv(t,
		pbemtest.Mail("alice@example.org", "signup alice secret", "", "p1@client.example"),
		pbemtest.Mail("bob@example.org", "signup bob secret", "", "p2@client.example"))
	if err := env.DB.Update(func(tx *store.Tx) error {
		return tx.PutCounter("paused:alice@example.org", store.Counter{Start: now.Add(-48 * time.Hour), Count: 1, Expires: now.Add(24 * time.Hour)})
	}); err != nil {
		t.Fatal(err)
	}
	queued, err := env.DB.Pending(now, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Run(env, []string{"resume", "alice@example.org"}, &out); err != nil {
		t.Fatal(err)
	}
	if want := "board mail to alice@example.org resumed (paused since 2026-11-20 12:00)"; !strings.Contains(out.String(), want) {
		t.Errorf("admin resume says %q; want %q", out.String(), want)
	}
	out.Reset()
	if err := Run(env, []string{"user", "alice"}, &out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "paused") {
		t.Errorf("admin user alice after the resume:\n%s", out.String())
	}
	mails, err := env.DB.Pending(now, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(mails) != len(queued)+1 || !slices.Equal(mails[len(mails)-1].To, []string{"alice@example.org"}) ||
		!strings.Contains(string(mails[len(mails)-1].Data), "administrator has resumed") {
		t.Fatalf("the outbox after the resume: %d mails, %d before; want one more, to alice@example.org, saying the administrator resumed it:\n%v\n%s", len(mails), len(queued), mails[len(mails)-1].To, mails[len(mails)-1].Data)
	}
	for _, addr := range []string{"alice@example.org", "bob@example.org"} {
		if err := Run(env, []string{"resume", addr}, io.Discard); err == nil || !strings.Contains(err.Error(), "is not paused") {
			t.Errorf("admin resume %s, not paused: %v; want an error saying so", addr, err)
		}
	}
}
