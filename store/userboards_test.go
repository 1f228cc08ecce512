package store

import "testing"

// CountUserBoards counts a player's boards, finished and not, in any
// case of his id, and no one else's: not those of a player whose id
// begins with his.
func TestCountUserBoards(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	putGame(t, db, &Game{Kind: "tanbo", Board: 101, Seats: []string{"ann", "bo"}})
	putGame(t, db, &Game{Kind: "ultima", Board: 101, Seats: []string{"bo", "ann"}, Over: true})
	putGame(t, db, &Game{Kind: "tanbo", Board: 102, Seats: []string{"anna", "bo"}})
	db.View(func(tx *Tx) error {
		for user, want := range map[string]int{"ann": 2, "ANN": 2, "anna": 1, "bo": 3, "carl": 0, "": 0} {
			if got := tx.CountUserBoards(user); got != want {
				t.Errorf("CountUserBoards(%q) = %d; want %d", user, got, want)
			}
		}
		return nil
	})
}
