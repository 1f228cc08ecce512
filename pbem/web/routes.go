package web

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
)

// routes are the pages by address: /, /style.css, /users/NAME, /GAME/,
// /GAME/standings, /GAME/BOARD, /GAME/BOARD.svg, /GAME/BOARD.json and the
// record /GAME/BOARD.pgn (and .sgf, records.go), /tournaments/,
// /tournaments/NAME and /tournaments/NAME.json. A game's pages are
// registered under its own name, so that no pattern of a
// game overlaps /users/NAME; every other address, a game's alias among
// them, comes to s.elsewhere.
// The feeds are /GAME/BOARD.atom and /users/NAME/todo.atom (atom.go),
// the API is under /api/v1/ (api.go).
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.serve(func(*http.Request) (page, error) { return s.frontPage() }))
	mux.HandleFunc("GET /style.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=86400")
		s.send(w, r, page{body: styleCSS, ctype: "text/css; charset=utf-8"})
	})
	mux.HandleFunc("GET /users/{name}", s.serve(func(r *http.Request) (page, error) {
		return s.userPage(r.PathValue("name"), r.URL.Query())
	}))
	mux.HandleFunc("GET /users/{name}/todo.atom", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "private, no-cache") // keyed: no shared cache keeps it
		p, err := s.todoFeed(r.PathValue("name"), r.URL.Query(), s.base(r))
		s.answer(w, r, p, err)
	})
	mux.HandleFunc("GET /tournaments", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/tournaments/", http.StatusMovedPermanently)
	})
	mux.HandleFunc("GET /tournaments/{$}", s.serve(func(r *http.Request) (page, error) { return s.tournamentsPage(r.URL.Query()) }))
	mux.HandleFunc("GET /tournaments/{name}", s.serve(func(r *http.Request) (page, error) {
		return s.tournamentPage(r.PathValue("name"), r.URL.Query())
	}))
	for _, g := range catalog.All() {
		// Without it ServeMux would answer "/GAME" with a redirect of
		// its own, a 307; the site's addresses move for good (301).
		mux.HandleFunc("GET /"+g.Name(), s.elsewhere)
		mux.HandleFunc("GET /"+g.Name()+"/{$}", s.serve(func(r *http.Request) (page, error) {
			return s.gamePage(g, r.URL.Query())
		}))
		mux.HandleFunc("GET /"+g.Name()+"/standings", s.serve(func(r *http.Request) (page, error) {
			return s.standingsPage(g, r.URL.Query())
		}))
		mux.HandleFunc("GET /"+g.Name()+"/{board}", s.serve(func(r *http.Request) (page, error) {
			if num, ok := strings.CutSuffix(r.PathValue("board"), ".atom"); ok {
				return s.boardFeed(g, num, r.URL.Query(), s.base(r))
			}
			return s.boardPages(g, r.PathValue("board"), r.URL.Query())
		}))
	}
	s.apiRoutes(mux)
	mux.HandleFunc("/", s.elsewhere)
	return mux
}

// serve answers a request with the page f makes of it.
func (s *Server) serve(f func(*http.Request) (page, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, err := f(r)
		s.answer(w, r, p, err)
	}
}

// boardPages is a board's page, or its drawing (name.svg), data
// (name.json) or record (name.pgn, name.sgf): a pattern's wildcard is a
// whole segment of the path.
func (s *Server) boardPages(g rules.Game, name string, q url.Values) (page, error) {
	if num, ok := strings.CutSuffix(name, ".svg"); ok {
		return s.boardFile(g, num, q, "svg")
	}
	if num, ok := strings.CutSuffix(name, ".json"); ok {
		return s.boardFile(g, num, q, "json")
	}
	for _, ext := range []string{"pgn", "sgf"} {
		if num, ok := strings.CutSuffix(name, "."+ext); ok {
			return s.recordFile(g, num, q, ext)
		}
	}
	return s.boardPage(g, name, q)
}

// elsewhere answers the addresses no pattern names: a game's address
// without its slash, or under an alias or another case ("/ultima",
// "/Baroque/101"), leads to the game's own address; a user id with a
// slash is no user; anything else is no page.
func (s *Server) elsewhere(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if name, ok := strings.CutPrefix(path, "/users/"); ok {
		p, err := s.userPage(name, r.URL.Query())
		s.answer(w, r, p, err)
		return
	}
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	g, ok := catalog.Lookup(parts[0])
	if !ok || len(parts) > 2 || len(parts) == 2 && parts[0] == g.Name() {
		s.answer(w, r, page{}, notFound("There is no page %s here; the games are %s.", path, strings.Join(catalog.Names(), ", ")))
		return
	}
	target := "/" + g.Name() + "/" + strings.Join(parts[1:], "/")
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	http.Redirect(w, r, target, http.StatusMovedPermanently)
}
