package config

import (
	"fmt"
	"net/mail"
	"strings"

	"github.com/pbemd/pbemd/pbem"
)

// validateReply checks reply_address: empty, or an address with the
// placeholder {token} once in its local part, e.g. pbem+{token}@example.org.
func (c *Config) validateReply() error { return checkTokenAddress("reply_address", c.ReplyAddress) }

// checkTokenAddress checks an address setting that holds a token: empty,
// or an address with the placeholder {token} once in its local part.
func checkTokenAddress(setting, a string) error {
	if a == "" {
		return nil
	}
	local, _, _ := strings.Cut(a, "@")
	if strings.Count(a, pbem.ReplyTokenPlace) != 1 || !strings.Contains(local, pbem.ReplyTokenPlace) {
		return fmt.Errorf("%s %q needs %s once in the part before the @, e.g. pbem+%s@example.org", setting, a, pbem.ReplyTokenPlace, pbem.ReplyTokenPlace)
	}
	// A token is 26 lower-case letters and digits (a return path's has dots too).
	sample := strings.Replace(a, pbem.ReplyTokenPlace, strings.Repeat("a2", 13), 1)
	if p, err := mail.ParseAddress(sample); err != nil || p.Address != sample {
		return fmt.Errorf("%s %q is not a plain mail address with %s in it, like pbem+%s@example.org", setting, a, pbem.ReplyTokenPlace, pbem.ReplyTokenPlace)
	}
	return nil
}
