package daemon

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/mailbox"
	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/pbem/outbox"
)

// checkTimeout bounds each server's check at start.
const checkTimeout = 30 * time.Second

// checkServers logs in to the IMAP and SMTP servers once before the daemon
// starts; to SMTP alone when w is nil, for mail comes only over LMTP. A
// login refused or a certificate not trusted stops the start with the
// setting to fix: no retry would mend them. A server that cannot be
// reached now is only logged: it may come up, and the daemon retries it
// as it retries any lost connection.
func checkServers(ctx context.Context, cfg *config.Config, w *mailbox.Watcher, smtpT *outbox.SMTP, log *slog.Logger) error {
	if w != nil {
		if err := checkServer(ctx, "imap", cfg.IMAP.Server, w.Check, "IMAP server not reachable at start; retrying", log); err != nil {
			return err
		}
	}
	return checkServer(ctx, "smtp", cfg.SMTP.Server, smtpT.Check, "SMTP server not reachable at start; replies wait in the outbox", log)
}

// checkServer runs the check of the server called name within
// checkTimeout: a fault no retry mends is returned, another is logged
// with the warning unreachable.
func checkServer(ctx context.Context, name string, srv config.Server, check func(context.Context) error, unreachable string, log *slog.Logger) error {
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	err := check(ctx)
	cancel()
	if err := fatalStartError(name, srv, err); err != nil {
		return err
	}
	if err != nil {
		log.Warn(unreachable, "addr", srv.Addr(), "err", err)
	}
	return nil
}

// fatalStartError says which settings to fix when err is a refused login
// or an untrusted certificate of the server called name, or returns nil.
func fatalStartError(name string, srv config.Server, err error) error {
	if err == nil {
		return nil
	}
	var unknown x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	if errors.As(err, &unknown) || errors.As(err, &hostname) || errors.As(err, &invalid) || errors.As(err, &verify) {
		return fmt.Errorf("%s: the certificate of %s is not trusted (%v); set %s.ca_file to the certificate of the authority that signed it, or %s.host to the name the certificate is for",
			name, srv.Addr(), err, name, name)
	}
	var login *mailconn.LoginError
	if errors.As(err, &login) {
		return fmt.Errorf("%s: %s refused the login of %q (%v); fix %s.username and the password (%s.password_env or %s.password)",
			name, srv.Addr(), srv.Username, err, name, name, name)
	}
	return nil
}
