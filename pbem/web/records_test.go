package web

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules/rulestool"
	"github.com/pbemd/pbemd/store"
)

// Every board's record is served as text named for saving, with an ETag;
// it replays to the board's position and result in the store, finished
// or not; Tanbo's has an SGF form, the others none; the board page links
// to them.
func TestRecordFiles(t *testing.T) {
	t.Parallel()
	p := sharedPlayed(t)
	s := newTestServer(p)
	for _, byKind := range []map[string]int{p.games, p.live} {
		for kind, num := range byKind {
			path := fmt.Sprintf("/%s/%d.pgn", kind, num)
			r := get(t, s, path)
			text := body(t, r)
			if r.StatusCode != 200 || r.Header.Get("Content-Type") != "text/plain; charset=utf-8" ||
				r.Header.Get("Content-Disposition") != fmt.Sprintf(`inline; filename="%s-%d.pgn"`, kind, num) {
				t.Fatalf("GET %s: %d %q %q:\n%s", path, r.StatusCode, r.Header.Get("Content-Type"), r.Header.Get("Content-Disposition"), text)
			}
			checkHeaders(t, path, r)
			checkPrivate(t, path, text)
			if r := get(t, s, path, "If-None-Match", r.Header.Get("ETag")); r.StatusCode != 304 {
				t.Errorf("GET %s with its ETag: %d, want 304", path, r.StatusCode)
			}
			var rec *store.Game
			p.db.View(func(tx *store.Tx) (err error) { rec, err = tx.Game(kind, num); return err })
			_, pos, res, err := rulestool.Replay(text)
			if err != nil {
				t.Fatalf("GET %s: %v in\n%s", path, err, text)
			}
			if pos.String() != rec.Position || res.Over != rec.Over || rec.Over && (res.Winner != rec.Winner || res.Reason != rec.EndReason) {
				t.Errorf("GET %s replays to %s %+v; the store has %s over=%v winner=%d %q", path, pos, res, rec.Position, rec.Over, rec.Winner, rec.EndReason)
			}
			page := body(t, get(t, s, fmt.Sprintf("/%s/%d", kind, num)))
			if !strings.Contains(page, fmt.Sprintf(`href="/%s/%d.pgn"`, kind, num)) {
				t.Errorf("the page of %s %d has no link to its record", kind, num)
			}
			sgf := get(t, s, fmt.Sprintf("/%s/%d.sgf", kind, num))
			text = body(t, sgf)
			switch {
			case kind == "tanbo" && (sgf.StatusCode != 200 || !strings.HasPrefix(text, "(;FF[4]GM[99]")):
				t.Errorf("GET /tanbo/%d.sgf: %d\n%s", num, sgf.StatusCode, text)
			case kind != "tanbo" && sgf.StatusCode != 404:
				t.Errorf("GET /%s/%d.sgf: %d, want 404", kind, num, sgf.StatusCode)
			}
		}
	}
	for _, c := range []struct {
		path   string
		status int
	}{{"/ultima/101.pgn?move=3", 400}, {"/ultima/999.pgn", 404}, {"/ultima/x.pgn", 404}, {"/baroque/101.pgn", 301}} {
		if r := get(t, s, c.path); r.StatusCode != c.status {
			t.Errorf("GET %s: %d, want %d", c.path, r.StatusCode, c.status)
		}
	}
}
