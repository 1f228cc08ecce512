package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/etcdtest"
	"github.com/pbemd/pbemd/store/storetest"
)

// A store migrated to etcd and back to a new directory keeps its users;
// a second migration into the same etcd prefix is refused, as is one
// into a member not on this machine without TLS.
func TestMigrateToEtcdAndBack(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data, back := filepath.Join(dir, "data"), filepath.Join(dir, "back")
	openWithAlice(t, data).Close()
	addr, _ := etcdtest.Start(t)
	cluster := "etcd://" + addr + "/migrated"
	if code := run([]string{"migrate", "-from", data, "-to", cluster}); code != 0 {
		t.Fatalf("migrate to etcd: exit %d, want 0", code)
	}
	if code := run([]string{"migrate", "-from", data, "-to", cluster}); code != 1 {
		t.Errorf("migrate into a prefix that holds a store: exit %d, want 1", code)
	}
	if code := run([]string{"migrate", "-from", cluster, "-to", back}); code != 0 {
		t.Fatalf("migrate back: exit %d, want 0", code)
	}
	db := storetest.Open(t, store.PathIn(back), &store.Options{ReadOnly: true})
	err := db.View(func(tx *store.Tx) error {
		_, err := tx.UserByAddress("alice@example.org")
		return err
	})
	if err != nil {
		t.Errorf("alice after the round trip: %v", err)
	}
	if code := run([]string{"migrate", "-from", data, "-to", "etcd://192.0.2.1:2379"}); code != 1 {
		t.Errorf("migrate to a remote member in clear text: exit %d, want 1", code)
	}
}

// backup, admin and compact work on a store in etcd named by the
// configuration: the backup is a bbolt file that opens as a store.
func TestCommandsOnEtcd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	openWithAlice(t, data).Close()
	addr, _ := etcdtest.Start(t)
	cluster := "etcd://" + addr + "/pbemd"
	if code := run([]string{"migrate", "-from", data, "-to", cluster}); code != 0 {
		t.Fatalf("migrate to etcd: exit %d, want 0", code)
	}
	conf := filepath.Join(dir, "pbemd.yaml")
	yaml := "address: pbem@example.org\ndata: " + filepath.Join(dir, "other") + "\nstore: " + cluster + "\n"
	if err := os.WriteFile(conf, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "backup.db")
	for _, args := range [][]string{
		{"backup", "-config", conf, out},
		{"admin", "-config", conf, "user", "alice"},
		{"compact", "-config", conf},
	} {
		if code := run(args); code != 0 {
			t.Errorf("%v: exit %d, want 0", args, code)
		}
	}
	db := storetest.Open(t, out, &store.Options{ReadOnly: true})
	if err := db.View(func(tx *store.Tx) error { _, err := tx.User("alice"); return err }); err != nil {
		t.Errorf("alice in the backup of the etcd store: %v", err)
	}
	if code, stdout, stderr := pbemd(t, "", "compact", "-config", conf); code != 0 || !strings.Contains(stdout, "member "+addr+" defragmented") {
		t.Errorf("compact on etcd: exit %d, stdout %s, stderr %s; want each member's defragmentation told", code, stdout, stderr)
	}
}
