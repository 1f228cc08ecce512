package config

import (
	"fmt"

	"github.com/pbemd/pbemd/pbem"
)

// Bounces is the return path of the server's mail and what its bounces do
// (docs/bounces.md).
type Bounces struct {
	// ReturnPath, when set, is the envelope sender (MAIL FROM) of every
	// mail sent: an address of the server's mailbox with {token} in its
	// local part, e.g. pbem+{token}@example.org. Each recipient's copy
	// gets a token of his address, and the bounces that come back to it
	// are counted. Empty: the envelope sender is address, and bounces
	// are never answered but not counted.
	ReturnPath string `yaml:"return_path"`
	// PauseAfter is on how many days a hard bounce must come back for an
	// address before board mail to it pauses; default
	// pbem.DefaultPauseAfter, 3.
	PauseAfter int `yaml:"pause_after"`
}

// maxPauseAfter bounds bounces.pause_after: the bounces of an address are
// counted over 30 days, a day at most once.
const maxPauseAfter = 30

// validateBounces checks the bounces settings.
func (c *Config) validateBounces() error {
	if err := checkTokenAddress("bounces.return_path", c.Bounces.ReturnPath); err != nil {
		return err
	}
	if n := c.Bounces.PauseAfter; n < 0 || n > maxPauseAfter {
		return fmt.Errorf("bounces.pause_after is %d; it counts days with a hard bounce within 30 days: 1 to %d, or 0 for the default %d", n, maxPauseAfter, pbem.DefaultPauseAfter)
	}
	return nil
}
