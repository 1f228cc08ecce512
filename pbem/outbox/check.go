package outbox

import "context"

// A LoginError is the server's refusal of the login: a wrong user name or
// password, which no retry mends.
type LoginError struct{ Err error }

func (e *LoginError) Error() string { return e.Err.Error() }
func (e *LoginError) Unwrap() error { return e.Err }

// Check connects, secures the connection and logs in once, then quits, so
// that a daemon can refuse to start with settings that cannot work. A
// refused login is a *LoginError; an untrusted certificate shows as
// the crypto/x509 or crypto/tls error it is.
func (s *SMTP) Check(ctx context.Context) error {
	c, err := s.dial(ctx)
	if err != nil {
		return err
	}
	return c.Quit()
}
