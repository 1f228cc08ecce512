package config

import (
	"fmt"
	"net"
	"net/url"
)

// validateWeb checks the web view's settings: an address to listen on (or
// "off"), and a public URL that is an absolute http or https address.
func (c *Config) validateWeb() error {
	if c.HTTP != "" {
		if err := CheckHTTP(c.HTTP); err != nil {
			return err
		}
	}
	if c.PublicURL == "" {
		return nil
	}
	u, err := url.Parse(c.PublicURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("public_url %q is not a web address like https://pbem.example.org", c.PublicURL)
	}
	return nil
}

// CheckHTTP checks the web view's listen address: host:port, or "off".
func CheckHTTP(addr string) error {
	if addr == "off" {
		return nil
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return fmt.Errorf("http %q is not host:port (e.g. %s) or off", addr, DefaultHTTP)
	}
	return nil
}
