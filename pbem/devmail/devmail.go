// Package devmail is the embedded mail server of `pbemd serve` without a
// configuration: a small IMAP server and SMTP server on the loopback
// interface, so that anyone can try pbemd with an ordinary mail client and
// no mail account.
//
// Every address is a local mailbox, created on its first mail or login.
// Players log in over IMAP with their address as user name and the shared
// password; the game server's own address has a password of its own, so
// players cannot read its mail. Mail sent to the SMTP server, and replies
// handed to Send, land in the recipients' INBOX. Mailboxes live in memory
// and are gone when the process ends; nothing ever leaves the machine.
//
// Sending needs no login, but only a sender who logged in to the SMTP
// server as the mail's From address is vouched for: such a mail carries
// the server's Authentication-Results field with AuthservID (RFC 8601),
// which the game server trusts. Any such field a mail brings is removed.
package devmail

import (
	"bytes"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/pbemd/pbemd/pbem/mailauth"
	"github.com/pbemd/pbemd/pbem/mailconn"
	"github.com/pbemd/pbemd/pbem/outbox"
)

// DefaultPassword is the players' password unless Options says otherwise.
const DefaultPassword = "pbem"

// AuthservID is the authserv-id of the Authentication-Results fields the
// server writes (RFC 8601, section 2.5).
const AuthservID = "devmail.localhost"

// Options set up a Server. Zero values take the defaults noted.
type Options struct {
	IMAPAddr string // default 127.0.0.1:1143
	SMTPAddr string // default 127.0.0.1:1587
	Password string // the players' shared password; default DefaultPassword
	// MaxMessageBytes bounds one mail; default 10 MiB.
	MaxMessageBytes int64
}

// A Server is a running pair of IMAP and SMTP servers.
type Server struct {
	IMAPAddr string // where the IMAP server listens, host:port
	SMTPAddr string // where the SMTP server listens, host:port

	password string
	imap     *imapserver.Server
	smtp     *smtp.Server
	imapLn   net.Listener
	smtpLn   net.Listener
	serving  sync.WaitGroup // the two Serve loops

	mu       sync.Mutex
	users    map[string]*imapmemserver.User // by lower-case address
	accounts map[string]string              // lower-case address -> own password
}

// Start listens on both addresses and serves until Close. The addresses
// must be loopback addresses: the servers have no TLS and a shared password.
func Start(opts Options) (*Server, error) {
	if opts.IMAPAddr == "" {
		opts.IMAPAddr = "127.0.0.1:1143"
	}
	if opts.SMTPAddr == "" {
		opts.SMTPAddr = "127.0.0.1:1587"
	}
	if opts.Password == "" {
		opts.Password = DefaultPassword
	}
	if opts.MaxMessageBytes <= 0 {
		opts.MaxMessageBytes = 10 << 20
	}
	for _, a := range []string{opts.IMAPAddr, opts.SMTPAddr} {
		host, _, err := net.SplitHostPort(a)
		if err != nil {
			return nil, err
		}
		if !mailconn.IsLoopback(host) {
			return nil, fmt.Errorf("embedded mail server address %s is not a loopback address; it has no TLS, so use e.g. 127.0.0.1:1143", a)
		}
	}
	s := &Server{
		password: opts.Password,
		users:    map[string]*imapmemserver.User{},
		accounts: map[string]string{},
	}
	var err error
	if s.imapLn, err = net.Listen("tcp", opts.IMAPAddr); err != nil {
		return nil, fmt.Errorf("embedded IMAP server: %w", err)
	}
	if s.smtpLn, err = net.Listen("tcp", opts.SMTPAddr); err != nil {
		s.imapLn.Close()
		return nil, fmt.Errorf("embedded SMTP server: %w", err)
	}
	s.IMAPAddr = s.imapLn.Addr().String()
	s.SMTPAddr = s.smtpLn.Addr().String()

	s.imap = imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &imapSession{srv: s}, nil, nil
		},
		Caps:         imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}},
		InsecureAuth: true, // loopback only, checked above
		Logger:       discard{},
	})
	s.smtp = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &smtpSession{srv: s}, nil
	}))
	s.smtp.Domain = "localhost"
	s.smtp.MaxMessageBytes = opts.MaxMessageBytes
	s.smtp.MaxRecipients = 100
	s.smtp.AllowInsecureAuth = true // loopback only
	s.smtp.ReadTimeout = 5 * time.Minute
	s.smtp.WriteTimeout = time.Minute
	s.smtp.ErrorLog = discard{}
	s.serving.Go(func() { s.imap.Serve(s.imapLn) })
	s.serving.Go(func() { s.smtp.Serve(s.smtpLn) })
	return s, nil
}

type discard struct{}

func (discard) Printf(string, ...any) {}
func (discard) Println(...any)        {}

// Close stops both servers. The mailboxes are lost.
func (s *Server) Close() error {
	// Closed listeners end the Serve loops. Wait for them before the
	// servers' Close: the IMAP server counts its Serve loops in a
	// WaitGroup that its Close waits on, and a loop only just starting
	// would add to it while Close waits, a data race.
	s.imapLn.Close()
	s.smtpLn.Close()
	s.serving.Wait()
	return errors.Join(s.imap.Close(), s.smtp.Close())
}

// AddAccount gives address a password of its own instead of the shared
// one; used for the game server's mailbox.
func (s *Server) AddAccount(address, password string) {
	s.mu.Lock()
	s.accounts[strings.ToLower(address)] = password
	s.mu.Unlock()
	s.user(address)
}

// user returns the mailbox of address, creating it when needed.
func (s *Server) user(address string) *imapmemserver.User {
	key := strings.ToLower(address)
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[key]
	if u == nil {
		// The memserver's own password check is not used: login goes
		// through Server.login.
		u = imapmemserver.NewUser(key, "")
		u.Create("INBOX", nil)
		s.users[key] = u
	}
	return u
}

// login checks a password and returns the user's mailbox.
func (s *Server) login(username, password string) (*imapmemserver.User, error) {
	if !validAddress(username) {
		return nil, imapserver.ErrAuthFailed
	}
	s.mu.Lock()
	want, own := s.accounts[strings.ToLower(username)]
	s.mu.Unlock()
	if !own {
		want = s.password
	}
	if subtle.ConstantTimeCompare([]byte(password), []byte(want)) != 1 {
		return nil, imapserver.ErrAuthFailed
	}
	return s.user(username), nil
}

// validAddress reports whether a looks like local@domain.
func validAddress(a string) bool {
	at := strings.LastIndexByte(a, '@')
	return at > 0 && at < len(a)-1 && !strings.ContainsAny(a, " \t\r\n<>")
}

// Deliver puts a mail into the INBOX of each recipient, with a
// Return-Path line holding the envelope sender as a delivering MTA writes,
// and without any Authentication-Results field claiming AuthservID.
func (s *Server) Deliver(from string, to []string, data []byte) error {
	return s.deliver(from, to, data, "")
}

// deliver is Deliver for a mail submitted by a sender logged in as user
// ("" for none): when user is the mail's From address, the server says so
// in its Authentication-Results field.
func (s *Server) deliver(from string, to []string, data []byte, user string) error {
	for _, rcpt := range to {
		if !validAddress(rcpt) {
			return fmt.Errorf("recipient %q is not an address like alice@localhost", rcpt)
		}
	}
	data = mailauth.StripResults(data, AuthservID)
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "Return-Path: <%s>\r\n", from)
	if sender, err := mailauth.Sender(data); user != "" && err == nil && strings.EqualFold(sender, user) {
		buf.WriteString(mailauth.SubmittedField(AuthservID, strings.ToLower(user)))
	}
	buf.Write(data)
	now := time.Now()
	for _, rcpt := range to {
		_, err := s.user(rcpt).Append("INBOX", bytes.NewReader(buf.Bytes()), &imap.AppendOptions{Time: now})
		if err != nil {
			return fmt.Errorf("deliver to %s: %w", rcpt, err)
		}
	}
	return nil
}

// Transport returns a transport for the outbox that delivers locally.
func (s *Server) Transport() *Transport { return &Transport{s} }

// Transport delivers outgoing mail into the local mailboxes.
type Transport struct{ s *Server }

// Send delivers the mail. It fails only for a malformed recipient, which
// would fail the same way every time, so the failure is permanent.
func (t *Transport) Send(_ context.Context, from string, to []string, data []byte) error {
	if err := t.s.Deliver(from, to, data); err != nil {
		return &outbox.RejectedError{Err: err}
	}
	return nil
}

// Close does nothing: there is no connection.
func (t *Transport) Close() error { return nil }

// imapSession is a memserver session whose login creates mailboxes.
type imapSession struct {
	*imapmemserver.UserSession // nil until login
	srv                        *Server
}

func (ss *imapSession) Login(username, password string) error {
	u, err := ss.srv.login(username, password)
	if err != nil {
		return err
	}
	ss.UserSession = imapmemserver.NewUserSession(u)
	return nil
}

// Idle first sends the updates queued since the last command: the
// memserver's own Idle waits only for new ones, so a mail appended between
// a client's SEARCH and its IDLE would otherwise go unannounced until the
// next mail. (A window of microseconds remains between the two calls;
// the daemon's bounded IDLE covers it.)
func (ss *imapSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	if err := ss.UserSession.Poll(w, true); err != nil {
		return err
	}
	return ss.UserSession.Idle(w, stop)
}

type smtpSession struct {
	srv  *Server
	user string // the address logged in as, or ""
	from string
	to   []string
}

func (ss *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain} }

// Auth accepts any address with its password. Sending needs no login,
// but only a logged-in sender's mail is vouched for.
func (ss *smtpSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if identity != "" && !strings.EqualFold(identity, username) {
			// Acting for another address is what the login is to prevent.
			return imapserver.ErrAuthFailed
		}
		if _, err := ss.srv.login(username, password); err != nil {
			return err
		}
		ss.user = username
		return nil
	}), nil
}

func (ss *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	ss.from = from
	return nil
}

func (ss *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if !validAddress(to) {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 3},
			Message: "want a recipient address like alice@localhost"}
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *smtpSession) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	return ss.srv.deliver(ss.from, ss.to, data, ss.user)
}

func (ss *smtpSession) Reset() {
	ss.from = ""
	ss.to = nil
}

func (ss *smtpSession) Logout() error { return nil }
