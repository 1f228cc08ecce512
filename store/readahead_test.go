package store

import (
	"fmt"
	"testing"
	"time"
)

// A batch's processed-mail keys are read ahead in one request per 512
// keys on etcd; Processed answers each key as without it, on either
// engine, and asks the cluster nothing more.
func TestReadAheadProcessed(t *testing.T) {
	t.Parallel()
	c := etcdConfig(t)
	for name, open := range map[string]func() *DB{
		"bbolt": func() *DB { return openTest(t) },
		"etcd":  func() *DB { return openEtcdTest(t, c) },
	} {
		t.Run(name, func(t *testing.T) {
			db := open()
			var keys []string
			for i := range 600 {
				keys = append(keys, fmt.Sprintf("<m%d@example.org>", i))
			}
			if err := db.Update(func(tx *Tx) error {
				for _, k := range keys[:300] {
					if err := tx.MarkProcessed(k, time.Unix(1e9, 0)); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if name == "etcd" {
				db = open() // another node: nothing in its cache
			}
			var before, asked int64
			if e, ok := db.eng.(*etcdEngine); ok {
				before = e.requests.Load()
			}
			err := db.View(func(tx *Tx) error {
				tx.ReadAheadProcessed(keys)
				if e, ok := db.eng.(*etcdEngine); ok {
					asked = e.requests.Load()
				}
				for i, k := range keys {
					done, err := tx.Processed(k)
					if err != nil {
						return err
					}
					if done != (i < 300) {
						t.Errorf("Processed(%s) = %v, want %v", k, done, i < 300)
					}
				}
				if e, ok := db.eng.(*etcdEngine); ok && e.requests.Load() != asked {
					t.Errorf("Processed of keys read ahead took %d requests, want none", e.requests.Load()-asked)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			// Two keys a mail, the hashed and the earlier form: 1,200
			// keys, 3 requests of at most 512, and the markers.
			if _, ok := db.eng.(*etcdEngine); ok && asked-before != 4 {
				t.Errorf("reading ahead 600 mails' keys took %d requests with the markers, want 4", asked-before)
			}
		})
	}
}
