package web

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/store"
)

// Issue 25, item 10: a board or user whose record does not decode is
// passed over by the pages that list them (the store logs it): the front
// page, a game's boards, a player's boards and the standings still show
// the others. The corrupt board's own page is an error page, not a crash.
func TestCorruptRecordsPassedOver(t *testing.T) {
	t.Parallel()
	p := newPlayed(t)
	live, done := p.live["ultima"], p.games["tanbo"]
	err := p.db.Update(func(tx *store.Tx) error {
		for _, err := range []error{tx.CorruptGame("ultima", live), tx.CorruptGame("tanbo", done), tx.CorruptUser("bob")} {
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s := newTestServer(p)
	for path, want := range map[string]string{
		"/":                 fmt.Sprintf(`href="/ultima/%d"`, p.games["ultima"]),
		"/ultima/":          fmt.Sprintf(`href="/ultima/%d"`, p.games["ultima"]),
		"/tanbo/":           "Tanbo",
		"/users/alice":      fmt.Sprintf(`href="/tobit/%d"`, p.games["tobit"]),
		"/ultima/standings": `href="/users/alice"`,
	} {
		r := get(t, s, path)
		b := body(t, r)
		if r.StatusCode != http.StatusOK || !strings.Contains(b, want) {
			t.Errorf("%s: status %d, has %q: %v; want 200 and the other records", path, r.StatusCode, want, strings.Contains(b, want))
		}
		for _, gone := range []string{fmt.Sprintf(`href="/ultima/%d"`, live), fmt.Sprintf(`href="/tanbo/%d"`, done)} {
			if strings.Contains(b, gone) {
				t.Errorf("%s links the corrupt board: %s", path, gone)
			}
		}
	}
	if r := get(t, s, fmt.Sprintf("/ultima/%d", live)); r.StatusCode != http.StatusInternalServerError {
		t.Errorf("the corrupt board's page: status %d; want 500", r.StatusCode)
	}
}
