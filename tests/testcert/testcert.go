// Package testcert makes a throwaway self-signed certificate for 127.0.0.1
// and localhost, so tests can run TLS and STARTTLS servers.
package testcert

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// Pair is a server certificate and the client settings that trust it.
type Pair struct {
	Server *tls.Config // for the server side
	Client *tls.Config // for the client side: trusts only this certificate
	CAFile string      // the certificate in PEM, when written by New with a dir
	// KeyFile is the private key in PEM, when written by New with a dir,
	// for servers such as Dovecot that read the pair from files.
	KeyFile string
}

// New makes a certificate valid for an hour. With dir not empty it also
// writes the certificate as PEM into dir and sets CAFile.
func New(dir string) (*Pair, error) { return NewUntil(dir, time.Now().Add(time.Hour)) }

// NewUntil is New for a certificate valid until notAfter, from a minute
// ago or two hours before notAfter: one in the past is expired.
func NewUntil(dir string, notAfter time.Time) (*Pair, error) {
	notBefore := time.Now().Add(-time.Minute)
	if notAfter.Before(notBefore) {
		notBefore = notAfter.Add(-2 * time.Hour)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "pbemd test"},
		NotBefore:             notBefore,
		NotAfter:              notAfter,
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	p := &Pair{
		Server: &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert}}},
		Client: &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"},
	}
	if dir != "" {
		p.CAFile = filepath.Join(dir, "ca.pem")
		data := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
		if err := os.WriteFile(p.CAFile, data, 0o644); err != nil {
			return nil, err
		}
		keyDER, err := x509.MarshalPKCS8PrivateKey(key)
		if err != nil {
			return nil, err
		}
		p.KeyFile = filepath.Join(dir, "key.pem")
		if err := os.WriteFile(p.KeyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o644); err != nil {
			return nil, err
		}
	}
	return p, nil
}
