package config

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/mailauth"
)

// Service returns the service's part of the configuration, for every
// program that runs the service: pbemd serve, deliver, sweep and the rest.
// Hooks for counters (pbem.Config.OnMoves) are the caller's to add.
func (c *Config) Service(log *slog.Logger) pbem.Config {
	key, err := c.PasswordKey()
	if err != nil && log != nil {
		// The verifiers only spare bcrypt work; without them every
		// password is still checked, by bcrypt after each start.
		log.Warn("password verifiers are off", "err", err)
	}
	return pbem.Config{Address: c.Address, Name: c.Name, Log: log,
		PublicURL: c.PublicURL, ReplyAddress: c.ReplyAddress,
		Limits: c.Limits.Service(), Mail: c.Limits.Mail(),
		RobotJoin: c.Robots.Join, Auth: c.Verifier(), Admins: c.Admins,
		Bounces:     pbem.Bounces{ReturnPath: c.Bounces.ReturnPath, PauseAfter: c.Bounces.PauseAfter},
		PasswordKey: key}
}

// Verifier returns what tells the service which mails their From domain
// vouches for: the trusted servers' Authentication-Results, and with
// verify_dkim the signatures checked here.
func (c *Config) Verifier() *mailauth.Verifier {
	v := &mailauth.Verifier{TrustedIDs: c.TrustedAuthservIDs, Timeout: c.DKIMTimeout}
	if c.VerifyDKIM {
		v.Resolver = c.Resolver()
	}
	return v
}

// Resolver is the DNS resolver of DKIM keys (and of "pbemd doctor"'s
// records): the server dkim_resolver names, else the system's.
func (c *Config) Resolver() *net.Resolver {
	if c.DKIMResolver == "" {
		return net.DefaultResolver
	}
	addr := c.DKIMResolver
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}}
}

// DKIM is the key that signs the server's outgoing mail.
type DKIM struct {
	Domain   string `yaml:"domain"`   // the d= of the signatures: the domain of address
	Selector string `yaml:"selector"` // its key's record is SELECTOR._domainkey.DOMAIN
	// KeyFile is the PEM private key; default DATA/dkim-SELECTOR.pem,
	// where "pbemd dkim" writes it.
	KeyFile string `yaml:"key_file"`
}

// DKIMKeyFile is the key file of a selector: the configured one, or the
// file "pbemd dkim" writes in the data directory.
func (c *Config) DKIMKeyFile(selector string) string {
	if c.DKIM.KeyFile != "" {
		return c.DKIM.KeyFile
	}
	return filepath.Join(c.Data, "dkim-"+selector+".pem")
}

// Signer returns the DKIM signer of the outgoing mail, nil when the
// configuration signs none; an error when its key cannot be read.
func (c *Config) Signer() (*mailauth.Signer, error) {
	if c.DKIM.Selector == "" {
		return nil, nil
	}
	key, err := mailauth.LoadKey(c.DKIMKeyFile(c.DKIM.Selector))
	if err != nil {
		return nil, fmt.Errorf("dkim.key_file: %w", err)
	}
	return &mailauth.Signer{Domain: c.DKIM.Domain, Selector: c.DKIM.Selector, Key: key}, nil
}

// validateAuth checks trusted_authserv_ids, dkim_timeout, dkim_resolver
// and dkim.
func (c *Config) validateAuth() error {
	if d := c.DKIM; d.Domain != "" || d.Selector != "" || d.KeyFile != "" {
		if d.Domain == "" || d.Selector == "" || strings.ContainsAny(d.Domain+d.Selector, " \t;/") {
			return fmt.Errorf("dkim: want both domain and selector, e.g. domain: example.org and selector: pbemd1 (pbemd dkim prints them)")
		}
		if _, dom, _ := strings.Cut(c.Address, "@"); !mailauth.Aligned(d.Domain, dom) {
			return fmt.Errorf("dkim.domain %s does not vouch for the address %s; want its domain or its organizational domain", d.Domain, c.Address)
		}
	}
	for _, id := range c.TrustedAuthservIDs {
		// RFC 8601, section 2.5: in practice the host name of the
		// server that writes the field; a space or ';' would end it.
		if id == "" || len(id) > 255 || strings.ContainsAny(id, " \t\r\n;()\"\\") {
			return fmt.Errorf("trusted_authserv_ids: %q is not an authserv-id; want the name your MTA writes first in its Authentication-Results, e.g. mx.example.org", id)
		}
	}
	if c.DKIMTimeout < 100*time.Millisecond || c.DKIMTimeout > time.Minute {
		return fmt.Errorf("dkim_timeout is %v; want 100ms to 1m", c.DKIMTimeout)
	}
	if c.DKIMResolver != "" {
		host, port, err := net.SplitHostPort(c.DKIMResolver)
		if n, perr := strconv.Atoi(port); err != nil || host == "" || perr != nil || n < 1 || n > 65535 {
			return fmt.Errorf("dkim_resolver %q is not host:port of a DNS server, e.g. 127.0.0.1:53", c.DKIMResolver)
		}
	}
	return nil
}
