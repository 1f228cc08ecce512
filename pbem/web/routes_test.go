package web

import (
	"fmt"
	"strings"
	"testing"
)

// Every address comes to one of the site's answers, never to the default
// "404 page not found" of http.ServeMux: a user named like a game's page
// is that user, a game's address under an alias or without its slash
// leads to the game's own, and a path with more segments than any page is
// no page.
func TestRoutes(t *testing.T) {
	p := sharedPlayed(t)
	s := newTestServer(p)
	u := p.games["ultima"]
	for _, c := range []struct {
		path   string
		status int
		want   string // in the body, or the Location of a redirect
	}{
		{"/", 200, `href="/ultima/"`},
		{"/style.css", 200, "{"},
		{"/ultima/", 200, fmt.Sprintf(`href="/ultima/%d"`, u)},
		{"/ultima/standings", 200, `href="/users/alice"`},
		{fmt.Sprintf("/ultima/%d", u), 200, "Ultima Board"},
		{fmt.Sprintf("/ultima/%d.svg", u), 200, "<svg"},
		{fmt.Sprintf("/ultima/%d.json", u), 200, `"game": "ultima"`},
		{"/users/alice", 200, "Ratings"},
		{"/users/standings", 404, "There is no user &#34;standings&#34;"},
		{"/users/a%2Fb", 404, "There is no user &#34;a/b&#34;"},
		{"/users/a/b", 404, "There is no user &#34;a/b&#34;"},
		{"/ultima", 301, "/ultima/"},
		{"/tanbo?before=5", 301, "/tanbo/?before=5"},
		// A path not in its clean form goes to the clean one, as
		// http.ServeMux sends it (307).
		{"/ultima//standings", 307, "/ultima/standings"},
		{"/ultima/../users/alice", 307, "/users/alice"},
		{"/ULTIMA/standings?page=2", 301, "/ultima/standings?page=2"},
		{fmt.Sprintf("/baroque/%d.json", u), 301, fmt.Sprintf("/ultima/%d.json", u)},
		{"/ultima/standings/x", 404, "There is no page /ultima/standings/x here"},
		{fmt.Sprintf("/ultima/%d.json/x", u), 404, "There is no page"},
		{"/users", 404, "There is no page /users here"},
		{"/style.css/x", 404, "There is no page"},
		{"/%00", 404, "There is no page"},
		{fmt.Sprintf("/baroque/%d.atom", u), 301, fmt.Sprintf("/ultima/%d.atom", u)},
		{fmt.Sprintf("/ultima/%d.atom", u), 200, "<feed"},
		{"/users/alice/todo.atom", 404, "There is no such feed"},
		{"/users/alice/todo.atom/x", 404, "There is no user"},
		{"/api/v1/games", 200, `"name": "ultima"`},
		{"/api/v1", 307, "/api/v1/"},
		{"/api/v1/games/", 404, "There is no API address"},
	} {
		r := get(t, s, c.path)
		b := body(t, r)
		got := b
		if r.StatusCode == 301 || r.StatusCode == 307 {
			got = r.Header.Get("Location")
		}
		if r.StatusCode != c.status || !strings.Contains(got, c.want) || strings.Contains(b, "404 page not found") {
			t.Errorf("GET %s: %d %q, want %d with %q", c.path, r.StatusCode, got, c.status, c.want)
		}
		checkHeaders(t, c.path, r)
	}
	// The style sheet is kept a day, as its route says; pages are asked
	// for again each time (with their ETag).
	if cc := get(t, s, "/style.css").Header.Get("Cache-Control"); cc != "public, max-age=86400" {
		t.Errorf("/style.css: Cache-Control %q", cc)
	}
}
