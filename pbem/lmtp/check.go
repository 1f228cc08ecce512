package lmtp

import (
	"errors"
	"fmt"
	"os"
	"os/user"
)

// CheckSocket checks that the Unix socket at path is one the MTA can
// connect to as Listen makes it: a socket, of the mode and group the
// options say (group as Options.SocketGroup: empty means "postfix" where
// that group exists). It does not connect.
func CheckSocket(path string, mode os.FileMode, group string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if fi.Mode().Type() != os.ModeSocket {
		return fmt.Errorf("%s is not a socket; want the daemon's LMTP socket (lmtp.listen)", path)
	}
	var faults []error
	if fi.Mode().Perm() != mode.Perm() {
		faults = append(faults, fmt.Errorf("its mode is %04o, want %04o (lmtp.socket_mode): the MTA may not connect", fi.Mode().Perm(), mode.Perm()))
	}
	gid, err := socketGroup(group)
	if err != nil {
		return err
	}
	// Without a group set or a group postfix, the socket has the daemon's
	// own group, which need not be the checker's.
	_, noPostfix := user.LookupGroup("postfix")
	if g, ok := fileGroup(fi); ok && g != gid && (group != "" || noPostfix == nil) {
		faults = append(faults, fmt.Errorf("its group is %d, want %d (lmtp.socket_group)", g, gid))
	}
	if err := errors.Join(faults...); err != nil {
		return fmt.Errorf("socket %s: %w", path, err)
	}
	return nil
}
