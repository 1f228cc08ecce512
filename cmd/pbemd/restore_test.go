package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/store"
)

// restore refuses while a daemon holds the store and a file that is not a
// copy of one; it puts a backup in place.
func TestRestoreCommand(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	db := openWithAlice(t, data)
	backup := filepath.Join(t.TempDir(), "backup.db")
	if err := db.BackupFile(backup); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := pbemd(t, "", "restore", "-data", data, backup)
	if code != 1 || !strings.Contains(stderr, "stop the daemon first") {
		t.Errorf("restore into a store in use: exit %d, stderr %s", code, stderr)
	}
	db.Close()
	mail := filepath.Join(t.TempDir(), "mail.eml")
	if err := os.WriteFile(mail, []byte("From: mallory@example.org\n\nnot a database\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = pbemd(t, "", "restore", "-data", data, mail)
	if code != 1 || !strings.Contains(stderr, "nothing restored") || !strings.Contains(stderr, "not a pbemd store") {
		t.Errorf("restore of a mail: exit %d, stderr %s", code, stderr)
	}
	code, stdout, stderr := pbemd(t, "", "restore", "-data", data, backup)
	if code != 0 || !strings.Contains(stdout, "is now "+store.PathIn(data)) {
		t.Fatalf("restore: exit %d, stdout %s, stderr %s", code, stdout, stderr)
	}
}
