package web

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"strings"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/tournament"
	"github.com/pbemd/pbemd/store"
)

// tournamentsPerPage is how many tournaments a page of /tournaments/ lists.
const tournamentsPerPage = 50

type tournamentsView struct {
	chrome
	Rows       []*store.Tournament
	Page       int
	Prev, Next int // 0 when none
}

// tournamentsPage lists the tournaments by name, a page at a time, as
// "tournament list page N" does.
func (s *Server) tournamentsPage(q url.Values) (page, error) {
	v, err := s.tournamentsList(q)
	if err != nil {
		return page{}, err
	}
	v.chrome = s.chrome("Tournaments")
	return s.html("tournaments", v)
}

// tournamentsList reads the page of the tournaments list that q asks for:
// the page and the API's list read it alike.
func (s *Server) tournamentsList(q url.Values) (tournamentsView, error) {
	if err := onlyParams(q, "page"); err != nil {
		return tournamentsView{}, err
	}
	v := tournamentsView{Page: 1}
	if q.Has("page") {
		n, err := number(q.Get("page"), "page", 1, math.MaxInt32/tournamentsPerPage)
		if err != nil {
			return tournamentsView{}, err
		}
		v.Page = n
	}
	err := s.db.View(func(tx *store.Tx) (err error) {
		// One more than a page tells whether there is a next.
		v.Rows, err = tx.Tournaments((v.Page-1)*tournamentsPerPage, tournamentsPerPage+1)
		return err
	})
	if err != nil {
		return tournamentsView{}, err
	}
	if v.Page > 1 && len(v.Rows) == 0 {
		return tournamentsView{}, notFound("There are fewer tournaments: no page %d of them.", v.Page)
	}
	if len(v.Rows) > tournamentsPerPage {
		v.Rows, v.Next = v.Rows[:tournamentsPerPage], v.Page+1
	}
	if v.Page > 1 {
		v.Prev = v.Page - 1
	}
	return v, nil
}

// tournamentsJSON is the API's list of tournaments: each as the page's row
// tells it, and the address of the next page.
func (s *Server) tournamentsJSON(q url.Values) (page, error) {
	v, err := s.tournamentsList(q)
	if err != nil {
		return page{}, err
	}
	type rowJS struct {
		Name     string `json:"name"`
		Game     string `json:"game"`
		Kind     string `json:"kind"`
		Phase    string `json:"phase"`
		Entrants int    `json:"entrants"`
		Round    int    `json:"round"`
		URL      string `json:"url"`
	}
	d := struct {
		Page        int     `json:"page"`
		Tournaments []rowJS `json:"tournaments"`
		Next        string  `json:"next,omitempty"`
	}{Page: v.Page, Tournaments: []rowJS{}}
	for _, t := range v.Rows {
		d.Tournaments = append(d.Tournaments, rowJS{Name: t.Name, Game: t.Game, Kind: t.Kind, Phase: t.Phase,
			Entrants: t.Entrants, Round: t.Round, URL: apiPrefix + "/tournaments/" + url.PathEscape(t.Name)})
	}
	if v.Next != 0 {
		d.Next = fmt.Sprintf("%s/tournaments?page=%d", apiPrefix, v.Next)
	}
	return jsonPage(d)
}

// A tournamentDoc is a tournament as /tournaments/NAME.json gives it, and
// what its page shows: its settings, players, standings, and the games of
// one round (the one in play unless ?round= asks for another).
type tournamentDoc struct {
	chrome    `json:"-"`
	Name      string        `json:"name"`
	Game      string        `json:"game"`
	Kind      string        `json:"kind"`
	About     string        `json:"about"`
	Organiser string        `json:"organiser"`
	Phase     string        `json:"phase"` // open, running or over
	StartAt   string        `json:"start_at,omitempty"`
	Season    int           `json:"season,omitempty"`
	Round     int           `json:"round"` // the round in play
	Winner    string        `json:"winner,omitempty"`
	Entrants  []entrantJS   `json:"entrants"`
	Standings []tStandingJS `json:"standings"`
	Shown     int           `json:"shown_round"` // the round of games
	Played    []tGameJS     `json:"games"`
	Rounds    []int         `json:"-"` // the rounds the page links to
	Ladder    []string      `json:"ladder,omitempty"`
	Groups    []standingsJS `json:"-"`
}

type entrantJS struct {
	User      string `json:"user"`
	Rating    int    `json:"rating"`
	Group     int    `json:"group,omitempty"`
	Withdrawn bool   `json:"withdrawn,omitempty"`
}

type tStandingJS struct {
	Group     int                `json:"group"`
	Rank      int                `json:"rank"`
	User      string             `json:"user"`
	Withdrawn bool               `json:"withdrawn,omitempty"`
	Points    float64            `json:"points"`
	Played    int                `json:"played"`
	Won       int                `json:"won"`
	Drawn     int                `json:"drawn"`
	Lost      int                `json:"lost"`
	TieBreaks map[string]float64 `json:"tie_breaks"`
	Values    []float64          `json:"-"` // the tie-breaks in order, for the page
}

// standingsJS is a group of the standings, for the page.
type standingsJS struct {
	Title     string
	TieBreaks []string
	Rows      []tStandingJS
}

type tGameJS struct {
	Season int    `json:"season,omitempty"`
	Round  int    `json:"round"`
	Group  int    `json:"group,omitempty"`
	White  string `json:"white"`
	Black  string `json:"black,omitempty"` // none for a bye
	Result string `json:"result"`
	Board  int    `json:"board,omitempty"`
}

// tournamentPage is a tournament's page, or its data (NAME.json). It
// reads the tournament's one record.
func (s *Server) tournamentPage(name string, q url.Values) (page, error) {
	if err := onlyParams(q, "round"); err != nil {
		return page{}, err
	}
	name, asJSON := strings.CutSuffix(name, ".json")
	var t *pbem.TournamentView
	err := s.db.View(func(tx *store.Tx) (err error) {
		t, err = pbem.ReadTournament(tx, name)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return page{}, notFound("There is no tournament %s; the tournaments are listed at /tournaments/.", name)
	}
	if err != nil {
		return page{}, err
	}
	st := t.State
	d := tournamentDoc{chrome: s.chrome("Tournament " + t.Rec.Name), Name: t.Rec.Name, Game: t.Rec.Game, Kind: t.Rec.Kind,
		About: t.About, Organiser: t.Rec.Organiser, Phase: t.Rec.Phase, Season: st.Season, Round: st.Round,
		Winner: st.Winner(), Ladder: st.Ladder, Entrants: []entrantJS{}, Standings: []tStandingJS{}, Played: []tGameJS{}}
	if !t.Rec.StartAt.IsZero() {
		d.StartAt = t.Rec.StartAt.UTC().Format(timeLayout)
	}
	if !st.Done() {
		d.Winner = ""
	}
	for _, e := range st.Entrants {
		d.Entrants = append(d.Entrants, entrantJS{User: e.ID, Rating: e.Rating, Group: e.Group, Withdrawn: e.Withdrawn})
	}
	if st.Started {
		for _, sd := range st.Standings() {
			row := tStandingJS{Group: sd.Group, Rank: sd.Rank, User: sd.ID, Withdrawn: sd.Withdrawn, Points: sd.Points,
				Played: sd.Played, Won: sd.Wins, Drawn: sd.Draws, Lost: sd.Losses, TieBreaks: map[string]float64{}}
			var names []string
			for _, tb := range sd.TieBreaks {
				row.TieBreaks[tb.Name] = tb.Value
				row.Values = append(row.Values, tb.Value)
				names = append(names, tb.Name)
			}
			d.Standings = append(d.Standings, row)
			if len(d.Groups) == 0 || d.Groups[len(d.Groups)-1].Rows[0].Group != sd.Group {
				d.Groups = append(d.Groups, standingsJS{Title: pbem.GroupTitle(st, sd.Group), TieBreaks: names})
			}
			gr := &d.Groups[len(d.Groups)-1]
			gr.Rows = append(gr.Rows, row)
		}
	}
	// The games of one round of the season in play; a ladder's are its
	// challenges, numbered as rounds, all of them.
	ladder := st.Settings.Kind == tournament.Ladder
	d.Shown = st.Round
	if q.Has("round") && !ladder {
		n, err := number(q.Get("round"), "round", 1, max(st.Round, 1))
		if err != nil {
			return page{}, err
		}
		d.Shown = n
	}
	for r := 1; r <= st.Round && !ladder; r++ {
		d.Rounds = append(d.Rounds, r)
	}
	for _, g := range st.Games {
		if g.Season != st.Season || !ladder && g.Round != d.Shown {
			continue
		}
		d.Played = append(d.Played, tGameJS{Season: g.Season, Round: g.Round, Group: g.Group, White: g.White, Black: g.Black,
			Result: g.Result.String(), Board: g.Board})
	}
	if asJSON {
		return jsonPage(d)
	}
	return s.html("tournament", d)
}
