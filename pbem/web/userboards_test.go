package web

import (
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

// A player's page lists his boards of every game newest first, fifty a
// page, as it did when it read all of them and sorted them (the oracle
// here), though it now reads each game's seat index only down to the
// page: boards numbered alike in several games, a player with boards in
// some games only, the last page short, a page past the end none, and the
// id in another case.
func TestUserPagesNewestFirst(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	// Board numbers of each game, overlapping between games and
	// interleaved: tanbo 101-230, ultima every third from 101, tobit a
	// few high ones, taratibu none.
	boards := map[string][]int{"tanbo": {}, "ultima": {}, "tobit": {500, 501, 180}}
	for n := 101; n <= 230; n++ {
		boards["tanbo"] = append(boards["tanbo"], n)
		if n%3 == 0 {
			boards["ultima"] = append(boards["ultima"], n)
		}
	}
	err := db.Update(func(tx *store.Tx) error {
		if err := tx.PutUser(&store.User{ID: "alice", Name: "Alice", Addresses: []string{"alice@example.org"}}); err != nil {
			return err
		}
		for kind, nums := range boards {
			for _, n := range nums {
				seats := []string{"alice", "bob"}
				if n%2 == 0 {
					seats = []string{"bob", "alice"}
				}
				if err := tx.PutGame(&store.Game{Kind: kind, Board: n, Seats: seats, Over: n%5 == 0}); err != nil {
					return err
				}
			}
		}
		return tx.PutGame(&store.Game{Kind: "tanbo", Board: 999, Seats: []string{"carol", "bob"}})
	})
	if err != nil {
		t.Fatal(err)
	}
	var all []store.GameRef
	db.View(func(tx *store.Tx) error {
		all, err = tx.GamesOf("alice")
		return err
	})
	sort.SliceStable(all, func(i, j int) bool { return all[i].Board > all[j].Board })
	s := New(db, Options{})
	total := len(boards["tanbo"]) + len(boards["ultima"]) + len(boards["tobit"])
	for pg := 1; pg <= 4; pg++ {
		v, err := s.readUser("ALICE", url.Values{"page": {fmt.Sprint(pg)}})
		from := (pg - 1) * boardsPerPage
		if from >= total {
			if err == nil || !strings.Contains(err.Error(), "no page") {
				t.Errorf("page %d of %d boards: %v; want none", pg, total, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("page %d: %v", pg, err)
		}
		var got []store.GameRef
		for _, r := range v.Rows {
			got = append(got, store.GameRef{Kind: r.Kind, Board: r.Board})
		}
		want := all[from:min(from+boardsPerPage, len(all))]
		if v.Total != total || !slices.Equal(got, want) {
			t.Errorf("page %d: %d boards of %d:\n%v\nwant %d of %d:\n%v", pg, len(got), v.Total, got, len(want), total, want)
		}
		if wantNext := from+boardsPerPage < total; (v.Next > 0) != wantNext {
			t.Errorf("page %d: next page %d; want one: %v", pg, v.Next, wantNext)
		}
	}
}
