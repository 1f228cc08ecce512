package config

// Uses says which mail servers a program connects to, so that its
// configuration is checked for those and no others: pbemd deliver sends
// by SMTP but never reads IMAP, and needs no IMAP password.
type Uses int

const (
	UsesIMAP Uses = 1 << iota // reads the mailbox
	UsesSMTP                  // sends the replies

	UsesNone Uses = 0                   // works on the data only (backup, admin)
	UsesAll       = UsesIMAP | UsesSMTP // pbemd serve (no IMAP when LMTPOnly)
)
