package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/mailauth"
)

// runDKIM is "pbemd dkim -domain D -selector S": a new key for signing the
// server's mail, written beside the data, and the DNS record and the
// configuration lines that put it to use.
func runDKIM(c *invocation) error {
	where := c.dataFlags("the embedded default's data directory")
	domain := c.flags.String("domain", "", "the domain the mail is signed for: the domain of the server's `address`")
	selector := c.flags.String("selector", "", "the key's name in DNS (`SELECTOR`._domainkey.DOMAIN); a new one for each new key")
	algorithm := c.flags.String("algorithm", "rsa", "rsa (2048 bits; every receiver checks it) or ed25519")
	if _, err := c.parse(0, "only flags"); err != nil {
		return err
	}
	if *domain == "" || *selector == "" || strings.ContainsAny(*domain+*selector, " \t;/") {
		return usageError("want -domain (the domain of the server's address) and -selector (a name such as pbemd1)")
	}
	cfg, err := where.loadConfig(config.UsesNone)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(cfg.Data, 0o700); err != nil {
		return err
	}
	cfg.DKIM.Selector = *selector
	path := cfg.DKIMKeyFile(*selector)
	key, err := mailauth.NewKey(path, *algorithm)
	if err != nil {
		return err
	}
	s := &mailauth.Signer{Domain: *domain, Selector: *selector, Key: key}
	record, err := s.Record()
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "pbemd dkim: the key is in %s (mode 0600).\n\n", path)
	fmt.Fprintf(c.stdout, "Publish this TXT record (in a zone file, its strings are joined):\n\n    %s. IN TXT ( %s )\n\n",
		s.RecordName(), zoneStrings(record))
	fmt.Fprintf(c.stdout, "Once DNS answers it (dig +short TXT %s),\nadd to the configuration and restart the daemon:\n\n    dkim:\n      domain: %s\n      selector: %s\n", s.RecordName(), *domain, *selector)
	if cfg.DKIM.KeyFile != "" {
		fmt.Fprintf(c.stdout, "      key_file: %s\n", path)
	}
	fmt.Fprintf(c.stdout, "\nTo rotate later, make a key under a new selector, publish it, switch the\nconfiguration to it, and remove the old record a week after.\n")
	return nil
}

// zoneStrings splits a TXT record into the quoted strings of at most 255
// bytes that DNS holds.
func zoneStrings(record string) string {
	var parts []string
	for len(record) > 255 {
		parts = append(parts, `"`+record[:255]+`"`)
		record = record[255:]
	}
	return strings.Join(append(parts, `"`+record+`"`), " ")
}
