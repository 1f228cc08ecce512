package web

import (
	"fmt"
	"math"
	"net/url"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
)

type standingsView struct {
	chrome
	Game       rules.Game
	Sections   []pbem.StandingsSection
	Page       int
	Prev, Next int // 0 when none
}

// standingsPage is a page of a game's standings as the mail "GAME
// standings page N" gives it, from the same source: the rating index,
// which lists who plays or seeks a first game as well as the rated, in
// the mail's sections and pages of 50. Each page is kept a few seconds
// (pageCache): it reads fifty players' records and indexes.
func (s *Server) standingsPage(g rules.Game, q url.Values) (page, error) {
	pg, err := standingsNumber(q)
	if err != nil {
		return page{}, err
	}
	return s.cache.get(fmt.Sprintf("/%s/standings?page=%d", g.Name(), pg), s.opts.Now(), func() (page, error) {
		st, err := s.standings(g, pg)
		if err != nil {
			return page{}, err
		}
		v := standingsView{chrome: s.chrome(g.Title() + " standings"), Game: g, Page: pg, Sections: st.Sections}
		if v.Page > 1 {
			v.Prev = v.Page - 1
		}
		if st.More {
			v.Next = v.Page + 1
		}
		return s.html("standings", v)
	})
}

// standingsNumber is the page of standings that ?page=N asks for, the
// first by default.
func standingsNumber(q url.Values) (int, error) {
	if err := onlyParams(q, "page"); err != nil {
		return 0, err
	}
	if !q.Has("page") {
		return 1, nil
	}
	return number(q.Get("page"), "page", 1, math.MaxInt32)
}

// standings reads page pg of g's standings, for the page and the API: a
// page past the end is none.
func (s *Server) standings(g rules.Game, pg int) (pbem.StandingsPage, error) {
	var st pbem.StandingsPage
	err := s.db.View(func(tx *store.Tx) (err error) {
		st, err = pbem.Standings(tx, g.Name(), pg, s.opts.Now())
		return err
	})
	if err != nil {
		return st, err
	}
	if pg > 1 && len(st.Sections) == 0 {
		return st, notFound("The %s standings are shorter: there is no page %d of them.", g.Title(), pg)
	}
	return st, nil
}

// rounded is a rating as pages print it, rounded as the standings mail
// rounds it.
func rounded(rating float64) int { return int(math.Round(rating)) }
