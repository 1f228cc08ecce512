package mailbox

import (
	"context"
	"fmt"

	"github.com/pbemd/pbemd/pbem/mailconn"
)

// Check connects, logs in and logs out once, so that a daemon can refuse
// to start with settings that cannot work. A refused login is a
// *mailconn.LoginError; a certificate the TLS settings do not trust shows as the
// crypto/x509 or crypto/tls error it is.
func (w *Watcher) Check(ctx context.Context) error {
	c, err := w.dial(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	defer mailconn.CloseOnStop(ctx, c, stopGrace)()
	if err := c.WaitGreeting(); err != nil {
		return err
	}
	if err := c.Login(w.cfg.Username, w.cfg.Password).Wait(); err != nil {
		return &mailconn.LoginError{Err: fmt.Errorf("login as %s: %w", w.cfg.Username, err)}
	}
	return c.Logout().Wait()
}
