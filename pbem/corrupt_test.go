package pbem

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

// Issue 25, item 10: a board or robot whose record does not decode (a bad
// page) is logged and passed over by the workers that read many records:
// the making of the robots and their task listing, which the daemon and
// the robot worker run right after start, and the sweep. The others go on.
func TestCorruptBoardPassedOver(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	// The service and the store log to the same place, as in the daemon.
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	path := h.db.Path()
	if strings.HasPrefix(path, store.EtcdScheme) {
		// A store in etcd opens again under a new prefix only: this test
		// reopens a bbolt file of its own.
		path = store.PathIn(t.TempDir())
	}
	h.db.Close()
	db := storetest.Open(t, path, &store.Options{NoSync: true, Log: log})
	h.db, h.svc.db, h.svc.cfg.Log = db, db, log
	h.restart()
	if err := h.svc.EnsureRobots([]string{"tanbo"}); err != nil {
		t.Fatal(err)
	}
	h.signup("alice", "bob")
	// Boards 101 and 102: a robot to move on each. 103: alice and bob.
	for _, subject := range []string{"tanbo challenge tanbo-robot1 alice -size=9", "tanbo challenge tanbo-robot2 alice -size=9",
		"tanbo challenge alice bob -size=9"} {
		if out := h.send("alice@example.org", subject, ""); len(out) == 0 {
			t.Fatalf("%s: no answer", subject)
		}
	}
	turns, err := h.svc.RobotTurns([]string{"tanbo"})
	if err != nil || len(turns) != 2 {
		t.Fatalf("before: %d robot boards, %v; want 2", len(turns), err)
	}
	err = h.db.Update(func(tx *store.Tx) error { return tx.CorruptGame("tanbo", 101) })
	if err != nil {
		t.Fatal(err)
	}

	// The worker lists the robots' boards from the index, and reads each
	// apart: the corrupt one fails alone.
	if _, err = h.svc.RobotTurns([]string{"tanbo"}); err != nil {
		t.Fatalf("with board 101 corrupt: %v", err)
	}
	if _, _, err := h.svc.RobotTask("tanbo", 101); err == nil || !strings.Contains(err.Error(), "does not decode") {
		t.Errorf("RobotTask of the corrupt board: %v", err)
	}
	if task, ok, err := h.svc.RobotTask("tanbo", 102); err != nil || !ok || task.Board != 102 {
		t.Errorf("RobotTask of board 102 beside the corrupt one: %+v, %v, %v", task, ok, err)
	}

	// A robot whose record does not decode: the robots start all the
	// same (the daemon runs EnsureRobots at each start), his boards are
	// passed over.
	err = h.db.Update(func(tx *store.Tx) error { return tx.CorruptUser("tanbo-robot2") })
	if err != nil {
		t.Fatal(err)
	}
	if err := h.svc.EnsureRobots([]string{"tanbo"}); err != nil {
		t.Errorf("EnsureRobots with a corrupt robot: %v", err)
	}
	turns, err = h.svc.RobotTurns([]string{"tanbo"})
	if err != nil || len(turns) != 1 || turns[0].Board != 101 {
		t.Errorf("with the robot of board 102 corrupt: %+v, %v; want board 101 alone", turns, err)
	}
	if !strings.Contains(logs.String(), `user \"tanbo-robot2\"`) {
		t.Errorf("the corrupt robot was not logged:\n%s", logs.String())
	}

	// A week on, the sweep reminds alice on board 103 and passes over
	// the corrupt board, which is due too.
	h.now = h.now.Add(7*24*time.Hour + time.Minute)
	out := h.sweep()
	var nags []string
	for _, r := range out {
		nags = append(nags, r.Subject)
	}
	if !strings.Contains(strings.Join(nags, "\n"), "Nag: Tanbo Board 103 alice") {
		t.Errorf("the sweep sent %q; want the reminder of board 103", nags)
	}
	if !strings.Contains(logs.String(), "sweep: board not swept") {
		t.Errorf("the sweep did not log the corrupt board:\n%s", logs.String())
	}
}
