package store

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// EtcdScheme begins the address of a store kept in etcd.
const EtcdScheme = "etcd://"

// ParseEtcdURL reads the address of a store in etcd,
// etcd://HOST:PORT[,HOST:PORT...][/PREFIX], into the endpoints and key
// prefix of an EtcdConfig; TLS and login come from elsewhere (the
// configuration file), never from the address, which is logged.
func ParseEtcdURL(s string) (*EtcdConfig, error) {
	rest, ok := strings.CutPrefix(s, EtcdScheme)
	if !ok {
		return nil, fmt.Errorf("store: %q: want an address etcd://HOST:PORT[,HOST:PORT...][/PREFIX]", s)
	}
	hosts, prefix, _ := strings.Cut(rest, "/")
	c := &EtcdConfig{Prefix: strings.TrimSuffix(prefix, "/")}
	for h := range strings.SplitSeq(hosts, ",") {
		if _, port, err := net.SplitHostPort(h); err != nil || port == "" {
			return nil, fmt.Errorf("store: %q: member %q: want HOST:PORT", s, h)
		}
		c.Endpoints = append(c.Endpoints, h)
	}
	if strings.ContainsAny(c.Prefix, "@?#") {
		return nil, fmt.Errorf("store: %q: the prefix %q: want letters, digits, '-', '_' or '/' (no login or options in the address)", s, c.Prefix)
	}
	return c, nil
}

// String is the store's address, etcd://HOST:PORT,.../PREFIX: no password.
func (c *EtcdConfig) String() string {
	p := c.Prefix
	if p == "" {
		p = "pbemd"
	}
	return EtcdScheme + strings.Join(c.Endpoints, ",") + "/" + p
}

// OpenEtcd opens the store kept in an etcd cluster under c.Prefix, making
// its buckets when the prefix holds none. A cluster that does not answer
// is an error wrapping ErrUnreachable: there is no fallback to a file.
func OpenEtcd(c *EtcdConfig, opts *Options) (*DB, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	e, err := dialEtcd(c)
	if err != nil {
		return nil, err
	}
	e.readOnly = o.ReadOnly
	db := &DB{eng: e, path: c.String(), readOnly: o.ReadOnly, skipped: skipped{log: o.Log}}
	if err := db.prepare(); err != nil {
		e.cli.Close()
		return nil, fmt.Errorf("store: %s: %w", c, err)
	}
	return db, nil
}

// dialEtcd makes the engine of the store c names, with its client to
// the cluster; nothing is asked of the cluster yet.
func dialEtcd(c *EtcdConfig) (*etcdEngine, error) {
	if len(c.Endpoints) == 0 {
		return nil, fmt.Errorf("store: etcd: no member to connect to; want etcd://HOST:PORT[,HOST:PORT...]")
	}
	tlsConfig, err := c.tls()
	if err != nil {
		return nil, err
	}
	e := newEtcdEngine(nil, c)
	cli, err := clientv3.New(clientv3.Config{
		Endpoints:   c.Endpoints,
		DialTimeout: e.timeout,
		TLS:         tlsConfig,
		Username:    c.Username,
		Password:    c.Password,
		Logger:      zap.NewNop(), // its own errors come back to us; and no password in a log
		// Room for the largest commit the cluster takes.
		MaxCallSendMsgSize: e.maxSize + 1<<20,
	})
	if err != nil {
		return nil, fmt.Errorf("store: etcd %s: %w", c, err)
	}
	e.cli = cli
	return e, nil
}

// tls returns the client's TLS settings, nil for a plain connection.
func (c *EtcdConfig) tls() (*tls.Config, error) {
	if c.CA == "" && c.Cert == "" && c.Key == "" {
		return nil, nil
	}
	t := &tls.Config{MinVersion: tls.VersionTLS12}
	if c.CA != "" {
		pem, err := os.ReadFile(c.CA)
		if err != nil {
			return nil, fmt.Errorf("store: etcd CA: %w", err)
		}
		t.RootCAs = x509.NewCertPool()
		if !t.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("store: etcd CA %s: want PEM certificates, found none", c.CA)
		}
	}
	if c.Cert != "" || c.Key != "" {
		cert, err := tls.LoadX509KeyPair(c.Cert, c.Key)
		if err != nil {
			return nil, fmt.Errorf("store: etcd client certificate (cert %q, key %q): %w", c.Cert, c.Key, err)
		}
		t.Certificates = []tls.Certificate{cert}
	}
	return t, nil
}
