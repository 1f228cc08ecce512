package daemon

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/lmtp"
	"github.com/pbemd/pbemd/pbem/mailauth"
	"github.com/pbemd/pbemd/pbem/mailbox"
	"github.com/pbemd/pbemd/store"
)

// A Level is how one check of Doctor came out.
type Level int

const (
	OK   Level = iota
	Skip       // not checked: it does not apply, or the doctor cannot tell
	Warn       // works, but should be looked at
	Fail       // will not work as it is
)

func (l Level) String() string { return [...]string{"ok", "--", "WARN", "FAIL"}[l] }

// A Finding is the outcome of one check: what was checked, and what was
// found, with what to do about a fault.
type Finding struct {
	Level  Level
	Check  string
	Detail string
}

func (f Finding) String() string { return fmt.Sprintf("%-4s %s: %s", f.Level, f.Check, f.Detail) }

// DoctorOptions say what Doctor checks.
type DoctorOptions struct {
	// Configured is set when the configuration came from a file: only
	// then are its mail servers and DNS records checked (the embedded
	// default has none).
	Configured bool
	// Timeout bounds each check that connects (a mail server, a DNS
	// question); default 10 seconds.
	Timeout time.Duration
	// Now is the time certificates are checked against; default the
	// time of the call.
	Now time.Time
}

// Expiring is how long before a certificate runs out Doctor warns.
const Expiring = 14 * 24 * time.Hour

// Doctor checks what pbemd serve needs of the machine and the world: the
// data directory (owner, mode, the owners of its files, free space), the
// store (a file, or in etcd the cluster, its room and the prefix: see
// etcdChecks), the IMAP and SMTP servers (reachable, their certificates trusted
// and not about to run out, the login), the LMTP listener, and the DNS
// records of the address's domain (the DKIM key against the key file, SPF,
// DMARC). It calls report once per check, in that order, and returns
// whether any check failed. DNS goes through the configuration's Resolver;
// a DNS server that does not answer is a warning, not a failure, so that
// the doctor is of use offline.
func Doctor(ctx context.Context, cfg *config.Config, opts DoctorOptions, report func(Finding)) (failed bool) {
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	d := &doctor{cfg: cfg, opts: opts, dns: cfg.Resolver()}
	storeChecks := []func(context.Context) Finding{d.store}
	if cfg.Store != "" {
		storeChecks = d.etcdChecks()
	}
	checks := slices.Concat([]func(context.Context) Finding{d.dataDir, d.owners}, storeChecks,
		[]func(context.Context) Finding{d.disk, d.imap, d.smtp, d.lmtp, d.dkim, d.spf, d.dmarc})
	for _, check := range checks {
		f := check(ctx)
		failed = failed || f.Level == Fail
		report(f)
	}
	return failed
}

type doctor struct {
	cfg  *config.Config
	opts DoctorOptions
	dns  *net.Resolver
}

func (d *doctor) dataDir(context.Context) Finding {
	dir := d.cfg.Data
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Finding{Warn, "data", dir + " does not exist yet; pbemd serve makes it (the unit's StateDirectory does)"}
	case err != nil:
		return Finding{Fail, "data", err.Error()}
	case !fi.IsDir():
		return Finding{Fail, "data", dir + " is not a directory; want the directory of the game data (data:)"}
	}
	perm := fi.Mode().Perm()
	switch {
	case perm&0o002 != 0:
		return Finding{Fail, "data", fmt.Sprintf("%s has mode %04o: anyone may change the game data; want 0700", dir, perm)}
	case perm&0o077 != 0:
		return Finding{Warn, "data", fmt.Sprintf("%s has mode %04o: other users may read the games and the DKIM key; want 0700", dir, perm)}
	}
	return Finding{OK, "data", fmt.Sprintf("%s, %s, mode %04o", dir, ownerOf(fi), perm)}
}

// maxDataEntries bounds the files of the data directory the doctor looks at.
const maxDataEntries = 1000

// owners checks that the files of the data directory are its owner's, as
// the daemon, which runs as that owner, needs to write them.
func (d *doctor) owners(context.Context) Finding {
	dir := d.cfg.Data
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return Finding{Skip, "owners", "no data directory"}
	}
	f, err := os.Open(dir)
	if err != nil {
		return Finding{Fail, "owners", err.Error()}
	}
	entries, err := f.ReadDir(maxDataEntries)
	f.Close()
	if err != nil && !errors.Is(err, io.EOF) { // EOF: an empty directory
		return Finding{Fail, "owners", fmt.Sprintf("%s cannot be listed: %v", dir, err)}
	}
	var wrong []string
	for _, e := range entries {
		efi, err := e.Info()
		if err != nil || !(efi.Mode().IsRegular() || efi.Mode().Type() == fs.ModeSocket) {
			continue
		}
		if !sameOwner(efi, fi) {
			wrong = append(wrong, fmt.Sprintf("%s (%s)", e.Name(), ownerOf(efi)))
		} else if e.Name() == store.FileName && efi.Mode().Perm()&0o200 == 0 {
			wrong = append(wrong, fmt.Sprintf("%s (mode %04o: not writable)", e.Name(), efi.Mode().Perm()))
		}
	}
	if len(wrong) > 0 {
		return Finding{Fail, "owners", fmt.Sprintf("in %s, owned by %s, the daemon (its owner) cannot write %s; chown them to the directory's owner (pbemd restore does so itself)",
			dir, ownerOf(fi), strings.Join(wrong, ", "))}
	}
	return Finding{OK, "owners", fmt.Sprintf("the %d files of %s are its owner's", len(entries), dir)}
}

func (d *doctor) store(context.Context) Finding {
	path := store.PathIn(d.cfg.Data)
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Finding{Warn, "store", "no database at " + path + " yet; pbemd serve makes it"}
	}
	if err != nil {
		return Finding{Fail, "store", err.Error()}
	}
	size := fmt.Sprintf("%.1f MB", float64(fi.Size())/1e6)
	err = store.Check(path)
	if errors.Is(err, store.ErrLocked) {
		v, verr := RunningVersion(d.cfg.Data)
		if verr != nil {
			return Finding{Warn, "store", fmt.Sprintf("%s (%s) is locked by a process that does not answer on %s: %v", path, size, ControlPath(d.cfg.Data), verr)}
		}
		return Finding{OK, "store", fmt.Sprintf("%s (%s) is in use by the running daemon, %s; its pages are checked only with the daemon stopped", path, size, v)}
	}
	if err != nil {
		return Finding{Fail, "store", err.Error()}
	}
	return Finding{OK, "store", fmt.Sprintf("%s (%s): a pbemd store, every page whole", path, size)}
}

// The free space below which the disk check fails, and warns.
const (
	diskFailBytes    = 100 << 20
	diskFailFraction = 0.02
	diskWarnFraction = 0.10
)

func (d *doctor) disk(context.Context) Finding {
	dir := d.cfg.Data
	if _, err := os.Stat(dir); err != nil {
		dir = filepath.Dir(filepath.Clean(dir))
	}
	free, total, err := diskSpace(dir)
	if err != nil {
		return Finding{Skip, "disk", err.Error()}
	}
	frac := float64(free) / float64(max(total, 1))
	line := fmt.Sprintf("%.1f GB free of %.1f GB (%.0f%%) under %s", float64(free)/1e9, float64(total)/1e9, 100*frac, dir)
	switch {
	case free < diskFailBytes || frac < diskFailFraction:
		return Finding{Fail, "disk", line + "; the store stops taking mail when the disk is full"}
	case frac < diskWarnFraction:
		return Finding{Warn, "disk", line}
	}
	return Finding{OK, "disk", line}
}

func (d *doctor) imap(ctx context.Context) Finding {
	if !d.opts.Configured {
		return Finding{Skip, "imap", "no configuration file: the embedded server"}
	}
	if d.cfg.LMTPOnly() {
		return Finding{Skip, "imap", "off: LMTP only (lmtp.listen is set, imap.host is not), no mailbox is read"}
	}
	watch, err := watchConfig(d.cfg)
	if err != nil {
		return Finding{Fail, "imap", err.Error()}
	}
	var cert peerCert
	watch.TLSConfig = cert.watch(watch.TLSConfig)
	ctx, cancel := context.WithTimeout(ctx, d.opts.Timeout)
	defer cancel()
	err = mailbox.New(watch, nil).Check(ctx)
	return d.server("imap", d.cfg.IMAP.Server, err, &cert)
}

func (d *doctor) smtp(ctx context.Context) Finding {
	if !d.opts.Configured {
		return Finding{Skip, "smtp", "no configuration file: the embedded server"}
	}
	conns, err := smtpConns(d.cfg)
	if err != nil {
		return Finding{Fail, "smtp", err.Error()}
	}
	t, _ := smtpOf(conns[0])
	var cert peerCert
	c := *t
	c.TLSConfig = cert.watch(c.TLSConfig)
	ctx, cancel := context.WithTimeout(ctx, d.opts.Timeout)
	defer cancel()
	return d.server("smtp", d.cfg.SMTP.Server, c.Check(ctx), &cert)
}

// server is the finding of a mail server's check: err is what connecting
// and logging in came to, cert the certificate the server showed.
func (d *doctor) server(name string, srv config.Server, err error, cert *peerCert) Finding {
	var invalid x509.CertificateInvalidError
	if errors.As(err, &invalid) && invalid.Reason == x509.Expired && invalid.Cert != nil {
		c := invalid.Cert
		if d.opts.Now.Before(c.NotBefore) {
			return Finding{Fail, name, fmt.Sprintf("the certificate of %s (%s) is not valid before %s; check this machine's clock",
				srv.Addr(), c.Subject.CommonName, c.NotBefore.UTC().Format(time.DateTime))}
		}
		return Finding{Fail, name, fmt.Sprintf("the certificate of %s (%s) ran out on %s; the server must renew it",
			srv.Addr(), c.Subject.CommonName, c.NotAfter.UTC().Format(time.DateOnly))}
	}
	if ferr := fatalStartError(name, srv, err); ferr != nil {
		return Finding{Fail, name, ferr.Error()}
	}
	if err != nil {
		return Finding{Fail, name, fmt.Sprintf("%s cannot be reached: %v; check %s.host, %s.port and %s.security", srv.Addr(), err, name, name, name)}
	}
	line := fmt.Sprintf("%s, logged in as %q", srv.Addr(), srv.Username)
	if srv.Username == "" {
		line = srv.Addr() + ", no login configured"
	}
	leaf := cert.leaf()
	if leaf == nil {
		return Finding{OK, name, line + ", " + string(srv.Security) + ", no certificate"}
	}
	left := leaf.NotAfter.Sub(d.opts.Now)
	line += fmt.Sprintf(", certificate valid until %s", leaf.NotAfter.UTC().Format(time.DateOnly))
	if left < Expiring {
		return Finding{Warn, name, fmt.Sprintf("%s: it runs out in %d days; the server must renew it", line, int(left.Hours()/24))}
	}
	return Finding{OK, name, line}
}

// A peerCert keeps the certificate a server showed in a TLS handshake
// that verified it.
type peerCert struct {
	mu   sync.Mutex
	cert *x509.Certificate
}

// watch returns a copy of c that notes the server's certificate in p.
func (p *peerCert) watch(c *tls.Config) *tls.Config {
	if c == nil {
		c = &tls.Config{}
	}
	c = c.Clone()
	c.VerifyConnection = func(cs tls.ConnectionState) error {
		if len(cs.PeerCertificates) > 0 {
			p.mu.Lock()
			p.cert = cs.PeerCertificates[0]
			p.mu.Unlock()
		}
		return nil
	}
	return c
}

func (p *peerCert) leaf() *x509.Certificate {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cert
}

func (d *doctor) lmtp(ctx context.Context) Finding {
	l := d.cfg.LMTP
	if l.Listen == "" {
		return Finding{Skip, "lmtp", "off (lmtp.listen is not set)"}
	}
	network := "tcp"
	if strings.HasPrefix(l.Listen, "/") {
		network = "unix"
		err := lmtp.CheckSocket(l.Listen, os.FileMode(l.SocketMode), l.SocketGroup)
		if errors.Is(err, fs.ErrNotExist) {
			return Finding{Warn, "lmtp", "no socket at " + l.Listen + ": the daemon is not running"}
		}
		if err != nil {
			return Finding{Fail, "lmtp", err.Error()}
		}
	}
	ctx, cancel := context.WithTimeout(ctx, d.opts.Timeout)
	defer cancel()
	var dialer net.Dialer
	conn, err := dialer.DialContext(ctx, network, l.Listen)
	if err != nil {
		if network == "tcp" && errors.Is(err, errConnRefused) {
			return Finding{Warn, "lmtp", fmt.Sprintf("nothing listens on %s: the daemon is not running", l.Listen)}
		}
		return Finding{Fail, "lmtp", fmt.Sprintf("%s cannot be reached: %v", l.Listen, err)}
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(d.opts.Timeout))
	greeting, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.HasPrefix(greeting, "220") {
		return Finding{Fail, "lmtp", fmt.Sprintf("%s answers no LMTP greeting (%q, %v); is it the daemon's?", l.Listen, strings.TrimSpace(greeting), err)}
	}
	fmt.Fprint(conn, "QUIT\r\n")
	return Finding{OK, "lmtp", l.Listen + " greets"}
}

// lookupTXT asks DNS for the TXT records of name. found is false when the
// name has none; err is set when DNS did not answer.
func (d *doctor) lookupTXT(ctx context.Context, name string) (txts []string, err error) {
	ctx, cancel := context.WithTimeout(ctx, d.opts.Timeout)
	defer cancel()
	txts, err = d.dns.LookupTXT(ctx, name)
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		return nil, nil
	}
	return txts, err
}

// dnsDomain is the domain whose records the doctor checks, or "" when
// there is none to ask DNS about.
func (d *doctor) dnsDomain() string {
	dom := mailauth.Domain(d.cfg.Address)
	if !d.opts.Configured || dom == "" || dom == "localhost" || !strings.Contains(dom, ".") {
		return ""
	}
	return dom
}

func offline(check, name string, err error) Finding {
	return Finding{Warn, check, fmt.Sprintf("DNS did not answer for %s (%v): not checked; offline?", name, err)}
}

func (d *doctor) dkim(ctx context.Context) Finding {
	if !d.opts.Configured {
		return Finding{Skip, "dkim", "no configuration file"}
	}
	if d.cfg.DKIM.Selector == "" {
		return Finding{Warn, "dkim", "the replies are not signed, and many receivers file unsigned mail as spam; \"pbemd dkim\" makes a key"}
	}
	signer, err := d.cfg.Signer()
	if err != nil {
		return Finding{Fail, "dkim", err.Error()}
	}
	want, err := signer.Record()
	if err != nil {
		return Finding{Fail, "dkim", err.Error()}
	}
	name := signer.RecordName()
	txts, err := d.lookupTXT(ctx, name)
	if err != nil {
		return offline("dkim", name, err)
	}
	key := d.cfg.DKIMKeyFile(d.cfg.DKIM.Selector)
	switch {
	case len(txts) == 0:
		return Finding{Fail, "dkim", fmt.Sprintf("%s has no TXT record, so no receiver can verify the signatures; publish: %s", name, want)}
	case len(txts) > 1:
		return Finding{Fail, "dkim", fmt.Sprintf("%s has %d TXT records; want one: %s", name, len(txts), want)}
	case tag(txts[0], "p") != tag(want, "p"):
		return Finding{Fail, "dkim", fmt.Sprintf("%s publishes another key than %s, so the signatures fail; publish: %s", name, key, want)}
	}
	return Finding{OK, "dkim", fmt.Sprintf("%s publishes the key of %s", name, key)}
}

// tag is the value of the tag name in a DKIM or DMARC record ("v=DKIM1;
// k=rsa; p=..."), without spaces.
func tag(record, name string) string {
	for part := range strings.SplitSeq(record, ";") {
		k, v, ok := strings.Cut(part, "=")
		if ok && strings.TrimSpace(k) == name {
			return strings.Join(strings.Fields(v), "")
		}
	}
	return ""
}

// records are the TXT records of name that begin with the version tag
// (case aside), as RFC 7208 4.5 and RFC 7489 6.6.3 select them.
func records(txts []string, version string) []string {
	var out []string
	for _, t := range txts {
		if len(t) >= len(version) && strings.EqualFold(t[:len(version)], version) &&
			(len(t) == len(version) || t[len(version)] == ' ' || t[len(version)] == ';') {
			out = append(out, t)
		}
	}
	return out
}

func (d *doctor) spf(ctx context.Context) Finding {
	return d.policy(ctx, "spf", "", "v=spf1",
		"has no SPF record (TXT \"v=spf1 ...\"): receivers cannot tell the SMTP server may send its mail",
		"which RFC 7208 (4.5) makes an error for every receiver; merge them into one")
}

func (d *doctor) dmarc(ctx context.Context) Finding {
	return d.policy(ctx, "dmarc", "_dmarc.", "v=DMARC1",
		"has no DMARC record (TXT \"v=DMARC1; p=none\" at least): large receivers ask for one",
		"which receivers ignore all (RFC 7489 6.6.3): keep one")
}

// policy checks the one record of a sending policy (SPF, DMARC) that the
// address's domain publishes at prefix+domain, beginning with version:
// none is a warning (missing says why it matters), several a failure
// (several says what receivers make of them).
func (d *doctor) policy(ctx context.Context, check, prefix, version, missing, several string) Finding {
	dom := d.dnsDomain()
	if dom == "" {
		return Finding{Skip, check, "no public domain in the address"}
	}
	name := prefix + dom
	txts, err := d.lookupTXT(ctx, name)
	if err != nil {
		return offline(check, name, err)
	}
	found := records(txts, version)
	switch len(found) {
	case 0:
		return Finding{Warn, check, name + " " + missing}
	case 1:
		return Finding{OK, check, fmt.Sprintf("%s: %s", name, found[0])}
	}
	return Finding{Fail, check, fmt.Sprintf("%s has %d %s records, %s", name, len(found), strings.ToUpper(check), several)}
}
