package mailconn

// A LoginError is a server's refusal of the login: a wrong user name or
// password, which no retry mends. IMAP and SMTP clients return it so that
// a daemon can stop at start with the setting to fix.
type LoginError struct{ Err error }

func (e *LoginError) Error() string { return e.Err.Error() }
func (e *LoginError) Unwrap() error { return e.Err }
