package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/tests/dovecot"
	"github.com/pbemd/pbemd/tests/testenv"
)

// A wayIn hands one raw mail to pbemd and returns the log line of its
// handling.
type wayIn func(t *testing.T, from string, raw []byte) string

// keys are the DKIM keys of the trust tests: signed.example is a player's
// domain, attacker.example signs its own mail and forges the From.
type keys struct{ player, attacker *pbemtest.Signer }

// forgery is one row of the forged-From corpus: a mail made from a plain
// one, sent times times, and what pbemd must find vouching for it.
type forgery struct {
	name, from, subject string
	times               int                                           // 0 means once
	make                func(t testing.TB, k keys, raw []byte) []byte // nil: sent as written
	auth                string                                        // the log's auth= value
	// policy, when set, checks what the mail was allowed to do, from its
	// log line (result=, why=); the rows of unauthenticated mail get one
	// as the policy of docs/trust.md lands in package pbem.
	policy func(t *testing.T, line string)
}

// vouched is a mail the trusted MTA vouches for.
func vouched(from string) func(testing.TB, keys, []byte) []byte {
	return func(_ testing.TB, _ keys, raw []byte) []byte { return pbemtest.Vouch(from, raw) }
}

// forgeries is the corpus, in order: the accounts first, then the forged
// mails that try to act for them.
var forgeries = []forgery{
	{name: "signup vouched for by the trusted MTA", from: "alice@localhost", subject: "signup alice secret",
		make: vouched("alice@localhost"), auth: "ar " + pbemtest.Authserv + " dmarc"},
	{name: "another", from: "bob@localhost", subject: "signup bob secret",
		make: vouched("bob@localhost"), auth: "ar " + pbemtest.Authserv + " dmarc"},
	{name: "signup signed by the From's domain", from: "carol@signed.example", subject: "signup carol secret",
		make: func(t testing.TB, k keys, raw []byte) []byte { return k.player.Sign(t, raw) }, auth: "dkim signed.example"},
	{name: "a game vouched for", from: "alice@localhost", subject: "ultima challenge alice bob",
		make: vouched("alice@localhost"), auth: "ar " + pbemtest.Authserv + " dmarc"},

	{name: "forged From challenges for others", from: "alice@localhost", subject: "ultima challenge alice carol",
		auth: "no signature", policy: invites},
	{name: "Authentication-Results of an untrusted server", from: "alice@localhost", subject: "tanbo challenge alice bob",
		make: func(_ testing.TB, _ keys, raw []byte) []byte {
			return pbemtest.VouchBy(pbemtest.Untrusted, "alice@localhost", raw)
		},
		auth: "no signature", policy: invites},
	{name: "the trusted server's pass for another domain", from: "alice@localhost", subject: "tobit challenge alice bob",
		make: vouched("mallory@attacker.example"), auth: "no signature", policy: invites},
	{name: "signed by the attacker's own domain", from: "alice@localhost", subject: "taratibu challenge alice carol",
		make: func(t testing.TB, k keys, raw []byte) []byte { return k.attacker.Sign(t, raw) }, auth: "dkim pass, not aligned: attacker.example",
		policy: invites},
	{name: "signed, then its Subject changed", from: "carol@signed.example", subject: "ultima challenge carol bob",
		make: func(t testing.TB, k keys, raw []byte) []byte {
			return bytes.Replace(k.player.Sign(t, raw), []byte("carol bob"), []byte("bob alice"), 1)
		}, auth: "dkim fail", policy: invites},
	{name: "forged wrong passwords to lock an account", from: "bob@localhost", subject: "ultima move 101 bob wrong a2-a4",
		// The same refused mail again is not answered again: ignored.
		times: 10, auth: "no signature", policy: result("refused", "ignored")},
	{name: "bob's right password in forged mail, while locked", from: "bob@localhost", subject: "vacation bob secret 1",
		auth: "no signature", policy: result("ignored")},
	{name: "bob's own vouched mail gets through the lock", from: "bob@localhost", subject: "vacation bob secret 1",
		make: vouched("bob@localhost"), auth: "ar " + pbemtest.Authserv + " dmarc", policy: result("played")},
}

// invites checks that a challenge in mail that proves nothing only invited.
func invites(t *testing.T, line string) { result("invited")(t, line) }

// result checks the result= of a mail's log line: one of want.
func result(want ...string) func(t *testing.T, line string) {
	return func(t *testing.T, line string) {
		t.Helper()
		m := regexp.MustCompile(` result=(\S+)`).FindStringSubmatch(line)
		if m == nil || !slices.Contains(want, m[1]) {
			t.Errorf("result=%v; want %v\n%s", m, want, line)
		}
	}
}

// TestForgedFrom sends the forged-From corpus through each way in (IMAP,
// LMTP, deliver) with real DKIM signatures verified against a DNS server
// of the test's own, and checks what pbemd found vouching for each mail.
func TestForgedFrom(t *testing.T) {
	k := keys{pbemtest.NewSigner(t, "signed.example", "s1"), pbemtest.NewSigner(t, "attacker.example", "s1")}
	dns := pbemtest.ServeDNS(t, k.player, k.attacker)
	for _, way := range []struct {
		name  string
		start func(t *testing.T) wayIn
	}{
		{"imap", func(t *testing.T) wayIn {
			w := newDovecotWorld(t, "dkim_resolver: "+dns+"\n")
			p := w.start(t)
			return func(t *testing.T, from string, raw []byte) string {
				if err := w.dc.Deliver(from, server, raw); err != nil {
					t.Fatal(err)
				}
				return p.waitLine(`msg=mail .*`)[0]
			}
		}},
		{"lmtp", func(t *testing.T) wayIn {
			lmtpAddr := testenv.FreeAddr(t)
			w := newDovecotWorld(t, "dkim_resolver: "+dns+"\nlmtp: "+lmtpAddr+"\n")
			p := w.start(t) // LMTP listens before IMAP connects
			return func(t *testing.T, from string, raw []byte) string {
				if err := dovecot.DeliverAt(lmtpAddr, from, server, raw); err != nil {
					t.Fatal(err)
				}
				return p.waitLine(`msg=mail .*`)[0]
			}
		}},
		{"deliver", func(t *testing.T) wayIn {
			cfg := filepath.Join(t.TempDir(), "pbemd.yaml")
			yaml := fmt.Sprintf("address: %s\ntrusted_authserv_ids: [%s]\ndkim_resolver: %s\n", server, pbemtest.Authserv, dns)
			if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			data := t.TempDir()
			return func(t *testing.T, _ string, raw []byte) string {
				cmd := exec.Command(pbemdBinary, "deliver", "-config", cfg, "-data", data, "-print")
				cmd.Stdin = bytes.NewReader(raw)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				err := cmd.Run()
				line := regexp.MustCompile(`msg=mail .*`).FindString(stderr.String())
				if err != nil || line == "" {
					t.Fatalf("pbemd deliver: %v, no mail logged:\n%s", err, stderr.String())
				}
				return line
			}
		}},
	} {
		t.Run(way.name, func(t *testing.T) {
			send := way.start(t)
			n := 0
			for _, f := range forgeries {
				for range max(f.times, 1) {
					n++
					raw := plainText(f.from, f.subject, fmt.Sprintf("forged%d.%d@e2e.test", n, time.Now().UnixNano()))
					if f.make != nil {
						raw = f.make(t, k, raw)
					}
					line := send(t, f.from, raw)
					if got := logAuth(line); got != f.auth {
						t.Errorf("%s: auth=%q; want %q\n%s", f.name, got, f.auth, line)
					}
					if f.policy != nil {
						f.policy(t, line)
					}
				}
			}
		})
	}
}

// logAuth is the auth= value of a text log line.
func logAuth(line string) string {
	m := regexp.MustCompile(` auth=("(?:[^"\\]|\\.)*"|\S*)`).FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	if v, err := strconv.Unquote(m[1]); err == nil {
		return v
	}
	return m[1]
}
