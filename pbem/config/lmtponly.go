package config

import "errors"

// LMTPOnly reports whether mail reaches pbemd serve only over LMTP:
// lmtp.listen is set and imap.host is not. The daemon then reads no IMAP
// mailbox at all; its replies still go out by SMTP.
func (c *Config) LMTPOnly() bool {
	return c.IMAP.Host == "" && c.LMTP.Listen != ""
}

// mailUses is uses without UsesIMAP when the configuration is LMTPOnly,
// so that the IMAP settings are neither resolved nor checked. A program
// that reads mail needs one way for it to come in, and an imap block
// without a host beside LMTP would be ignored, which a typo must not be:
// both are errors. On an error, uses is returned as it was.
func (c *Config) mailUses(uses Uses) (Uses, error) {
	if uses&UsesIMAP == 0 || c.IMAP.Host != "" {
		return uses, nil
	}
	if c.LMTP.Listen == "" {
		return uses, errors.New("imap.host is missing, and so is lmtp.listen: set imap.host (with username and password_env) for pbemd to read a mailbox, or lmtp.listen for your MTA to hand it the mail over LMTP")
	}
	if c.IMAP != Default().IMAP {
		return uses, errors.New("imap has settings but no host: set imap.host to read that mailbox beside LMTP, or leave out the imap block when mail comes only over lmtp.listen")
	}
	return uses &^ UsesIMAP, nil
}
