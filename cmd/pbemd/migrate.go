package main

import (
	"fmt"
	"strings"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/store"
)

const migrateHelp = "Copies every bucket, key, value and sequence of the store at FROM into the new\n" +
	"store at TO, then reads both again and checks them key by key. Each of FROM\n" +
	"and TO is a data directory (its " + store.FileName + ") or an etcd cluster,\n" +
	"etcd://HOST:PORT[,HOST:PORT...][/PREFIX], reached with the TLS and login of\n" +
	"the configuration's etcd: section. TO must hold no record yet. Stop the\n" +
	"daemon first: what it wrote during the copy would be lost. A copy that fails\n" +
	"leaves a part in TO; empty it (remove the file, or the prefix with\n" +
	"etcdctl del --prefix PREFIX/) before trying again."

// runMigrate is "pbemd migrate [-config FILE] -from WHERE -to WHERE".
func runMigrate(c *invocation) error {
	cf := c.flags.String("config", "", "configuration `file` for the etcd: TLS and login (default: none)")
	from := c.flags.String("from", "", "the store to copy: a data `directory` or etcd://...")
	to := c.flags.String("to", "", "the new store: a data `directory` or etcd://...")
	if _, err := c.parse(0, "no argument but -from and -to"); err != nil {
		return err
	}
	if *from == "" || *to == "" || *from == *to {
		return usageError("want -from and -to, two different stores")
	}
	cfg, err := (&dataFlags{config: *cf}).loadConfig(config.UsesNone)
	if err != nil {
		return err
	}
	src, err := openAt(*cfg, *from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := openAt(*cfg, *to)
	if err != nil {
		return err
	}
	st, err := src.CopyTo(dst)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "pbemd migrate: copied %d keys (%d bytes) in %d buckets from %s to %s; checked key by key\n",
		st.Keys, st.Bytes, st.Buckets, src.Path(), dst.Path())
	return nil
}

// openAt opens the store at where, a data directory or an etcd address,
// as the configuration would name it.
func openAt(cfg config.Config, where string) (*store.DB, error) {
	cfg.Store = ""
	if strings.HasPrefix(where, store.EtcdScheme) {
		cfg.Store = where
	} else {
		cfg.Data = where
	}
	return cfg.OpenStore(nil)
}
