package pbem

import (
	"fmt"
	"math"
	"sort"
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
func (c *cmd) standings(args []string) error {
	if len(args) != 0 {
		return c.usage(c.game.Name() + " standings")
	}
	kind := c.game.Name()
	type row struct {
		id           string
		r            store.Rating
		limit        string
		active, open int
		last         time.Time
	}
	rows := map[string]*row{}
	err := c.r.tx.Users(func(u *store.User) error {
		if r, ok := u.Ratings[kind]; ok && r != nil && r.Games > 0 {
			rows[u.ID] = &row{id: u.ID, r: *r, limit: limitText(u, kind)}
		}
		return nil
	})
	if err != nil {
		return err
	}
	// Who plays or seeks a game now, from the boards in play.
	err = c.r.eachGame(kind, true, func(rec *store.Game) error {
		for _, id := range rec.Seats {
			if id == "" {
				continue
			}
			x := rows[id]
			if x == nil {
				u, err := c.r.tx.User(id)
				if errNotFound(err) {
					continue
				}
				if err != nil {
					return err
				}
				x = &row{id: u.ID, r: ratingOf(u, kind), limit: limitText(u, kind)}
				rows[id] = x
			}
			x.active++
			if contains(rec.Seats, "") {
				x.open++
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	// The last game of those with none in play decides if they are inactive.
	for _, x := range rows {
		if x.active > 0 {
			continue
		}
		refs, err := c.r.tx.GamesOf(x.id)
		if err != nil {
			return err
		}
		for _, ref := range refs {
			if ref.Kind != kind {
				continue
			}
			g, err := c.r.tx.Game(ref.Kind, ref.Board)
			if err != nil {
				return err
			}
			if g.Updated.After(x.last) {
				x.last = g.Updated
			}
		}
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
		sort.SliceStable(s.rows, func(i, j int) bool {
			a, b := s.rows[i], s.rows[j]
			if a.r.Rating != b.r.Rating {
				return a.r.Rating > b.r.Rating
			}
			return a.id < b.id
		})
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
	body, err := render("standings", map[string]any{"Title": c.game.Title(), "Sections": sections})
	if err != nil {
		return err
	}
	c.r.replyText(c.r.sender(), c.game.Title()+" standings", body)
	return nil
}
