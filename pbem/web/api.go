package web

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// The JSON API (docs/api.md): what the pages show, as data, under a
// versioned prefix whose addresses and fields keep their meaning; a
// change that would break a client comes as /api/v2. It is served as the
// pages are, by the same Server: every answer a bounded read of the
// store, with an ETag, and counted against the client's requests by the
// one limiter. Its errors are JSON too (fail), and any site may read it
// (ServeHTTP's CORS headers): it is public data, and there is no cookie
// or login whose use another site could borrow.

const apiPrefix = "/api/v1"

// apiRoutes adds the API's addresses to mux.
func (s *Server) apiRoutes(mux *http.ServeMux) {
	api := func(pattern string, f func(*http.Request) (page, error)) {
		mux.HandleFunc("GET "+apiPrefix+pattern, s.serve(f))
	}
	api("/{$}", func(r *http.Request) (page, error) {
		if err := onlyParams(r.URL.Query()); err != nil {
			return page{}, err
		}
		return jsonPage(map[string]string{
			"version":     "v1",
			"games":       apiPrefix + "/games",
			"game":        apiPrefix + "/games/{game}",
			"boards":      apiPrefix + "/games/{game}/boards",
			"board":       apiPrefix + "/games/{game}/boards/{board}",
			"standings":   apiPrefix + "/games/{game}/standings",
			"user":        apiPrefix + "/users/{user}",
			"tournaments": apiPrefix + "/tournaments",
			"tournament":  apiPrefix + "/tournaments/{name}",
		})
	})
	api("/games", func(r *http.Request) (page, error) {
		if err := onlyParams(r.URL.Query()); err != nil {
			return page{}, err
		}
		var games []gameJS
		err := s.db.View(func(tx *store.Tx) error {
			for _, g := range catalog.All() {
				games = append(games, gameJSON(tx, g))
			}
			return nil
		})
		if err != nil {
			return page{}, err
		}
		return jsonPage(map[string][]gameJS{"games": games})
	})
	api("/games/{game}", func(r *http.Request) (page, error) {
		g, err := apiGame(r)
		if err != nil {
			return page{}, err
		}
		if err := onlyParams(r.URL.Query()); err != nil {
			return page{}, err
		}
		var d gameJS
		err = s.db.View(func(tx *store.Tx) error { d = gameJSON(tx, g); return nil })
		if err != nil {
			return page{}, err
		}
		return jsonPage(d)
	})
	api("/games/{game}/boards", func(r *http.Request) (page, error) {
		g, err := apiGame(r)
		if err != nil {
			return page{}, err
		}
		return s.apiBoards(g, r.URL.Query())
	})
	api("/games/{game}/boards/{board}", func(r *http.Request) (page, error) {
		g, err := apiGame(r)
		if err != nil {
			return page{}, err
		}
		return s.boardFile(g, r.PathValue("board"), r.URL.Query(), "json")
	})
	api("/games/{game}/standings", func(r *http.Request) (page, error) {
		g, err := apiGame(r)
		if err != nil {
			return page{}, err
		}
		pg, err := standingsNumber(r.URL.Query())
		if err != nil {
			return page{}, err
		}
		return s.cache.get(apiStandingsPath(g, pg), s.opts.Now(), func() (page, error) {
			return s.standingsJSON(g, pg)
		})
	})
	api("/users/{name}", func(r *http.Request) (page, error) {
		v, err := s.readUser(r.PathValue("name"), r.URL.Query())
		if err != nil {
			return page{}, err
		}
		return jsonPage(userJSON(v))
	})
	api("/tournaments", func(r *http.Request) (page, error) { return s.tournamentsJSON(r.URL.Query()) })
	api("/tournaments/{name}", func(r *http.Request) (page, error) {
		name := r.PathValue("name")
		if strings.HasSuffix(name, ".json") {
			return page{}, notFound("There is no tournament %s; the API names a tournament without .json.", name)
		}
		return s.tournamentPage(name+".json", r.URL.Query())
	})
	// Any other address under /api/ is none, answered in JSON.
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("There is no API address %s; the API's addresses are listed at %s/ and in docs/api.md.", r.URL.Path, apiPrefix))
	})
}

// apiGame is the game the address names, by its name or an alias.
func apiGame(r *http.Request) (rules.Game, error) {
	name := r.PathValue("game")
	g, ok := catalog.Lookup(name)
	if !ok {
		return nil, notFound("There is no game %q; the games are %s.", name, strings.Join(catalog.Names(), ", "))
	}
	return g, nil
}

// gameJS is a game offered, with the options a challenge may give it.
type gameJS struct {
	Name      string     `json:"name"`
	Title     string     `json:"title"`
	Aliases   []string   `json:"aliases"`
	Sides     []string   `json:"sides"` // in seat order, lower case; the first moves first
	Options   []optionJS `json:"options"`
	LastBoard int        `json:"last_board"` // the highest board number given out, 0 for none
	Boards    string     `json:"boards"`     // the address of its boards
	Standings string     `json:"standings"`
}

type optionJS struct {
	Word    string   `json:"word"` // as a challenge writes it: "-size=9|13|19"
	Name    string   `json:"name"`
	Values  []string `json:"values"` // none for a flag
	Default string   `json:"default,omitempty"`
	Help    string   `json:"help"`
}

func gameJSON(tx *store.Tx, g rules.Game) gameJS {
	d := gameJS{Name: g.Name(), Title: g.Title(), Aliases: g.Aliases(), Options: []optionJS{},
		LastBoard: tx.LastBoard(g.Name()),
		Boards:    apiPrefix + "/games/" + g.Name() + "/boards", Standings: apiPrefix + "/games/" + g.Name() + "/standings"}
	if d.Aliases == nil {
		d.Aliases = []string{}
	}
	for _, side := range g.Sides() {
		d.Sides = append(d.Sides, strings.ToLower(side))
	}
	for _, o := range g.Options() {
		values := o.Values
		if values == nil {
			values = []string{}
		}
		d.Options = append(d.Options, optionJS{Word: o.Word(), Name: o.Name, Values: values, Default: o.Default, Help: o.Help})
	}
	return d
}

// boardsDoc is a page of a game's boards, the newest first.
type boardsDoc struct {
	Game   string      `json:"game"`
	Boards []summaryJS `json:"boards"`
	Next   string      `json:"next,omitempty"` // the address of the next page
}

// apiBoards is a page of g's boards, the newest first, as the game's page
// pages them: ?before=N gives those numbered below N, ?limit=N at most N
// of them (1 to 50; 50 by default).
func (s *Server) apiBoards(g rules.Game, q url.Values) (page, error) {
	if err := onlyParams(q, "before", "limit"); err != nil {
		return page{}, err
	}
	limit := boardsPerPage
	if q.Has("limit") {
		n, err := number(q.Get("limit"), "limit", 1, boardsPerPage)
		if err != nil {
			return page{}, err
		}
		limit = n
	}
	d := boardsDoc{Game: g.Name(), Boards: []summaryJS{}}
	err := s.db.View(func(tx *store.Tx) error {
		before := tx.LastBoard(g.Name()) + 1
		if q.Has("before") {
			n, err := number(q.Get("before"), "before", 1, math.MaxInt32)
			if err != nil {
				return err
			}
			before = n
		}
		// One more than the page tells whether a next page has any.
		recs, err := tx.GamesBefore(g.Name(), before, limit+1)
		if err != nil {
			return err
		}
		if len(recs) > limit {
			recs = recs[:limit]
			d.Next = fmt.Sprintf("%s/games/%s/boards?before=%d&limit=%d", apiPrefix, g.Name(), recs[limit-1].Board, limit)
		}
		for _, rec := range recs {
			d.Boards = append(d.Boards, summaryJSON(g, rec))
		}
		return nil
	})
	if err != nil {
		return page{}, err
	}
	return jsonPage(d)
}

// standingsDoc is a page of a game's standings, as the mail and the page
// give it: its players in sections, ranked within each.
type standingsDoc struct {
	Game     string      `json:"game"`
	Page     int         `json:"page"`
	Sections []sectionJS `json:"sections"`
	Next     string      `json:"next,omitempty"`
}

type sectionJS struct {
	Title   string       `json:"title"` // "Established", "Provisional" or "Inactive"
	Players []standingJS `json:"players"`
}

type standingJS struct {
	Rank        int    `json:"rank"`
	User        string `json:"user"`
	Rating      int    `json:"rating"`
	Provisional bool   `json:"provisional"`
	Won         int    `json:"won"`
	Lost        int    `json:"lost"`
	Drawn       int    `json:"drawn"`
	Active      int    `json:"active"` // boards in play
	Limit       string `json:"limit"`  // as "GAME limit" tells it: "-" none, "0" refuses challenges
	Open        int    `json:"open"`   // open seat boards he waits on
	Robot       bool   `json:"robot,omitempty"`
}

// isData reports whether path is an address of data (the API, or a
// page's .json): its errors are JSON, and any site may read it.
func isData(path string) bool {
	return strings.HasPrefix(path, "/api/") || strings.HasSuffix(path, ".json")
}

// apiStandingsPath is the API's address of page pg of g's standings.
func apiStandingsPath(g rules.Game, pg int) string {
	return fmt.Sprintf("%s/games/%s/standings?page=%d", apiPrefix, g.Name(), pg)
}

// standingsJSON is page pg of g's standings as the API gives it.
func (s *Server) standingsJSON(g rules.Game, pg int) (page, error) {
	st, err := s.standings(g, pg)
	if err != nil {
		return page{}, err
	}
	d := standingsDoc{Game: g.Name(), Page: pg, Sections: []sectionJS{}}
	for _, sec := range st.Sections {
		js := sectionJS{Title: sec.Title, Players: []standingJS{}}
		for _, x := range sec.Rows {
			js.Players = append(js.Players, standingJS{Rank: x.Rank, User: x.User, Rating: rounded(x.Rating),
				Provisional: x.Provisional, Won: x.Won, Lost: x.Lost, Drawn: x.Drawn,
				Active: x.Active, Limit: x.Limit, Open: x.Open, Robot: x.Robot})
		}
		d.Sections = append(d.Sections, js)
	}
	if st.More {
		d.Next = apiStandingsPath(g, pg+1)
	}
	return jsonPage(d)
}
