package e2e

import (
	"bytes"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/pbemd/pbemd/pbem/intake"
	"github.com/pbemd/pbemd/pbem/lmtp"
	"github.com/pbemd/pbemd/tests/postfix"
	"github.com/pbemd/pbemd/tests/testenv"
)

// newPostfixWorld is a Dovecot world whose players mail a real Postfix,
// which hands the server's mail to pbemd's LMTP listener by a transport
// map. pbemd still watches its (empty) Dovecot
// mailbox, as it always does; replies go to the sink. It returns the
// world, the Postfix and the LMTP address in pbemd's config.
func newPostfixWorld(t testing.TB) (*dovecotWorld, *postfix.Server, string) {
	t.Helper()
	return newPostfixWorldAt(t, testenv.FreeAddr(t))
}

// newPostfixWorldAt is newPostfixWorld with pbemd's LMTP listening at
// lmtpAddr, a host:port or the path of a Unix socket.
func newPostfixWorldAt(t testing.TB, lmtpAddr string) (*dovecotWorld, *postfix.Server, string) {
	t.Helper()
	main, maps := lmtpPostfix(lmtpAddr)
	mta := postfix.Start(t, postfix.Options{Domain: domainOf(server), Main: main, Maps: maps})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("Postfix's log:\n%s", mta.Log())
		}
	})
	w := newDovecotWorld(t, "lmtp: "+lmtpAddr+"\n")
	w.deliver = func(from string, data []byte) error { return mta.Send(from, []string{server}, data) }
	return w, mta, lmtpAddr
}

func domainOf(addr string) string {
	_, d, _ := strings.Cut(addr, "@")
	return d
}

// lmtpPostfix returns the lines of main.cf and the transport map that
// hand the server's mail to pbemd's LMTP at lmtpAddr (a host:port, or a
// socket path), in a private Postfix whose mydestination is the test's
// domain: the README's own Postfix recipe (a virtual domain, the machine's
// Postfix) is run as written by TestReadme.
func lmtpPostfix(lmtpAddr string) (string, map[string]string) {
	target := "inet:" + lmtpAddr
	if strings.HasPrefix(lmtpAddr, "/") {
		target = "unix:" + lmtpAddr
	}
	main := "transport_maps = hash:/etc/postfix/transport\n" +
		"local_recipient_maps = proxy:unix:passwd.byname $alias_maps $transport_maps\n"
	return main, map[string]string{"transport": server + " lmtp:" + target + "\n"}
}

// TestPostfixLMTP plays a short game by mail through Postfix: each mail
// reaches pbemd over LMTP, is played and answered, and Postfix keeps
// nothing. An address of the domain that is not the server's is refused
// at once rather than bounced later.
func TestPostfixLMTP(t *testing.T) {
	w, mta, _ := newPostfixWorld(t)
	p := w.start(t)
	steps := shortGame(t, 4)
	play(t, w, steps)

	waitUntil(t, "the counters", 5*time.Second, func() bool {
		c := counters(t, w.metrics)
		return c["mails_in"] == len(steps) && c["outbox_length"] == 0
	})
	for _, folder := range []string{"INBOX", "pbem-done"} {
		if msgs := w.mailbox(t, folder); len(msgs) != 0 {
			t.Errorf("the IMAP folder %s holds %d mails; all should have come by LMTP", folder, len(msgs))
		}
	}
	if q := mta.Queue(); len(q) != 0 {
		t.Errorf("Postfix still holds %d mails: %v", len(q), postfix.Reasons(q))
	}
	err := mta.Send(player("alice"), []string{"stranger@" + domainOf(server)}, mailText(player("alice"), "help", "stranger@e2e.test"))
	var se *smtp.SMTPError
	if !errors.As(err, &se) || se.Code != 550 {
		t.Errorf("Postfix answered a mail for another address of the domain with %v; want 550", err)
	}
	p.stop()
}

// TestPostfixLMTPSocket: over a Unix socket, which pbemd makes 0660 and
// of group postfix whatever its umask, Postfix's lmtp client (running as
// the user postfix) connects and hands every mail over.
func TestPostfixLMTPSocket(t *testing.T) {
	sock := filepath.Join(testenv.OpenDir(t, "lmtp"), "pbemd.lmtp")
	w, mta, _ := newPostfixWorldAt(t, sock)
	old := syscall.Umask(0o077) // pbemd's, as under the shipped unit
	p := w.start(t)
	syscall.Umask(old)
	play(t, w, shortGame(t, 2))
	waitUntil(t, "Postfix's queue to empty", 10*time.Second, func() bool { return len(mta.Queue()) == 0 })
	p.stop()
}

// TestPostfixKeepsMail: a move mailed while pbemd is stopped waits in
// Postfix's queue; so it does while pbemd's LMTP answers 452 (its disk is
// full); once pbemd is back Postfix hands it over by itself, and it is
// played once: both players get its board, and the game goes on.
func TestPostfixKeepsMail(t *testing.T) {
	w, mta, lmtpAddr := newPostfixWorld(t)
	p := w.start(t)
	steps := shortGame(t, 4)
	kept := []byte("Subject: " + steps[3].subject + "\r\n") // the first move
	viaPostfix := w.deliver
	w.deliver = func(from string, data []byte) error {
		if !bytes.Contains(data, kept) {
			return viaPostfix(from, data)
		}
		p.stop()
		if err := viaPostfix(from, data); err != nil {
			return err
		}
		waitDeferred(t, mta, "Connection refused")
		full, err := lmtp.Listen(lmtp.Options{Addr: lmtpAddr, Recipients: []string{server}, Spool: t.TempDir(),
			Logger: slog.New(slog.DiscardHandler)}, intake.New(fullStore{}, intake.Options{Logger: slog.New(slog.DiscardHandler)}))
		if err != nil {
			t.Fatal(err)
		}
		waitDeferred(t, mta, "452 4.3.1")
		full.Close()
		p = w.start(t)
		return nil
	}
	play(t, w, steps)

	waitUntil(t, "Postfix's queue to empty", 10*time.Second, func() bool { return len(mta.Queue()) == 0 })
	p.stop()
	var moves []string
	for _, s := range steps {
		if f := strings.Fields(s.subject); len(f) == 6 && f[1] == "move" && f[4] == "secret" {
			moves = append(moves, f[5])
		}
	}
	checkMoves(t, w, map[int][]string{101: moves})
}

// waitDeferred waits until Postfix holds a mail deferred for a reason
// containing want.
func waitDeferred(t testing.TB, mta *postfix.Server, want string) {
	t.Helper()
	waitUntil(t, "Postfix to defer the mail with "+want, 30*time.Second, func() bool {
		for _, r := range postfix.Reasons(mta.Queue()) {
			if strings.Contains(r, want) {
				return true
			}
		}
		return false
	})
}

// fullStore stands in for pbemd's store on a full disk (for the intake):
// pbemd's LMTP listener then answers 452.
type fullStore struct{}

func (fullStore) HandleAll(raws [][]byte) ([][]uint64, []error) {
	errs := make([]error, len(raws))
	for i := range errs {
		errs[i] = syscall.ENOSPC
	}
	return make([][]uint64, len(raws)), errs
}

func (fullStore) Quarantine([]byte, string, bool) ([]uint64, error) { return nil, syscall.ENOSPC }
func (fullStore) TooLarge([]byte, int64, int64) ([]uint64, error)   { return nil, syscall.ENOSPC }
func (fullStore) CountFailure([]byte, int) (int, error)             { return 0, syscall.ENOSPC }
func (fullStore) Check() error                                      { return syscall.ENOSPC }
