package mailauth

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"os"

	"github.com/emersion/go-msgauth/dkim"
)

// A Signer signs outgoing mail with DKIM (RFC 6376) for its domain, so
// that the players' providers find the server's mail vouched for and do
// not file it as spam.
type Signer struct {
	Domain   string // the d= of the signatures, the From's domain
	Selector string // the s=: the key's DNS record is SELECTOR._domainkey.DOMAIN
	Key      crypto.Signer
}

// signedHeaders are the fields a signature covers, when the mail has them:
// those that say who it is from and to, what it is, and how it threads;
// a field named but missing is signed as absent, so none can be added.
var signedHeaders = []string{"From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "References",
	"Reply-To", "MIME-Version", "Content-Type", "Content-Transfer-Encoding", "Auto-Submitted",
	"List-Unsubscribe", "List-Unsubscribe-Post"}

// Sign returns raw with a DKIM-Signature field on top.
func (s *Signer) Sign(raw []byte) ([]byte, error) {
	var out bytes.Buffer
	err := dkim.Sign(&out, bytes.NewReader(raw), &dkim.SignOptions{
		Domain: s.Domain, Selector: s.Selector, Signer: s.Key,
		HeaderKeys:             signedHeaders,
		HeaderCanonicalization: dkim.CanonicalizationRelaxed,
		BodyCanonicalization:   dkim.CanonicalizationRelaxed,
	})
	if err != nil {
		return nil, fmt.Errorf("dkim: signing for %s: %w", s.Domain, err)
	}
	return out.Bytes(), nil
}

// RecordName is the DNS name of the selector's key record.
func (s *Signer) RecordName() string { return s.Selector + "._domainkey." + s.Domain }

// Record is the TXT record that publishes the signer's public key.
func (s *Signer) Record() (string, error) {
	switch pub := s.Key.Public().(type) {
	case ed25519.PublicKey:
		return "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub), nil
	case *rsa.PublicKey:
		der, err := x509.MarshalPKIXPublicKey(pub)
		if err != nil {
			return "", err
		}
		return "v=DKIM1; k=rsa; p=" + base64.StdEncoding.EncodeToString(der), nil
	}
	return "", errors.New("dkim: the key is neither RSA nor Ed25519")
}

// NewKey makes a key of the algorithm, "rsa" (2048 bits: every receiver
// verifies it) or "ed25519" (RFC 8463: short, not yet verified by all),
// and writes it to path as PKCS #8 PEM, readable by its owner alone. An
// existing file is not overwritten: a key in use must be rotated under a
// new selector.
func NewKey(path, algorithm string) (crypto.Signer, error) {
	var key crypto.Signer
	var err error
	switch algorithm {
	case "rsa":
		key, err = rsa.GenerateKey(rand.Reader, 2048)
	case "ed25519":
		_, key, err = ed25519.GenerateKey(rand.Reader)
	default:
		return nil, fmt.Errorf("dkim: no key algorithm %q; want rsa or ed25519", algorithm)
	}
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("dkim: %w (a key in use is rotated under a new selector, not overwritten)", err)
	}
	if err := pem.Encode(f, &pem.Block{Type: "PRIVATE KEY", Bytes: der}); err != nil {
		f.Close()
		return nil, err
	}
	return key, f.Close()
}

// LoadKey reads a key that NewKey wrote (or any PKCS #8 PEM RSA or
// Ed25519 private key).
func LoadKey(path string) (crypto.Signer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("dkim: %w", err)
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("dkim: %s holds no PEM \"PRIVATE KEY\" block (PKCS #8)", path)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("dkim: %s: %w", path, err)
	}
	switch k := k.(type) {
	case *rsa.PrivateKey:
		return k, nil
	case ed25519.PrivateKey:
		return k, nil
	}
	return nil, fmt.Errorf("dkim: %s holds a key that is neither RSA nor Ed25519", path)
}
