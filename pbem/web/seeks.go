package web

import (
	"fmt"
	"strings"

	"github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
)

// A seekRow is a board waiting for anyone to take its open seat, with the
// command that takes it.
type seekRow struct {
	Kind    string
	Board   int
	Seeker  string
	Options string
	Accept  string
}

// seeksOf are the newest boards of g waiting for a player, frontSeeks at
// most, reading the frontScan newest open seats at most: an invitation
// (its seats kept for the players it names) is no seek.
func seeksOf(tx *store.Tx, g rules.Game) ([]seekRow, error) {
	var seeks []seekRow
	open, _ := tx.KindBoards(g.Name(), store.OpenNewest, store.Page{Size: frontScan})
	for _, num := range open {
		if len(seeks) == frontSeeks {
			break
		}
		rec, err := tx.Game(g.Name(), num)
		if tx.PassOver(err) {
			continue // logged; the page shows the others
		}
		if err != nil {
			return nil, err
		}
		if rec.Over || len(board.Invited(rec)) > 0 {
			continue
		}
		seeker := board.Seeker(rec)
		if seeker == "" {
			continue
		}
		seeks = append(seeks, seekRow{Kind: rec.Kind, Board: rec.Board, Seeker: seeker, Options: strings.Join(rec.Options, " "),
			Accept: fmt.Sprintf("%s accept %d USERID PASSWORD", g.Name(), rec.Board)})
	}
	return seeks, nil
}
