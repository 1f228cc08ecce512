package admin

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

// Issue 25, item 10: the operator's lists pass over a record that does
// not decode (the store logs it) and show the others; a user's page names
// his board that does not read instead of failing.
func TestCorruptRecordsPassedOver(t *testing.T) {
	t.Parallel()
	var mails [][]byte
	for i, subject := range []string{"signup alice secret", "signup bob secret", "signup carol secret",
		"tanbo challenge alice bob", "tanbo challenge alice carol"} {
		from := strings.Fields(subject)[1]
		if subject[0] == 't' {
			from = "alice"
		}
		mails = append(mails, fmt.Appendf(nil, "From: %s@example.org\r\nSubject: %s\r\nMessage-ID: <m%d@client.example>\r\n\r\n\r\n", from, subject, i))
	}
	env, _ := testEnv(t, mails...)
	db := env.DB
	err := db.Update(func(tx *store.Tx) error {
		for _, err := range []error{tx.CorruptUser("bob"), tx.CorruptGame("tanbo", 101), tx.CorruptOutgoing(1)} {
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"users"}, []string{"alice", "carol"}},
		{[]string{"user", "alice"}, []string{"game       tanbo 101: its record does not decode", "game       tanbo 102 running"}},
		{[]string{"outbox"}, []string{"carol@example.org"}},
	} {
		var out bytes.Buffer
		if err := Run(env, c.args, &out); err != nil {
			t.Errorf("%s: %v", c.args, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s does not say %q:\n%s", c.args, w, out.String())
			}
		}
	}
	if err := Run(env, []string{"user", "bob"}, io.Discard); err == nil || !strings.Contains(err.Error(), "does not decode") {
		t.Errorf("user bob: %v; want the error that his record does not decode", err)
	}
}

// testEnv is an Env on a fresh store, its clock stopped at the time it
// returns, whose service (trusting pbemtest's mail server) has handled
// the mails.
func testEnv(t *testing.T, mails ...[]byte) (Env, time.Time) {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	db := storetest.Open(t, store.PathIn(t.TempDir()), &store.Options{NoSync: true, Log: quiet})
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	svc := pbem.New(db, pbem.Config{Address: "pbem@example.org", Now: func() time.Time { return now }, Log: quiet, Auth: pbemtest.Auth()})
	for _, raw := range mails {
		if err := svc.Deliver(raw); err != nil {
			t.Fatal(err)
		}
	}
	return Env{Service: svc, DB: db, Log: quiet, Now: func() time.Time { return now }}, now
}
