package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/rules/catalog"
)

// getJSON gets target, checks that it answers status with JSON that any
// site may read, and decodes it into v (when not nil).
func getJSON(t *testing.T, s http.Handler, target string, status int, v any) string {
	t.Helper()
	r := get(t, s, target)
	b := body(t, r)
	if r.StatusCode != status || r.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET %s: %d %s, want %d JSON:\n%s", target, r.StatusCode, r.Header.Get("Content-Type"), status, b)
	}
	if r.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("GET %s: no Access-Control-Allow-Origin: *", target)
	}
	checkHeaders(t, target, r)
	checkPrivate(t, target, b)
	if v != nil {
		if err := json.Unmarshal([]byte(b), v); err != nil {
			t.Fatalf("GET %s: %v\n%s", target, err, b)
		}
	}
	return b
}

// TestAPI: every address of /api/v1 answers its JSON; a board and a user
// are the same bytes as the pages' .json, which the API serves too; the
// boards of a game page to their end.
func TestAPI(t *testing.T) {
	t.Parallel()
	p := sharedPlayed(t)
	s := newTestServer(p)

	var index map[string]string
	getJSON(t, s, "/api/v1/", 200, &index)
	if index["version"] != "v1" || index["games"] != "/api/v1/games" {
		t.Errorf("the index: %v", index)
	}

	var games struct{ Games []gameJS }
	getJSON(t, s, "/api/v1/games", 200, &games)
	if len(games.Games) != len(catalog.All()) {
		t.Fatalf("%d games listed, the catalog has %d", len(games.Games), len(catalog.All()))
	}
	for i, g := range catalog.All() {
		d := games.Games[i]
		if d.Name != g.Name() || d.Title != g.Title() || len(d.Options) != len(g.Options()) || d.LastBoard != p.live[g.Name()] {
			t.Errorf("game %d: %+v; want %s with %d options, last board %d", i, d, g.Name(), len(g.Options()), p.live[g.Name()])
		}
	}
	var ultima gameJS
	getJSON(t, s, "/api/v1/games/baroque", 200, &ultima)
	if ultima.Name != "ultima" || ultima.Boards != "/api/v1/games/ultima/boards" || ultima.Sides[0] != "white" {
		t.Errorf("ultima by its alias: %+v", ultima)
	}

	// A board, at a move and now: the bytes of /GAME/BOARD.json.
	u := p.games["ultima"]
	for _, q := range []string{"", "?move=0", "?move=3"} {
		api := getJSON(t, s, fmt.Sprintf("/api/v1/games/ultima/boards/%d%s", u, q), 200, nil)
		page := getJSON(t, s, fmt.Sprintf("/ultima/%d.json%s", u, q), 200, nil)
		if api != page {
			t.Errorf("board %d%s: the API and the page's JSON differ:\n%s\n%s", u, q, api, page)
		}
	}

	// The boards of a game, one a page, newest first, to the end.
	var seen []int
	next := "/api/v1/games/tanbo/boards?limit=1"
	for next != "" && len(seen) < 10 {
		var d boardsDoc
		getJSON(t, s, next, 200, &d)
		for _, b := range d.Boards {
			seen = append(seen, b.Board)
		}
		next = d.Next
	}
	if fmt.Sprint(seen) != fmt.Sprintf("[%d %d]", p.live["tanbo"], p.games["tanbo"]) {
		t.Errorf("the tanbo boards by pages of one: %v", seen)
	}
	var all boardsDoc
	getJSON(t, s, "/api/v1/games/tanbo/boards", 200, &all)
	if len(all.Boards) != 2 || all.Next != "" || all.Boards[1].Status != "over" || all.Boards[1].Result == "" || all.Boards[0].ToMove == "" ||
		all.Boards[0].Players[0].User != "alice" || all.Boards[0].URL != fmt.Sprintf("/api/v1/games/tanbo/boards/%d", all.Boards[0].Board) {
		t.Errorf("the tanbo boards: %+v", all)
	}
	var past boardsDoc
	if getJSON(t, s, "/api/v1/games/tanbo/boards?before=101", 200, &past); len(past.Boards) != 0 || past.Next != "" {
		t.Errorf("the boards before the first: %+v", past)
	}

	var st standingsDoc
	getJSON(t, s, "/api/v1/games/ultima/standings", 200, &st)
	if st.Game != "ultima" || st.Page != 1 || len(st.Sections) == 0 || len(st.Sections[0].Players) != 2 ||
		st.Sections[0].Players[0].User != "alice" || st.Sections[0].Players[0].Rank != 1 || st.Next != "" {
		t.Errorf("the ultima standings: %+v", st)
	}

	var alice userDoc
	api := getJSON(t, s, "/api/v1/users/alice", 200, &alice)
	if page := getJSON(t, s, "/users/alice.json", 200, nil); api != page {
		t.Errorf("alice in the API and in /users/alice.json differ:\n%s\n%s", api, page)
	}
	if alice.User != "alice" || len(alice.Ratings) != len(catalog.All()) || alice.Total != 2*len(catalog.All()) ||
		len(alice.Boards) != alice.Total || alice.Page != 1 || alice.Next != "" {
		t.Errorf("alice: %+v", alice)
	}
	if getJSON(t, s, "/api/v1/users/ALICE", 200, nil) != api {
		t.Errorf("a user id in capitals is another user")
	}
}

// TestAPIRefuses: hostile and mistaken addresses are refused with a JSON
// error saying what is wrong, before any costly read.
func TestAPIRefuses(t *testing.T) {
	t.Parallel()
	p := sharedPlayed(t)
	s := newTestServer(p)
	u := p.games["ultima"]
	for _, c := range []struct {
		path   string
		status int
		want   string
	}{
		{fmt.Sprintf("/api/v1/games/ultima/boards/%d?move=999999999999", u), 400, "has moves 0 to"},
		{fmt.Sprintf("/api/v1/games/ultima/boards/%d?move=-1", u), 400, "has moves 0 to"},
		{fmt.Sprintf("/api/v1/games/ultima/boards/%d?move=1e3", u), 400, "has moves 0 to"},
		{fmt.Sprintf("/api/v1/games/ultima/boards/%d?move=1&move=2", u), 400, "given 2 times"},
		{fmt.Sprintf("/api/v1/games/ultima/boards/%d?turn=1", u), 400, `takes only move, not "turn"`},
		{"/api/v1/games/ultima/boards/99999", 404, "There is no Ultima board 99999"},
		{"/api/v1/games/ultima/boards/-1", 404, "There is no Ultima board"},
		{"/api/v1/games/ultima/boards/" + strings.Repeat("9", 30), 404, "There is no Ultima board"},
		{"/api/v1/games/ultima/boards/101/moves", 404, "There is no API address"},
		{"/api/v1/games/chess", 404, `There is no game "chess"; the games are ultima`},
		{"/api/v1/games/chess/boards", 404, `There is no game "chess"`},
		{"/api/v1/games/tanbo/boards?limit=0", 400, `limit="0" is not a number from 1 to 50`},
		{"/api/v1/games/tanbo/boards?limit=51", 400, `limit="51" is not a number from 1 to 50`},
		{"/api/v1/games/tanbo/boards?limit=-5", 400, "limit"},
		{"/api/v1/games/tanbo/boards?before=0", 400, `before="0" is not a number`},
		{"/api/v1/games/tanbo/boards?before=99999999999", 400, "before="},
		{"/api/v1/games/tanbo/boards?after=101", 400, `takes only before and limit, not "after"`},
		{"/api/v1/games/tanbo/standings?page=0", 400, `page="0"`},
		{"/api/v1/games/tanbo/standings?page=99", 404, "there is no page 99"},
		{"/api/v1/games?x=1", 400, "takes no parameters"},
		{"/api/v1/users/nobody", 404, `There is no user "nobody"`},
		{"/api/v1/users/alice?page=99", 404, "there is no page 99"},
		{"/api/v1/users/" + strings.Repeat("a", 100), 404, "There is no user"},
		{"/api/v1/users/" + strings.Repeat("a", 600), 414, "too long"},
		{"/api/v1/users/alice?page=" + strings.Repeat("9", 80), 414, "too long"},
		{"/api/v2/games", 404, "There is no API address /api/v2/games"},
		{"/api/", 404, "There is no API address"},
	} {
		var e struct{ Error string }
		getJSON(t, s, c.path, c.status, &e)
		if !strings.Contains(e.Error, c.want) {
			t.Errorf("GET %s: error %q, want it to say %q", c.path, e.Error, c.want)
		}
	}

	// Only reading: a POST is refused in JSON; a browser's preflight is
	// answered, for If-None-Match.
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("POST", "/api/v1/games", strings.NewReader("{}")))
	if w.Code != 405 || w.Header().Get("Content-Type") != "application/json" {
		t.Errorf("POST: %d %s", w.Code, w.Header().Get("Content-Type"))
	}
	w = httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("OPTIONS", "/api/v1/games", nil))
	if w.Code != 204 || w.Header().Get("Access-Control-Allow-Headers") != "If-None-Match" || w.Header().Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("OPTIONS: %d %v", w.Code, w.Header())
	}
	w = httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("OPTIONS", "/ultima/", nil))
	if w.Code != 405 {
		t.Errorf("OPTIONS of a page: %d, want 405", w.Code)
	}
	// A page is no data: no site but this one reads it.
	if r := get(t, s, "/ultima/"); r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("a page allows other sites to read it")
	}
}

// TestAPIConditionalGet: each answer has an ETag and answers 304 to it;
// the ETag of a board changes with a move.
func TestAPIConditionalGet(t *testing.T) {
	t.Parallel()
	p := sharedPlayed(t)
	s := newTestServer(p)
	for _, target := range []string{"/api/v1/", "/api/v1/games", "/api/v1/games/tanbo", "/api/v1/games/tanbo/boards",
		"/api/v1/games/ultima/standings", "/api/v1/users/alice", fmt.Sprintf("/api/v1/games/ultima/boards/%d", p.games["ultima"])} {
		r := get(t, s, target)
		etag := r.Header.Get("ETag")
		if r.StatusCode != 200 || etag == "" || r.Header.Get("Cache-Control") != "no-cache" {
			t.Fatalf("GET %s: %d, ETag %q, Cache-Control %q", target, r.StatusCode, etag, r.Header.Get("Cache-Control"))
		}
		if r := get(t, s, target, "If-None-Match", etag); r.StatusCode != 304 {
			t.Errorf("GET %s with its ETag: %d, want 304", target, r.StatusCode)
		}
	}
	a := get(t, s, "/api/v1/games/ultima/boards/101?move=3").Header.Get("ETag")
	if b := get(t, s, "/api/v1/games/ultima/boards/101?move=4").Header.Get("ETag"); a == b {
		t.Errorf("the board after moves 3 and 4 has one ETag %s", a)
	}
}

// TestAPIRateLimit: the API counts against the same bucket of a client as
// the pages, and its refusal is JSON.
func TestAPIRateLimit(t *testing.T) {
	t.Parallel()
	p := sharedPlayed(t)
	s := New(p.db, Options{Now: func() time.Time { return p.now }, Rate: 1, Burst: 3})
	ask := func(target string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", target, nil)
		req.RemoteAddr = "192.0.2.7:40000"
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		return w
	}
	for i, target := range []string{"/api/v1/games", "/ultima/", "/tanbo/101.atom"} {
		if w := ask(target); w.Code != 200 {
			t.Fatalf("request %d (%s) of the burst: %d", i+1, target, w.Code)
		}
	}
	w := ask("/api/v1/games")
	var e struct{ Error string }
	if w.Code != 429 || w.Header().Get("Retry-After") == "" || json.Unmarshal(w.Body.Bytes(), &e) != nil || e.Error == "" {
		t.Errorf("beyond the burst: %d %s %q", w.Code, w.Header().Get("Retry-After"), w.Body.String())
	}
	if w := ask("/ultima/"); w.Code != 429 {
		t.Errorf("a page beyond the burst spent on the API: %d", w.Code)
	}
}
