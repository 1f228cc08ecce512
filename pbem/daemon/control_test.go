package daemon

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

// A running daemon's database is copied over the control socket while it
// keeps writing: the copy opens and holds whole transactions only.
func TestBackupOverControlSocket(t *testing.T) {
	dir, db, stop := controlled(t)
	defer stop()

	// Each transaction writes a user and a note naming that user.
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			id := fmt.Sprintf("u%d", i)
			db.Update(func(tx *store.Tx) error {
				if err := tx.PutUser(&store.User{ID: id, Addresses: []string{id + "@example.org"}}); err != nil {
					return err
				}
				return tx.SetNote("last", id)
			})
		}
	}()
	for i := 0; i < 5; i++ {
		out := filepath.Join(t.TempDir(), "copy.db")
		if err := FetchBackup(dir, out); err != nil {
			t.Fatal(err)
		}
		cp, err := store.Open(out, &store.Options{ReadOnly: true})
		if err != nil {
			t.Fatalf("the copy does not open: %v", err)
		}
		cp.View(func(tx *store.Tx) error {
			last, ok, _ := tx.Note("last")
			if !ok {
				return nil
			}
			if _, err := tx.User(last); err != nil {
				t.Errorf("the copy names user %s but lacks it: a torn transaction", last)
			}
			return nil
		})
		cp.Close()
	}
	close(done)
	wg.Wait()
}

func TestControlSocketRefusesOtherRequests(t *testing.T) {
	dir, _, stop := controlled(t)
	conn, err := net.Dial("unix", ControlPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(conn, "shutdown")
	answer, _ := io.ReadAll(conn)
	conn.Close()
	if !strings.HasPrefix(string(answer), `ERR unknown request "shutdown"`) {
		t.Errorf("answer %q", answer)
	}
	stop()
	if err := FetchBackup(dir, filepath.Join(t.TempDir(), "x.db")); err == nil || !strings.Contains(err.Error(), "no pbemd daemon answers") {
		t.Errorf("with the daemon gone: %v", err)
	}
}

// controlled is a store in a fresh data directory with its control socket
// served; stop ends the serving (the store closes with the test).
func controlled(t *testing.T) (dir string, db *store.DB, stop func()) {
	t.Helper()
	dir = t.TempDir()
	db = storetest.Open(t, store.PathIn(dir), &store.Options{NoSync: true})
	stop, err := serveControl(dir, db, slog.New(slog.DiscardHandler), nil)
	if err != nil {
		t.Fatal(err)
	}
	return dir, db, stop
}

// The control socket tells the daemon's own version.
func TestVersionOverControlSocket(t *testing.T) {
	dir, _, stop := controlled(t)
	defer stop()
	v, err := RunningVersion(dir)
	if err != nil || v != Version() {
		t.Errorf("RunningVersion = %q, %v; want %q", v, err, Version())
	}
	stop()
	if _, err := RunningVersion(dir); !errors.Is(err, ErrNoDaemon) {
		t.Errorf("no daemon: %v; want ErrNoDaemon", err)
	}
}
