package daemon

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/admin"
	"github.com/pbemd/pbemd/store"
)

// ErrNoDaemon is the error of RunAdmin when no daemon answers.
var ErrNoDaemon = errors.New("no pbemd daemon answers")

// maxControlLine bounds a request line on the control socket.
const maxControlLine = 4096

// An adminFunc runs one pbemd admin action and writes its answer.
type adminFunc func(args []string, w io.Writer) error

// adminOn runs admin actions on the daemon's service and store; kick wakes
// its sender after a change of the outbox.
func adminOn(svc *pbem.Service, db *store.DB, log *slog.Logger, kick func()) adminFunc {
	env := admin.Env{Service: svc, DB: db, Log: log.With("part", "admin"), Kick: kick}
	return func(args []string, w io.Writer) error { return admin.Run(env, args, w) }
}

// answerAdmin runs the action and sends its status line and answer.
func answerAdmin(conn net.Conn, args []string, run adminFunc) {
	conn.SetWriteDeadline(time.Now().Add(time.Minute))
	var out bytes.Buffer
	err := run(args, &out)
	var usage admin.UsageError
	switch {
	case err == nil:
		fmt.Fprint(conn, "OK\n")
	case errors.As(err, &usage):
		fmt.Fprintf(conn, "USAGE %s\n", admin.OneLine(err.Error(), 0))
	default:
		fmt.Fprintf(conn, "ERR %s\n", admin.OneLine(err.Error(), 0))
	}
	conn.Write(out.Bytes())
}

// RunAdmin asks the daemon running on the data directory dir to run an
// admin action, and copies its answer to w. An action the daemon refused
// as wrongly written comes back as an admin.UsageError.
func RunAdmin(dir string, args []string, w io.Writer) error {
	for _, a := range args {
		if strings.ContainsAny(a, "\t\n") {
			return admin.UsageError(fmt.Sprintf("%q holds a tab or a newline", a))
		}
	}
	conn, err := net.DialTimeout("unix", ControlPath(dir), 5*time.Second)
	if err != nil {
		return fmt.Errorf("%w on %s: %v", ErrNoDaemon, ControlPath(dir), err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(2 * time.Minute))
	if _, err := fmt.Fprintf(conn, "admin\t%s\n", strings.Join(args, "\t")); err != nil {
		return err
	}
	r := bufio.NewReader(conn)
	status, err := r.ReadString('\n')
	if err != nil {
		return fmt.Errorf("the daemon sent no answer: %w", err)
	}
	if _, err := io.Copy(w, r); err != nil {
		return err
	}
	status = strings.TrimSpace(status)
	switch {
	case status == "OK":
		return nil
	case strings.HasPrefix(status, "USAGE "):
		return admin.UsageError(strings.TrimPrefix(status, "USAGE "))
	case strings.HasPrefix(status, "ERR "):
		return errors.New(strings.TrimPrefix(status, "ERR "))
	}
	return fmt.Errorf("the daemon answered %q", status)
}
