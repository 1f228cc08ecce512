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
	st, err := Standings(c.r.tx, kind, pg, c.r.now)
	if err != nil {
		return err
	}
	type section struct {
		Title string
		Rows  []string
	}
	var sections []section
	for _, s := range st.Sections {
		sec := section{Title: s.Title}
		for _, x := range s.Rows {
			p := " "
			if x.Provisional {
				p = "P"
			}
			mark := ""
			if x.Robot {
				mark = "  (robot)"
			}
			sec.Rows = append(sec.Rows, fmt.Sprintf("%4d  %-16s %5.0f%s %5d %5d %5d  %6s %5d",
				x.Rank, x.User, math.Round(x.Rating), p, x.Won, x.Lost, x.Drawn, fmt.Sprintf("%d/%s", x.Active, x.Limit), x.Open)+mark)
		}
		sections = append(sections, sec)
	}
	lang := c.r.language()
	body, err := renderIn(lang, "standings", map[string]any{"Title": c.game.Title(), "Sections": sections,
		"Next": nextPageIn(lang, kind+" standings", pg, st.More)})
	if err != nil {
		return err
	}
	c.r.replyText(c.r.sender(), c.game.Title()+" standings", body)
	return nil
}

// StandingsPage is one page of a game's standings: its players in
// sections, and whether more pages follow.
type StandingsPage struct {
	Sections []StandingsSection
	More     bool
}

// A StandingsSection is Established, Provisional or Inactive, with its
// players ranked within the page.
type StandingsSection struct {
	Title string
	Rows  []Standing
}

// A Standing is one player's line of the standings.
type Standing struct {
	Rank             int
	User             string
	Rating           float64
	Won, Lost, Drawn int
	Provisional      bool
	Limit            string // as "GAME limit" tells it: "-" none, "0" refuses
	Active, Open     int    // boards in play; open seat boards he waits on
	Robot            bool
}

// Standings reads page pg (from 1) of the standings of kind, as the mail
// command "GAME standings page N" shows them and the web view too: one
// source, so that both list the same players. A page reads its 50
// players from the rating index and no other; a player whose record
// does not decode is passed over (the store logs it).
func Standings(tx *store.Tx, kind string, pg int, now time.Time) (StandingsPage, error) {
	type row struct {
		Standing
		last time.Time
	}
	ids, more := tx.RatedUsers(kind, page(pg, pageRows))
	var rows []*row
	for _, id := range ids {
		u, err := tx.User(id)
		if errNotFound(err) || tx.PassOver(err) {
			continue // an entry an older pbemd left behind, or a bad record
		}
		if err != nil {
			return StandingsPage{}, err
		}
		r := ratingOf(u, kind)
		x := &row{Standing: Standing{User: u.ID, Rating: r.Rating, Won: r.Won, Lost: r.Lost, Drawn: r.Drawn,
			Provisional: provisional(r), Limit: limitText(u, kind),
			Active: tx.ActiveCount(u.ID, kind), Robot: isRobot(u)}}
		// His seeks are among his boards in play, not his finished ones.
		x.Open = len(tx.SeekingBoards(u.ID, kind, maxLimit))
		if x.Active == 0 {
			// His last board decides if he is inactive: its head tells
			// when it ended, without its moves.
			last, _ := tx.UserBoards(u.ID, kind, nil, true, store.Page{Size: 1})
			recs, err := readEach(last, tx.GameHead)
			if err != nil && !tx.PassOver(err) {
				return StandingsPage{}, err
			}
			for _, g := range recs {
				x.last = g.Updated
			}
		}
		rows = append(rows, x)
	}
	var established, prov, inactive []Standing
	for _, x := range rows {
		switch {
		case x.Active == 0 && now.Sub(x.last) >= inactiveAfter:
			inactive = append(inactive, x.Standing)
		case x.Provisional:
			prov = append(prov, x.Standing)
		default:
			established = append(established, x.Standing)
		}
	}
	st := StandingsPage{More: more}
	for _, s := range []StandingsSection{
		{"Established", established},
		{"Provisional (fewer than 20 rated games)", prov},
		{"Inactive (no game for 90 days)", inactive},
	} {
		if len(s.Rows) == 0 {
			continue
		}
		for i := range s.Rows {
			s.Rows[i].Rank = i + 1
		}
		st.Sections = append(st.Sections, s)
	}
	return st, nil
}
