package outbox

import "context"

// Check connects, secures the connection and logs in once, then quits, so
// that a daemon can refuse to start with settings that cannot work. A
// refused login is a *mailconn.LoginError; an untrusted certificate shows as
// the crypto/x509 or crypto/tls error it is.
func (s *SMTP) Check(ctx context.Context) error {
	c, err := s.dial(ctx)
	if err != nil {
		return err
	}
	return c.quit()
}
