// Package config reads the YAML configuration of pbemd serve.
//
// Every setting has a safe default, unknown keys are refused (a typo must
// not silently fall back to a default), passwords may come from environment
// variables, and a transport that would send a password in clear text to
// anything but the loopback interface is refused before anything connects.
package config

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/mail"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pbemd/pbemd/pbem/mailconn"
	"go.yaml.in/yaml/v3"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/pbem/tournament"
)

// Secret is a password. It prints and logs as "[redacted]" so that a
// config dumped into a log line or an error never shows it.
type Secret string

func (Secret) String() string               { return "[redacted]" }
func (Secret) GoString() string             { return "[redacted]" }
func (Secret) LogValue() slog.Value         { return slog.StringValue("[redacted]") }
func (s Secret) Reveal() string             { return string(s) }
func (Secret) MarshalText() ([]byte, error) { return []byte("[redacted]"), nil }

// Server is the connection to one mail server, IMAP or SMTP.
type Server struct {
	Host     string            `yaml:"host"`
	Port     int               `yaml:"port"`     // 0: the standard port of Security
	Security mailconn.Security `yaml:"security"` // tls, starttls or plain
	// CAFile is a PEM file of certificate authorities to trust instead of
	// the system's, for a server with a private certificate.
	CAFile      string `yaml:"ca_file"`
	Username    string `yaml:"username"`
	Password    Secret `yaml:"password"`     // discouraged: prefer PasswordEnv
	PasswordEnv string `yaml:"password_env"` // name of the environment variable holding the password
}

// Addr returns host:port.
func (s *Server) Addr() string {
	return net.JoinHostPort(s.Host, strconv.Itoa(s.Port))
}

// TLSConfig returns the TLS settings for the server: its host name for
// verification and, with CAFile, the authorities to trust.
func (s *Server) TLSConfig() (*tls.Config, error) {
	c := &tls.Config{ServerName: s.Host, MinVersion: tls.VersionTLS12}
	if s.CAFile != "" {
		pem, err := os.ReadFile(s.CAFile)
		if err != nil {
			return nil, err
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%s holds no PEM certificate", s.CAFile)
		}
		c.RootCAs = pool
	}
	return c, nil
}

// IMAP is the mailbox the daemon reads commands from.
type IMAP struct {
	Server `yaml:",inline"`
	// Mailbox is the folder watched for new mail.
	Mailbox string `yaml:"mailbox"`
	// DoneFolder receives each mail once it has been handled; created when missing.
	DoneFolder string `yaml:"done_folder"`
	// QuarantineFolder receives each mail that will not be handled (too
	// large, crashed the server, kept failing) once it has been answered;
	// created when missing.
	QuarantineFolder string `yaml:"quarantine_folder"`
	// Batch is how many mails are fetched in one round trip and
	// committed in one transaction, and BatchBytes how many bytes they
	// may have together (a single larger mail, up to
	// limits.largest_mail, is fetched alone). A backlog drains a third
	// faster at 500 a batch than at 100 (BENCHMARKS.md, "scale").
	Batch      int   `yaml:"batch"`
	BatchBytes int64 `yaml:"batch_bytes"`
	// PollInterval is how often the mailbox is checked when the server
	// lacks IDLE.
	PollInterval time.Duration `yaml:"poll_interval"`
	// IdleTimeout bounds one IDLE command; RFC 2177 asks clients to
	// re-issue it before the server's 30-minute inactivity timer.
	IdleTimeout time.Duration `yaml:"idle_timeout"`
	// BackoffMin and BackoffMax bound the wait before reconnecting after
	// a lost connection; the wait doubles from min up to max.
	BackoffMin time.Duration `yaml:"backoff_min"`
	BackoffMax time.Duration `yaml:"backoff_max"`
}

// SMTP is the submission server the replies are sent through.
type SMTP struct {
	Server `yaml:",inline"`
	// RetryMin and RetryMax bound the wait after a temporary failure of
	// one reply (4xx), which doubles with each attempt of that reply, and
	// the pause of all sending after a failed connection.
	RetryMin time.Duration `yaml:"retry_min"`
	RetryMax time.Duration `yaml:"retry_max"`
	// GiveUpAfter is how long after its first failure a reply that keeps
	// failing temporarily is given up. A reply given up, like one refused
	// permanently (5xx), is logged as an error and kept in the store's
	// failed mail, never silently dropped.
	GiveUpAfter time.Duration `yaml:"give_up_after"`
	// Connections is how many connections the replies go over at once
	// (1 to MaxSMTPConnections); each player's replies go through one,
	// in order. A server that takes fewer still gets all the replies,
	// over those it takes.
	Connections int `yaml:"connections"`
}

// MaxSMTPConnections bounds smtp.connections: more would gain little on a
// submission server and look like abuse to it.
const MaxSMTPConnections = 32

// Limits bound what one mail, one sender address, one account and strangers
// as a whole may cost (pbem.Limits says each in full). The counts are kept in
// the store, so the daemon, pbemd deliver and restarts share them.
type Limits struct {
	// LargestMail is the size in bytes of the largest mail read; a larger
	// one is answered from its header and set aside.
	LargestMail int64 `yaml:"largest_mail"`

	Mails        int `yaml:"mails"`         // commands per sender and window
	Reads        int `yaml:"reads"`         // reading commands (help, show, lists) per sender and window
	Signups      int `yaml:"signups"`       // accounts made per window by mail that proves nothing, and apart by authenticated mail
	Invitations  int `yaml:"invitations"`   // invitations per sender and window, and per player in three days
	BadPasswords int `yaml:"bad_passwords"` // wrong passwords per sender, and per account, and window
	// ForeignBadPasswords: wrong passwords from addresses not the account's, all together, per window.
	ForeignBadPasswords int           `yaml:"foreign_bad_passwords"`
	Window              time.Duration `yaml:"window"`
	Strangers           int           `yaml:"strangers"`     // mails to addresses of no user per window, in all
	Addresses           int           `yaml:"addresses"`     // addresses per account
	Commands            int           `yaml:"commands"`      // commands run per multiple mail
	Recipients          int           `yaml:"recipients"`    // users one message reaches
	MessageBytes        int           `yaml:"message_bytes"` // largest text a message relays
	Watchers            int           `yaml:"watchers"`      // subscribers of a board, and users asking for every board of a game
	RobotGames          int           `yaml:"robot_games"`   // active games of one player with one robot
	// Answers to mail whose From is not authenticated, in bytes: per mail,
	// per address and window, all such senders together per window.
	AnswerBytes        int `yaml:"answer_bytes"`
	AddressAnswerBytes int `yaml:"address_answer_bytes"`
	AllAnswerBytes     int `yaml:"all_answer_bytes"`
	// Repeats: how long a refused mail is remembered, so that the same
	// mail again from the same sender is not answered again.
	Repeats time.Duration `yaml:"repeats"`
	// KeepQuarantined: how long a mail set aside in the store, and the
	// count of a mail's failed tries, are kept.
	KeepQuarantined time.Duration `yaml:"keep_quarantined"`
	QuarantineBytes int64         `yaml:"quarantine_bytes"` // the quarantined mails together
	// TournamentEntrants: the most players of a tournament; Tournaments:
	// tournaments not over one player may organise.
	TournamentEntrants int `yaml:"tournament_entrants"`
	Tournaments        int `yaml:"tournaments"`
}

// defaultLimits are the service's own defaults.
func defaultLimits() Limits {
	d := pbem.DefaultLimits()
	return Limits{LargestMail: 10 << 20, Mails: d.Mails, Reads: d.Reads, Signups: d.Signups, Invitations: d.Invitations,
		BadPasswords: d.BadPasswords, ForeignBadPasswords: d.ForeignBadPasswords, Window: d.Window, Strangers: d.Strangers,
		Addresses: d.Addresses, Commands: d.Commands, Recipients: d.Recipients, MessageBytes: d.MessageBytes, Watchers: d.Watchers,
		RobotGames: d.RobotGames, AnswerBytes: d.AnswerBytes, AddressAnswerBytes: d.AddressAnswerBytes, AllAnswerBytes: d.AllAnswerBytes,
		Repeats: d.Repeats, KeepQuarantined: d.KeepQuarantined, QuarantineBytes: d.QuarantineBytes,
		TournamentEntrants: d.TournamentEntrants, Tournaments: d.Tournaments}
}

// Service returns the limits as the service takes them.
func (l Limits) Service() pbem.Limits {
	return pbem.Limits{Mails: l.Mails, Reads: l.Reads, Signups: l.Signups, Invitations: l.Invitations,
		BadPasswords: l.BadPasswords, ForeignBadPasswords: l.ForeignBadPasswords, Window: l.Window, Strangers: l.Strangers,
		Addresses: l.Addresses, Commands: l.Commands, Recipients: l.Recipients, MessageBytes: l.MessageBytes, Watchers: l.Watchers,
		RobotGames: l.RobotGames, AnswerBytes: l.AnswerBytes, AddressAnswerBytes: l.AddressAnswerBytes, AllAnswerBytes: l.AllAnswerBytes,
		Repeats: l.Repeats, KeepQuarantined: l.KeepQuarantined, QuarantineBytes: l.QuarantineBytes,
		TournamentEntrants: l.TournamentEntrants, Tournaments: l.Tournaments}
}

// Mail returns the bounds of reading one mail as the service takes them.
func (l Limits) Mail() mailmsg.Limits { return mailmsg.Limits{MaxMailBytes: l.LargestMail} }

// Robots are the computer players the daemon runs.
type Robots struct {
	// MoveTime is how long a robot thinks about one move.
	MoveTime time.Duration `yaml:"move_time"`
	// Join lets a player waiting on an open seat ask a robot to take it.
	Join bool `yaml:"join"`
}

// Log chooses how the daemon logs (to standard error).
type Log struct {
	Level  string `yaml:"level"`  // debug, info, warn or error
	Format string `yaml:"format"` // text or json
}

// Config is the whole configuration of pbemd serve.
type Config struct {
	// Address is the address players mail; replies come from it.
	Address string `yaml:"address"`
	// Name is the display name in the From of replies.
	Name string `yaml:"name"`
	// Data is the directory of the game data.
	Data string `yaml:"data"`
	IMAP IMAP   `yaml:"imap"`
	SMTP SMTP   `yaml:"smtp"`
	// Limits per sender address.
	Limits Limits `yaml:"limits"`
	// SweepInterval is how often reminders and forfeits are checked.
	SweepInterval time.Duration `yaml:"sweep_interval"`
	// Metrics is the host:port serving the daemon's metrics (pbem/metrics)
	// in Prometheus's text format at /metrics, apart from the web view;
	// ":port" is on the loopback interface; empty means off.
	Metrics string `yaml:"metrics"`
	// LMTP is where and how an MTA hands mail to the daemon over LMTP,
	// beside the IMAP mailbox or, without imap.host, instead of it
	// (LMTPOnly).
	LMTP LMTP `yaml:"lmtp"`
	Log  Log  `yaml:"log"`
	// HTTP is the host:port of the read-only web view of the games, or
	// "off". Left out, the view listens on DefaultHTTP, or on a free
	// loopback port when another program holds that; an address written
	// here must be free, even DefaultHTTP itself.
	HTTP string `yaml:"http"`
	// PublicURL is where players reach the web view, e.g.
	// https://pbem.example.org; when set, board mails link to their board.
	PublicURL string `yaml:"public_url"`
	// ReplyAddress, when set, is the Reply-To of board mails to players:
	// an address of the server's mailbox with {token} in its local part,
	// e.g. pbem+{token}@example.org.
	ReplyAddress string `yaml:"reply_address"`
	Robots       Robots `yaml:"robots"`
	// DKIM, when set, signs every mail the server sends (see DKIM).
	DKIM DKIM `yaml:"dkim"`

	// TrustedAuthservIDs are the authserv-ids (RFC 8601) whose
	// Authentication-Results fields are believed: the operator's own MTA
	// or mail provider, which must remove such fields carrying its id
	// from the mail it receives. See docs/trust.md.
	TrustedAuthservIDs []string `yaml:"trusted_authserv_ids"`
	// VerifyDKIM has pbemd check the DKIM signatures of the mail itself,
	// asking DNS for the keys, each mail's lookups within DKIMTimeout.
	VerifyDKIM  bool          `yaml:"verify_dkim"`
	DKIMTimeout time.Duration `yaml:"dkim_timeout"`
	// DKIMResolver is the host:port of the DNS server asked for DKIM
	// keys; empty means the system's resolver.
	DKIMResolver string `yaml:"dkim_resolver"`

	// Bounces is the return path of the server's mail and what its
	// bounces do (see Bounces).
	Bounces Bounces `yaml:"bounces"`
	// Admins are the user ids that may mail "broadcast" to every player
	// (with their password, from a domain that signs its mail).
	Admins []string `yaml:"admins"`
	// PasswordKeyFile holds the key of the password verifiers (see
	// PasswordKey); default DATA/password.key, made at the first start.
	PasswordKeyFile string `yaml:"password_key_file"`
	// Pprof serves Go's profiler (net/http/pprof) at /debug/pprof/ on the
	// metrics listener, to profile the daemon under a load; only on a
	// loopback metrics address, as a profile shows the daemon's memory.
	// Off by default.
	Pprof bool `yaml:"pprof"`
	// Store is where the games are kept: empty for the bbolt file in
	// Data, or etcd://HOST:PORT[,HOST:PORT...][/PREFIX] for an etcd
	// cluster reached as Etcd says (docs/scaling.md, "etcd engine").
	Store string `yaml:"store"`
	Etcd  Etcd   `yaml:"etcd"`
}

// LMTP is the listener an MTA hands mail to. In the file it is either
// the address alone ("lmtp: 127.0.0.1:2424") or a mapping of the fields.
type LMTP struct {
	// Listen is a loopback host:port (LMTP has no login) or the path of
	// a Unix socket; empty means off.
	Listen string `yaml:"listen"`
	// SocketMode is the permission bits of the Unix socket, in octal;
	// default 0660, so that the MTA's group may connect.
	SocketMode FileMode `yaml:"socket_mode"`
	// SocketGroup is the group of the Unix socket, a name or a number;
	// empty means "postfix" where that group exists, else the process's.
	SocketGroup string `yaml:"socket_group"`
	// Connections is the most sessions at once, and ConnectionsPerPeer
	// the most of one peer (a remote address, or a user id on the Unix
	// socket; 0: three quarters of Connections). A new connection always
	// finds a slot: the session idle longest makes room.
	Connections        int `yaml:"connections"`
	ConnectionsPerPeer int `yaml:"connections_per_peer"`
	// IdleTimeout ends a session that gets on with no mail (MAIL, RCPT,
	// DATA) for that long; NOOP, RSET and LHLO do not count.
	IdleTimeout time.Duration `yaml:"idle_timeout"`
}

// LMTPSpool is the directory where the LMTP listener keeps the mails it
// acknowledged until they are handled: lmtp-spool in the data directory.
// With the store in etcd there is none ("") and a mail is acknowledged
// once handled: a node's spool would hold mail while that node is down,
// and the next mail of a board, through another node, would overtake it.
func (c *Config) LMTPSpool() string {
	if c.Store != "" {
		return ""
	}
	return filepath.Join(c.Data, "lmtp-spool")
}

// UnmarshalYAML takes the address alone as well as the mapping.
func (l *LMTP) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		l.Listen = n.Value
		return nil
	}
	type plain LMTP // without this method
	dec := plain(*l)
	if err := n.Decode(&dec); err != nil {
		return err
	}
	*l = LMTP(dec)
	return nil
}

// FileMode is permission bits, written in octal ("0660").
type FileMode os.FileMode

func (m *FileMode) UnmarshalYAML(n *yaml.Node) error {
	v, err := strconv.ParseUint(strings.TrimPrefix(n.Value, "0o"), 8, 32)
	if err != nil || v > 0o777 {
		return fmt.Errorf("line %d: %q is no file mode; want octal permission bits such as 0660", n.Line, n.Value)
	}
	*m = FileMode(v)
	return nil
}

// DefaultHTTP is where the web view listens unless told otherwise.
const DefaultHTTP = "127.0.0.1:8025"

// Default returns the configuration used for every key a file leaves out.
func Default() *Config {
	return &Config{
		Name: "pbemd",
		Data: "./pbem-data",
		IMAP: IMAP{
			Server:           Server{Security: mailconn.TLS},
			Mailbox:          "INBOX",
			DoneFolder:       "pbem-done",
			QuarantineFolder: "pbemd-quarantine",
			Batch:            500,
			BatchBytes:       10 << 20,
			PollInterval:     time.Minute,
			IdleTimeout:      25 * time.Minute,
			BackoffMin:       time.Second,
			BackoffMax:       5 * time.Minute,
		},
		SMTP: SMTP{
			Server:      Server{Security: mailconn.StartTLS},
			RetryMin:    30 * time.Second,
			RetryMax:    time.Hour,
			GiveUpAfter: 5 * 24 * time.Hour,
			Connections: 4,
		},
		Limits:        defaultLimits(),
		SweepInterval: 20 * time.Second,
		Log:           Log{Level: "info", Format: "text"},
		Robots:        Robots{MoveTime: 2 * time.Second},
		LMTP:          LMTP{SocketMode: 0o660, Connections: 64, IdleTimeout: 2 * time.Minute},
		VerifyDKIM:    true,
		DKIMTimeout:   5 * time.Second,
		Bounces:       Bounces{PauseAfter: pbem.DefaultPauseAfter},
		Etcd:          Etcd{CompactEvery: DefaultCompactEvery, KeepHistory: DefaultKeepHistory},
	}
}

// Load reads the file at path, fills the passwords from the environment
// and checks the result.
func Load(path string) (*Config, error) { return LoadFor(path, UsesAll) }

// LoadFor is Load for a program that uses only some of the servers: the
// settings of the others are neither needed nor checked.
func LoadFor(path string, uses Uses) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := parseFor(data, os.LookupEnv, uses)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// Parse reads a configuration from YAML text. lookupEnv resolves the
// password_env settings (os.LookupEnv outside tests).
func Parse(data []byte, lookupEnv func(string) (string, bool)) (*Config, error) {
	return parseFor(data, lookupEnv, UsesAll)
}

func parseFor(data []byte, lookupEnv func(string) (string, bool), uses Uses) (*Config, error) {
	c := Default()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	// A second document would be silently ignored: refuse it.
	var extra any
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, errors.New("the file holds more than one YAML document; want exactly one")
	}
	// A fault of mailUses is reported in its turn by validateFor.
	used, _ := c.mailUses(uses)
	for _, s := range []struct {
		name string
		srv  *Server
		used bool
	}{{"imap", &c.IMAP.Server, used&UsesIMAP != 0}, {"smtp", &c.SMTP.Server, used&UsesSMTP != 0}} {
		if !s.used {
			continue
		}
		if err := s.srv.resolve(s.name, lookupEnv); err != nil {
			return nil, err
		}
	}
	if err := c.resolveStore(lookupEnv); err != nil {
		return nil, err
	}
	if err := c.validateFor(uses); err != nil {
		return nil, err
	}
	return c, nil
}

// resolve fills in the default port and the password from the environment.
func (s *Server) resolve(name string, lookupEnv func(string) (string, bool)) error {
	if s.Port == 0 {
		s.Port = defaultPort(name, s.Security)
	}
	if s.PasswordEnv == "" {
		return nil
	}
	if s.Password != "" {
		return fmt.Errorf("%s: both password and password_env are set; keep only one (password_env is safer)", name)
	}
	v, ok := lookupEnv(s.PasswordEnv)
	if !ok || v == "" {
		return fmt.Errorf("%s: password_env names %s, but that environment variable is not set", name, s.PasswordEnv)
	}
	s.Password = Secret(v)
	return nil
}

func defaultPort(name string, sec mailconn.Security) int {
	switch {
	case name == "imap" && sec == mailconn.TLS:
		return 993
	case name == "imap":
		return 143
	case sec == mailconn.TLS:
		return 465
	case sec == mailconn.StartTLS:
		return 587
	}
	return 25
}

// Validate reports the first setting that is missing or unsafe.
func (c *Config) Validate() error { return c.validateFor(UsesAll) }

func (c *Config) validateFor(uses Uses) error {
	// In this order, so that the first fault of a file is always the one
	// reported.
	for _, check := range []func() error{
		c.validateAddress,
		func() error { return c.validateServers(uses) },
		c.validateFolders,
		c.validateSizes,
		c.validateDurations,
		c.validateCounts,
		c.LMTP.validate,
		c.validateMetrics,
		c.validateWeb,
		c.validateReply,
		c.validateAuth,
		c.Log.validate,
		c.validateBounces,
		c.validatePprof,
		c.validateStore,
	} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// validateAddress checks the game server's own address and its data.
func (c *Config) validateAddress() error {
	if c.Address == "" {
		return errors.New("address is missing; set it to the mail address players write to, e.g. pbem@example.org")
	}
	if a, err := mail.ParseAddress(c.Address); err != nil || a.Address != c.Address {
		return fmt.Errorf("address %q is not a plain mail address like pbem@example.org", c.Address)
	}
	if c.Data == "" {
		return errors.New("data is empty; set it to the directory of the game data, e.g. ./pbem-data")
	}
	return nil
}

// validateServers checks the mail servers the command uses.
func (c *Config) validateServers(uses Uses) error {
	uses, err := c.mailUses(uses)
	if err != nil {
		return err
	}
	if uses&UsesIMAP != 0 {
		if err := c.IMAP.Server.validate("imap", true); err != nil {
			return err
		}
	}
	if uses&UsesSMTP != 0 {
		if err := c.SMTP.Server.validate("smtp", false); err != nil {
			return err
		}
	}
	return nil
}

// validateFolders checks that the IMAP folders are set and distinct.
func (c *Config) validateFolders() error {
	if c.IMAP.Mailbox == "" || c.IMAP.DoneFolder == "" {
		return errors.New("imap: mailbox and done_folder must both be set")
	}
	if strings.EqualFold(c.IMAP.Mailbox, c.IMAP.DoneFolder) {
		return fmt.Errorf("imap: done_folder %q is the watched mailbox; choose another folder", c.IMAP.DoneFolder)
	}
	if c.IMAP.QuarantineFolder == "" || strings.EqualFold(c.IMAP.QuarantineFolder, c.IMAP.Mailbox) || strings.EqualFold(c.IMAP.QuarantineFolder, c.IMAP.DoneFolder) {
		return fmt.Errorf("imap: quarantine_folder %q must be set and differ from mailbox and done_folder", c.IMAP.QuarantineFolder)
	}
	return nil
}

// validateSizes checks the bounds in bytes and in mails.
func (c *Config) validateSizes() error {
	if c.Limits.LargestMail < 64<<10 || c.Limits.LargestMail > 1<<30 {
		return fmt.Errorf("limits.largest_mail is %d bytes; want 65536 (64 KiB) to 1073741824 (1 GiB)", c.Limits.LargestMail)
	}
	if c.Limits.QuarantineBytes < c.Limits.LargestMail*2 {
		// A mail is kept as JSON, in base64: 4/3 of its size, and more.
		return fmt.Errorf("limits.quarantine_bytes is %d; want at least twice limits.largest_mail (%d), or the largest mail would not be kept", c.Limits.QuarantineBytes, c.Limits.LargestMail*2)
	}
	if c.IMAP.BatchBytes < 64<<10 {
		return fmt.Errorf("imap.batch_bytes is %d; want at least 65536 (64 KiB)", c.IMAP.BatchBytes)
	}
	if c.SMTP.Connections < 1 || c.SMTP.Connections > MaxSMTPConnections {
		return fmt.Errorf("smtp.connections is %d; want 1 to %d", c.SMTP.Connections, MaxSMTPConnections)
	}
	if c.IMAP.Batch < 1 || c.IMAP.Batch > 1000 {
		return fmt.Errorf("imap: batch %d is out of range; want 1 to 1000", c.IMAP.Batch)
	}
	return nil
}

// validateDurations checks every interval and timeout.
func (c *Config) validateDurations() error {
	for _, d := range []struct {
		name     string
		v, least time.Duration
	}{
		{"imap.poll_interval", c.IMAP.PollInterval, 100 * time.Millisecond},
		{"imap.idle_timeout", c.IMAP.IdleTimeout, time.Second},
		{"imap.backoff_min", c.IMAP.BackoffMin, 10 * time.Millisecond},
		{"imap.backoff_max", c.IMAP.BackoffMax, c.IMAP.BackoffMin},
		{"smtp.retry_min", c.SMTP.RetryMin, 10 * time.Millisecond},
		{"smtp.retry_max", c.SMTP.RetryMax, c.SMTP.RetryMin},
		{"smtp.give_up_after", c.SMTP.GiveUpAfter, time.Minute},
		{"sweep_interval", c.SweepInterval, time.Second},
		{"limits.window", c.Limits.Window, time.Second},
		{"limits.keep_quarantined", c.Limits.KeepQuarantined, time.Hour},
		{"limits.repeats", c.Limits.Repeats, time.Minute},
	} {
		if d.v < d.least {
			return fmt.Errorf("%s is %v; want at least %v (write durations like 30s, 5m, 1h)", d.name, d.v, d.least)
		}
	}
	if c.Robots.MoveTime < 10*time.Millisecond || c.Robots.MoveTime > time.Minute {
		return fmt.Errorf("robots.move_time is %v; want 10ms to 1m", c.Robots.MoveTime)
	}
	if c.IMAP.IdleTimeout > 29*time.Minute {
		return fmt.Errorf("imap.idle_timeout is %v; want at most 29m, servers drop idle clients after 30 minutes (RFC 2177)", c.IMAP.IdleTimeout)
	}
	return nil
}

// validateCounts checks the limits that count, each at least 1.
func (c *Config) validateCounts() error {
	for _, n := range []struct {
		name string
		v    int
	}{
		{"limits.mails", c.Limits.Mails}, {"limits.bad_passwords", c.Limits.BadPasswords},
		{"limits.reads", c.Limits.Reads}, {"limits.signups", c.Limits.Signups}, {"limits.invitations", c.Limits.Invitations},
		{"limits.foreign_bad_passwords", c.Limits.ForeignBadPasswords},
		{"limits.strangers", c.Limits.Strangers}, {"limits.addresses", c.Limits.Addresses},
		{"limits.commands", c.Limits.Commands}, {"limits.recipients", c.Limits.Recipients},
		{"limits.message_bytes", c.Limits.MessageBytes}, {"limits.watchers", c.Limits.Watchers},
		{"limits.robot_games", c.Limits.RobotGames},
		{"limits.answer_bytes", c.Limits.AnswerBytes}, {"limits.address_answer_bytes", c.Limits.AddressAnswerBytes},
		{"limits.all_answer_bytes", c.Limits.AllAnswerBytes},
		{"limits.tournament_entrants", c.Limits.TournamentEntrants}, {"limits.tournaments", c.Limits.Tournaments},
	} {
		if n.v < 1 {
			return fmt.Errorf("%s is %d; want at least 1", n.name, n.v)
		}
	}
	if most := tournament.MaxEntrants; c.Limits.TournamentEntrants > most {
		return fmt.Errorf("limits.tournament_entrants is %d; want at most %d, the most a tournament pairs", c.Limits.TournamentEntrants, most)
	}
	return nil
}

// validateMetrics checks the metrics' address and makes a port alone
// (":9125") one of the loopback interface: a listener anyone may reach
// must be asked for by a host.
func (c *Config) validateMetrics() error {
	if c.Metrics == "" {
		return nil
	}
	host, port, err := net.SplitHostPort(c.Metrics)
	if err != nil {
		return fmt.Errorf("metrics %q is not host:port or :port, e.g. 127.0.0.1:9125", c.Metrics)
	}
	if host == "" {
		c.Metrics = net.JoinHostPort("127.0.0.1", port)
	}
	return nil
}

// validate checks the log level and format.
func (l Log) validate() error {
	switch l.Level {
	case "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("log.level %q is unknown; want debug, info, warn or error", l.Level)
	}
	switch l.Format {
	case "text", "json":
	default:
		return fmt.Errorf("log.format %q is unknown; want text or json", l.Format)
	}
	return nil
}

func (s *Server) validate(name string, needLogin bool) error {
	if s.Host == "" {
		return fmt.Errorf("%s.host is missing; set it to the %s server's host name", name, strings.ToUpper(name))
	}
	if s.Port < 1 || s.Port > 65535 {
		return fmt.Errorf("%s.port %d is out of range; want 1 to 65535", name, s.Port)
	}
	switch s.Security {
	case mailconn.TLS, mailconn.StartTLS:
	case mailconn.Plain:
		if !mailconn.IsLoopback(s.Host) {
			return fmt.Errorf("%s.security is plain, which would send mail and password unencrypted to %s; use tls or starttls (plain is allowed only to a loopback address such as 127.0.0.1)", name, s.Host)
		}
	default:
		return fmt.Errorf("%s.security %q is unknown; want tls, starttls or plain", name, s.Security)
	}
	if needLogin && (s.Username == "" || s.Password == "") {
		return fmt.Errorf("%s: username and a password (password_env or password) are needed to log in", name)
	}
	if (s.Username == "") != (s.Password == "") {
		return fmt.Errorf("%s: set both username and a password (password_env or password), or neither", name)
	}
	return nil
}

// Logger returns a slog logger writing to w as the Log settings ask.
func (l Log) Logger(w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(l.Level))
	opts := &slog.HandlerOptions{Level: level}
	if l.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

func (l *LMTP) validate() error {
	if l.Listen != "" && !strings.HasPrefix(l.Listen, "/") {
		host, _, err := net.SplitHostPort(l.Listen)
		if err != nil || !mailconn.IsLoopback(host) {
			return fmt.Errorf("lmtp %q is neither a loopback host:port such as 127.0.0.1:2424 nor a socket path such as /run/pbemd/lmtp; LMTP has no login, so only local MTAs may reach it", l.Listen)
		}
	}
	if l.SocketMode&0o600 != 0o600 {
		return fmt.Errorf("lmtp.socket_mode is %04o; want the owner to read and write (0600 at least, 0660 for the MTA's group)", l.SocketMode)
	}
	if l.Connections < 1 || l.Connections > 1000 {
		return fmt.Errorf("lmtp.connections is %d; want 1 to 1000", l.Connections)
	}
	if l.ConnectionsPerPeer < 0 || l.ConnectionsPerPeer > l.Connections {
		return fmt.Errorf("lmtp.connections_per_peer is %d; want 0 (three quarters of connections) to %d (connections)", l.ConnectionsPerPeer, l.Connections)
	}
	if l.IdleTimeout < time.Second || l.IdleTimeout > time.Hour {
		return fmt.Errorf("lmtp.idle_timeout is %v; want 1s to 1h (write durations like 30s, 2m)", l.IdleTimeout)
	}
	return nil
}
