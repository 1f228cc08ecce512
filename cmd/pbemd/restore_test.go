package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/etcdtest"
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

// On a store in etcd (store: in the configuration) restore copies the
// backup into the prefix; a prefix that holds a store is refused unless
// -force, which keeps what it held beside the backup first.
func TestRestoreCommandOnEtcd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	backup := filepath.Join(dir, "backup.db")
	db := openWithAlice(t, filepath.Join(dir, "data"))
	if err := db.BackupFile(backup); err != nil {
		t.Fatal(err)
	}
	db.Close()
	addr, _ := etcdtest.Start(t)
	conf := filepath.Join(dir, "pbemd.yaml")
	yaml := "address: pbem@example.org\ndata: " + filepath.Join(dir, "other") + "\nstore: etcd://" + addr + "/restored\n"
	if err := os.WriteFile(conf, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := pbemd(t, "", "restore", "-config", conf, backup)
	if code != 0 || !strings.Contains(stdout, "is now etcd://"+addr+"/restored; checked key by key") {
		t.Fatalf("restore into an empty prefix: exit %d, stdout %s, stderr %s", code, stdout, stderr)
	}
	code, _, stderr = pbemd(t, "", "restore", "-config", conf, backup)
	if code != 1 || !strings.Contains(stderr, "nothing restored") || !strings.Contains(stderr, "-force") {
		t.Errorf("restore over a store: exit %d, stderr %s; want it refused, naming -force", code, stderr)
	}
	code, stdout, stderr = pbemd(t, "", "restore", "-config", conf, "-force", backup)
	if code != 0 || !strings.Contains(stdout, "is kept in "+filepath.Join(dir, "pbemd-before-restore-")) {
		t.Fatalf("forced restore: exit %d, stdout %s, stderr %s", code, stdout, stderr)
	}
	kept, _ := filepath.Glob(filepath.Join(dir, "pbemd-before-restore-*.db"))
	if len(kept) != 1 {
		t.Fatalf("kept %v; want one backup of what the prefix held", kept)
	}
	if err := store.Check(kept[0]); err != nil {
		t.Errorf("the backup kept: %v", err)
	}
}
