package daemon

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"runtime/debug"
	"strings"
	"time"
)

// Version is "pbemd VERSION (REVISION[, modified] DATE) GOVERSION": the
// module version and the VCS revision this program was built from, as the
// Go toolchain recorded them. The daemon answers it on its control socket,
// so that "pbemd version" tells what runs, not only what is on disk.
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "pbemd (no build information)"
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var rev, at, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	if rev == "" {
		rev = "unknown revision"
	}
	line := fmt.Sprintf("pbemd %s (%s%s", version, rev, modified)
	if at != "" {
		line += " " + at
	}
	return line + ") " + info.GoVersion
}

// RunningVersion asks the daemon running on the data directory dir for its
// Version; the error is ErrNoDaemon when none answers.
func RunningVersion(dir string) (string, error) {
	conn, err := net.DialTimeout("unix", ControlPath(dir), 5*time.Second)
	if errors.Is(err, fs.ErrPermission) {
		return "", fmt.Errorf("%s is the daemon user's alone (%v); ask as that user or root", ControlPath(dir), err)
	}
	if err != nil {
		return "", fmt.Errorf("%w on %s: %v", ErrNoDaemon, ControlPath(dir), err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := fmt.Fprintln(conn, "version"); err != nil {
		return "", err
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return "", fmt.Errorf("the daemon sent no answer to the version request: %w", err)
	}
	v, ok := strings.CutPrefix(strings.TrimSpace(line), "OK ")
	if !ok {
		// A daemon older than the request answers ERR.
		return "", fmt.Errorf("the daemon on %s does not tell its version (older than this request): %s", dir, strings.TrimSpace(line))
	}
	return v, nil
}
