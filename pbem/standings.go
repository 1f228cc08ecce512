package pbem

import (
	"fmt"
	"math"
	"time"

	"github.com/pbemd/pbemd/store"
)

// inactiveAfter is how long a player with no board in play stays in the
// Established or Provisional section after his last game ended.
const inactiveAfter = 90 * day

// <game> standings, or ratings: the players of this game by rating, in
// sections as pbmserv printed them: Established, Provisional (fewer than 20
// rated games; also who plays or seeks a first game) and Inactive (no board
// in play and none ended for 90 days). Each row has the active games and
// the limit, and the open seats the player waits on (he seeks a game).
//
// The standings come a page at a time from the store's rating index, the
// best first: a page reads its 50 players and no other, and splits them into
// the sections, ranked within each section of the page. A player who plays
// or seeks a first game of the kind is in the index at the start rating
// (the store keeps him there while he holds a seat on a board not over),
// so he is listed among the provisional with no game counted.
func (c *cmd) standings(args []string) error {
	args, pg, err := splitPage(args)
	if err != nil {
		return err
	}
	if len(args) != 0 {
		return c.usage()
	}
	kind := c.game.Name()
	type row struct {
		id           string
		r            store.Rating
		limit        string
		active, open int
		last         time.Time
	}
	pp := page(pg, pageRows)
	ids, more := c.r.tx.RatedUsers(kind, pp)
	var rows []*row
	for _, id := range ids {
		u, err := c.r.tx.User(id)
		if errNotFound(err) {
			continue // an entry an older pbemd left behind
		}
		if err != nil {
			return err
		}
		x := &row{id: u.ID, r: ratingOf(u, kind), limit: limitText(u, kind),
			active: c.r.tx.ActiveCount(u.ID, kind)}
		open, _ := c.r.tx.UserBoards(u.ID, kind, seatFilter("open"), false, store.Page{Size: maxLimit})
		x.open = len(open)
		if x.active == 0 {
			// His last board decides if he is inactive.
			last, _ := c.r.tx.UserBoards(u.ID, kind, nil, true, store.Page{Size: 1})
			recs, err := c.r.games(last)
			if err != nil {
				return err
			}
			for _, g := range recs {
				x.last = g.Updated
			}
		}
		rows = append(rows, x)
	}
	var established, prov, inactive []*row
	for _, x := range rows {
		switch {
		case x.active == 0 && c.r.now.Sub(x.last) >= inactiveAfter:
			inactive = append(inactive, x)
		case provisional(x.r):
			prov = append(prov, x)
		default:
			established = append(established, x)
		}
	}
	type section struct {
		Title string
		Rows  []string
	}
	var sections []section
	for _, s := range []struct {
		title string
		rows  []*row
	}{
		{"Established", established},
		{"Provisional (fewer than 20 rated games)", prov},
		{"Inactive (no game for 90 days)", inactive},
	} {
		if len(s.rows) == 0 {
			continue
		}
		sec := section{Title: s.title}
		for i, x := range s.rows {
			p := " "
			if provisional(x.r) {
				p = "P"
			}
			sec.Rows = append(sec.Rows, fmt.Sprintf("%4d  %-16s %5.0f%s %5d %5d %5d  %6s %5d",
				i+1, x.id, math.Round(x.r.Rating), p, x.r.Won, x.r.Lost, x.r.Drawn, fmt.Sprintf("%d/%s", x.active, x.limit), x.open)+c.r.robotMark(x.id))
		}
		sections = append(sections, sec)
	}
	body, err := render("standings", map[string]any{"Title": c.game.Title(), "Sections": sections,
		"Next": nextPage(kind+" standings", pg, more)})
	if err != nil {
		return err
	}
	c.r.replyText(c.r.sender(), c.game.Title()+" standings", body)
	return nil
}
