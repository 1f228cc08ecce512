package daemon

import (
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/outbox"
	"github.com/pbemd/pbemd/store"
)

// A mail the watcher quarantines is kept in the store's quarantine too, so
// that "pbemd admin quarantine" lists and releases the daemon's mails as it
// does pbemd deliver's; its sender is answered once.
func TestQuarantinedMailKeptForTheAdministrator(t *testing.T) {
	db, err := store.Open(store.PathIn(t.TempDir()), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := pbem.New(db, pbem.Config{Address: "pbem@example.org", Log: slog.New(slog.DiscardHandler)})
	h := handler{svc: svc, sender: outbox.New(db, &outbox.Mbox{W: io.Discard}, outbox.Options{})}
	raw := []byte("From: bob@example.org\r\nTo: pbem@example.org\r\nSubject: help\r\nMessage-ID: <q1@example.org>\r\n\r\nhello\r\n")
	if err := h.Quarantine(raw, "the command crashed the server"); err != nil {
		t.Fatal(err)
	}
	list, err := db.Quarantined()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].From != "bob@example.org" || !strings.Contains(string(list[0].Data), "hello") {
		t.Fatalf("store quarantine holds %+v; want bob's mail", list)
	}
	if n, err := db.OutboxLen(); err != nil || n != 1 {
		t.Errorf("%d answers queued (%v); want 1", n, err)
	}
}
