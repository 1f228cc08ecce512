package web

import (
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
// the mail's sections and pages of 50.
func (s *Server) standingsPage(g rules.Game, q url.Values) (page, error) {
	st, pg, err := s.standings(g, q)
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
}

// standings reads the page of g's standings that ?page=N asks for (the
// first by default), for the page and the API: a page past the end is
// none.
func (s *Server) standings(g rules.Game, q url.Values) (pbem.StandingsPage, int, error) {
	var st pbem.StandingsPage
	if err := onlyParams(q, "page"); err != nil {
		return st, 0, err
	}
	pg := 1
	if q.Has("page") {
		n, err := number(q.Get("page"), "page", 1, math.MaxInt32)
		if err != nil {
			return st, 0, err
		}
		pg = n
	}
	err := s.db.View(func(tx *store.Tx) (err error) {
		st, err = pbem.Standings(tx, g.Name(), pg, s.opts.Now())
		return err
	})
	if err != nil {
		return st, 0, err
	}
	if pg > 1 && len(st.Sections) == 0 {
		return st, 0, notFound("The %s standings are shorter: there is no page %d of them.", g.Title(), pg)
	}
	return st, pg, nil
}

// rounded is a rating as pages print it, rounded as the standings mail
// rounds it.
func rounded(rating float64) int { return int(math.Round(rating)) }
