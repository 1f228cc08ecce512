package admin

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/store"
)

// "admin user" marks an address whose board mail is paused after its
// bounces, and no other.
func TestUserShowsPausedAddress(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	db, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), &store.Options{NoSync: true, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	svc := pbem.New(db, pbem.Config{Address: "pbem@example.org", Now: func() time.Time { return now }, Log: quiet, Auth: pbemtest.Auth()})
	for i, from := range []string{"alice", "bob"} {
		raw := pbemtest.Mail(from+"@example.org", "signup "+from+" secret", "", fmt.Sprintf("p%d@client.example", i))
		if err := svc.Deliver(raw); err != nil {
			t.Fatal(err)
		}
	}
	// The record pbem's bounces.go keeps of a paused address.
	if err := db.Update(func(tx *store.Tx) error {
		return tx.PutCounter("paused:alice@example.org", store.Counter{Start: now, Count: 1, Expires: now.Add(24 * time.Hour)})
	}); err != nil {
		t.Fatal(err)
	}
	env := Env{Service: svc, DB: db, Log: quiet, Now: func() time.Time { return now }}
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
