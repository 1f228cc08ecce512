package config

import (
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/store"
)

// Etcd is how to reach the etcd cluster of a store kept there (see
// Config.Store and docs/scaling.md, "etcd engine").
type Etcd struct {
	// CAFile is a PEM file of the authorities that signed the members'
	// certificates; CertFile and KeyFile are this client's certificate
	// and key, for a cluster that asks for them. With none of the three
	// the connection is plain, which only loopback members may be.
	CAFile   string `yaml:"ca_file"`
	CertFile string `yaml:"cert_file"`
	KeyFile  string `yaml:"key_file"`
	// Username and the password log in to a cluster with auth enabled.
	Username    string `yaml:"username"`
	Password    Secret `yaml:"password"`     // discouraged: prefer PasswordEnv
	PasswordEnv string `yaml:"password_env"` // name of the environment variable holding the password
	// Timeout bounds each request to the cluster; default 5s. A mail
	// whose transaction the cluster did not answer in time stays with the
	// MTA (451, exit 75) and comes again.
	Timeout time.Duration `yaml:"timeout"`
	// MaxTxnOps and MaxRequestBytes are the cluster's --max-txn-ops and
	// --max-request-bytes; defaults 4096 and 16 MiB, what docs/scaling.md
	// asks of a cluster.
	MaxTxnOps       int `yaml:"max_txn_ops"`
	MaxRequestBytes int `yaml:"max_request_bytes"`
	// CompactEvery is how often pbemd serve's leader drops the cluster's
	// old history and then defragments its members, one at a time
	// (docs/scaling.md, "Compaction"); 0 means 24h, else at least 1m; a
	// negative duration ("-1s") leaves it to the operator. KeepHistory is
	// the history kept, which a long transaction or a watch may still
	// read; 0 means 1h, else at least 1m and at most compact_every.
	CompactEvery time.Duration `yaml:"compact_every"`
	KeepHistory  time.Duration `yaml:"keep_history"`
}

// The defaults of Etcd's scheduled compaction.
const (
	DefaultCompactEvery = 24 * time.Hour
	DefaultKeepHistory  = time.Hour
)

// EtcdStore returns how to reach the store's etcd cluster, or nil when the
// store is the bbolt file in Data.
func (c *Config) EtcdStore() (*store.EtcdConfig, error) {
	if c.Store == "" {
		return nil, nil
	}
	e, err := store.ParseEtcdURL(c.Store)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	e.CA, e.Cert, e.Key = c.Etcd.CAFile, c.Etcd.CertFile, c.Etcd.KeyFile
	e.Username, e.Password = c.Etcd.Username, c.Etcd.Password.Reveal()
	e.Timeout, e.MaxTxnOps, e.MaxRequestBytes = c.Etcd.Timeout, c.Etcd.MaxTxnOps, c.Etcd.MaxRequestBytes
	return e, nil
}

// OpenStore opens the store the configuration names: the etcd cluster of
// Store, or else the bbolt file in Data.
func (c *Config) OpenStore(o *store.Options) (*store.DB, error) {
	if err := c.validateStore(); err != nil {
		return nil, err
	}
	e, err := c.EtcdStore()
	if err != nil {
		return nil, err
	}
	if e != nil {
		return store.OpenEtcd(e, o)
	}
	return store.Open(store.PathIn(c.Data), o)
}

// resolveStore fills in the etcd password from the environment.
func (c *Config) resolveStore(lookupEnv func(string) (string, bool)) error {
	if c.Store == "" || c.Etcd.PasswordEnv == "" {
		return nil
	}
	if c.Etcd.Password != "" {
		return errors.New("etcd: both password and password_env are set; keep only one (password_env is safer)")
	}
	v, ok := lookupEnv(c.Etcd.PasswordEnv)
	if !ok || v == "" {
		return fmt.Errorf("etcd: password_env names %s, but that environment variable is not set", c.Etcd.PasswordEnv)
	}
	c.Etcd.Password = Secret(v)
	return nil
}

// validateStore checks the store's address, that a password or the data
// go in clear text to loopback members only, and that the largest mail
// fits in one request to the cluster.
func (c *Config) validateStore() error {
	e, err := c.EtcdStore()
	if err != nil || e == nil {
		return err
	}
	if e.CA == "" && e.Cert == "" && e.Key == "" {
		for _, m := range e.Endpoints {
			host, _, _ := net.SplitHostPort(m)
			if !mailconn.IsLoopback(host) {
				return fmt.Errorf("store: member %s is not on this machine and etcd has no ca_file: the games and the etcd password would cross the network in clear text; set etcd.ca_file (and cert_file, key_file if the cluster asks)", m)
			}
		}
	}
	if (e.Cert == "") != (e.Key == "") {
		return errors.New("etcd: cert_file and key_file go together; set both or neither")
	}
	if c.Etcd.Timeout < 0 || c.Etcd.MaxTxnOps < 0 || c.Etcd.MaxRequestBytes < 0 {
		return errors.New("etcd: timeout, max_txn_ops and max_request_bytes: want 0 (the default) or more")
	}
	if err := c.Etcd.validateCompaction(); err != nil {
		return err
	}
	size := int64(c.Etcd.MaxRequestBytes)
	if size == 0 {
		size = 16 << 20
	}
	if c.Limits.LargestMail > size-1<<20 {
		return fmt.Errorf("limits.largest_mail is %d bytes, etcd.max_request_bytes %d: a quarantined mail must fit in one request with 1 MiB to spare; lower largest_mail or raise the cluster's --max-request-bytes and max_request_bytes", c.Limits.LargestMail, size)
	}
	return nil
}

// Compaction returns the schedule of the daemon's compaction, a zero
// duration taken as its default; every is negative when it is off.
func (e Etcd) Compaction() (every, keep time.Duration) {
	every, keep = e.CompactEvery, e.KeepHistory
	if every == 0 {
		every = DefaultCompactEvery
	}
	if keep == 0 {
		keep = min(DefaultKeepHistory, every)
	}
	return every, keep
}

// validateCompaction checks the schedule of the daemon's compaction.
func (e Etcd) validateCompaction() error {
	every, keep := e.Compaction()
	if every < 0 {
		return nil // off
	}
	if every < time.Minute {
		return fmt.Errorf("etcd.compact_every is %v; want at least 1m (24h is usual), or a negative duration to leave compaction to the operator", every)
	}
	if keep < time.Minute || keep > every {
		return fmt.Errorf("etcd.keep_history is %v; want at least 1m and at most etcd.compact_every (%v)", keep, every)
	}
	return nil
}
