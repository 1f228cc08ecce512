package daemon

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pbemd/pbemd/store"
)

// The control socket lets "pbemd backup" copy the database of a running
// daemon, which holds bbolt's lock so that no other process may open it,
// and "pbemd admin" act on it. It lives in the data directory as
// pbemd.sock with mode 0600: only the daemon's own user reaches it. A
// client sends one line, "backup", and gets "OK <size>" and a consistent
// copy of that many bytes, or "ERR <reason>"; or "admin" and the action's
// words, each after a tab, and gets "OK", "ERR <reason>" or
// "USAGE <reason>", a newline, and the action's answer (see runAdmin); or
// "version", and gets "OK " and the daemon's Version.
const controlName = "pbemd.sock"

// ControlPath is the control socket of the data directory dir.
func ControlPath(dir string) string { return filepath.Join(dir, controlName) }

// serveControl answers the control socket of dir until stop is called. The
// caller holds the database lock, so a socket file already there belongs to
// a daemon that died and is replaced.
func serveControl(dir string, db *store.DB, log *slog.Logger, admin adminFunc) (stop func(), err error) {
	path := ControlPath(dir)
	os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("control socket: %w", err)
	}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return // closed by stop
			}
			go answerControl(conn, db, log, admin)
		}
	}()
	return func() {
		ln.Close()
		os.Remove(path)
	}, nil
}

func answerControl(conn net.Conn, db *store.DB, log *slog.Logger, admin adminFunc) {
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, _ := bufio.NewReader(io.LimitReader(conn, maxControlLine)).ReadString('\n')
	req := strings.TrimSpace(line)
	if words, ok := strings.CutPrefix(req, "admin\t"); ok && admin != nil {
		answerAdmin(conn, strings.Split(words, "\t"), admin)
		return
	}
	switch req {
	case "version":
		fmt.Fprintf(conn, "OK %s\n", Version())
	case "backup":
		n, err := db.BackupSized(conn, func(size int64) error {
			_, err := fmt.Fprintf(conn, "OK %d\n", size)
			return err
		})
		if err != nil {
			log.Error("backup over the control socket failed", "err", err)
			return
		}
		log.Info("backup sent over the control socket", "bytes", n)
	default:
		fmt.Fprintf(conn, "ERR unknown request %q; the requests are backup, admin and version\n", req)
	}
}

// FetchBackup asks the daemon running on the data directory dir for a copy
// of its database and writes it to path (see store.SaveCopy).
func FetchBackup(dir, path string) error {
	conn, err := net.DialTimeout("unix", ControlPath(dir), 5*time.Second)
	if err != nil {
		return fmt.Errorf("no pbemd daemon answers on %s: %w", ControlPath(dir), err)
	}
	defer conn.Close()
	if _, err := fmt.Fprintln(conn, "backup"); err != nil {
		return err
	}
	r := bufio.NewReader(conn)
	line, err := r.ReadString('\n')
	if err != nil {
		return fmt.Errorf("the daemon sent no answer to the backup request: %w", err)
	}
	var size int64
	if _, err := fmt.Sscanf(line, "OK %d\n", &size); err != nil {
		return errors.New("the daemon refused the backup: " + strings.TrimSpace(line))
	}
	return store.SaveCopy(path, r, size)
}
