package web

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/store"
)

// tournamentPlayed is a store with a round robin of four in its second
// round, its first decided by forfeits (each player to move resigned
// before a first move), and an open tournament, made by mail.
func tournamentPlayed(t *testing.T) *played {
	t.Helper()
	h := pbemtest.New(t)
	h.Service = pbem.New(h.DB, pbem.Config{Address: pbemtest.Address, Now: h.Clock,
		Log: slog.New(slog.DiscardHandler), Limits: pbem.Limits{Mails: 1 << 30}, Auth: pbemtest.Auth()})
	ids := []string{"alice", "bob", "carol", "dave"}
	h.SignUp(ids...)
	mail := func(id, subject string) { h.Mail(id+"@example.org", subject, "") }
	mail("alice", "tournament create Spring tanbo rr -size=9 alice pw-alice")
	mail("bob", "tournament create Later tanbo swiss rounds=3 bob pw-bob")
	for _, id := range ids {
		mail(id, fmt.Sprintf("tournament join Spring %s %s", id, pbemtest.Password(id)))
	}
	mail("alice", "tournament start Spring alice pw-alice")
	round := func() []int {
		var boards []int
		h.DB.View(func(tx *store.Tx) error {
			tv, err := pbem.ReadTournament(tx, "Spring")
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range tv.State.Pending() {
				boards = append(boards, g.Board)
			}
			return nil
		})
		return boards
	}
	for _, num := range round() {
		rec := gameOf(t, h.DB, "tanbo", num)
		who := rec.Seats[rec.ToMove]
		mail(who, fmt.Sprintf("tanbo resign %d %s %s", num, who, pbemtest.Password(who)))
	}
	if len(round()) != 2 {
		t.Fatalf("round 2 did not start")
	}
	return &played{db: h.DB, now: h.Now}
}

// A tournament's page, the list and the JSON, and the navigation of
// every page to them.
func TestTournamentPages(t *testing.T) {
	t.Parallel()
	p := tournamentPlayed(t)
	s := newTestServer(p)
	for path, wants := range map[string][]string{
		"/tournaments/":               {`href="/tournaments/Spring"`, `href="/tournaments/Later"`, "running", "open"},
		"/tournaments/Spring":         {"Sonneborn-Berger", `href="/users/alice"`, `href="/tanbo/`, "Round 2", `href="?round=1"`, "options -size=9", `href="/tournaments/Spring.json"`},
		"/tournaments/spring?round=1": {"Round 1", "forfeits"},
		"/tournaments/Later":          {"Open for entries", "tournament join Later USERID PASSWORD"},
	} {
		r := get(t, s, path)
		b := body(t, r)
		if r.StatusCode != 200 {
			t.Errorf("GET %s: status %d:\n%s", path, r.StatusCode, b)
			continue
		}
		for _, w := range wants {
			if !strings.Contains(b, w) {
				t.Errorf("GET %s: the page lacks %q", path, w)
			}
		}
		checkPrivate(t, path, b)
	}
	// Every page's navigation leads to the tournaments, as to each game.
	for _, path := range []string{"/", "/tanbo/", "/tanbo/standings", "/users/alice", "/tournaments/Spring"} {
		_, nav, _ := strings.Cut(body(t, get(t, s, path)), "<nav")
		if nav, _, _ = strings.Cut(nav, "</nav>"); !strings.Contains(nav, `href="/tournaments/"`) || !strings.Contains(nav, `href="/tanbo/"`) {
			t.Errorf("GET %s: the navigation %q lacks the games and the tournaments", path, nav)
		}
	}
	r := get(t, s, "/tournaments/Spring.json")
	var doc tournamentDoc
	if err := json.NewDecoder(r.Body).Decode(&doc); err != nil || r.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("the JSON: %v, %s", err, r.Header.Get("Content-Type"))
	}
	if doc.Name != "Spring" || doc.Round != 2 || len(doc.Standings) != 4 || len(doc.Entrants) != 4 || len(doc.Played) != 2 || doc.Played[0].Board == 0 {
		t.Errorf("the JSON says %+v", doc)
	}
	if _, ok := doc.Standings[0].TieBreaks["Sonneborn-Berger"]; !ok {
		t.Errorf("the JSON standings lack the tie-break: %+v", doc.Standings[0])
	}
	for _, c := range []struct {
		path   string
		status int
	}{
		{"/tournaments/Nope", 404},
		{"/tournaments/Spring?round=3", 400},
		{"/tournaments/Spring?x=1", 400},
		{"/tournaments/?page=2", 404},
		{"/tournaments", 301},
	} {
		if r := get(t, s, c.path); r.StatusCode != c.status {
			t.Errorf("GET %s: status %d, want %d", c.path, r.StatusCode, c.status)
		}
	}
}

// TestTournamentBrowser loads the tournament pages in Chromium: the
// style applies, the standings are a table of the four players, and a
// game's link leads to its board.
func TestTournamentBrowser(t *testing.T) {
	t.Parallel()
	p := tournamentPlayed(t)
	ctx := newBrowser(t)
	ts := httptest.NewServer(newTestServer(p))
	defer ts.Close()
	for _, path := range []string{"/tournaments/", "/tournaments/Spring"} {
		if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+path), chromedp.WaitVisible("footer")); err != nil {
			t.Fatalf("load %s: %v", path, err)
		}
		bg, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector("header")).backgroundColor`))
		if err != nil || bg != "rgb(59, 47, 32)" {
			t.Errorf("%s: the header's background is %q (%v)", path, bg, err)
		}
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(screenshotDir(t), "tournament.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("table.standings tbody tr").length`))
	if err != nil || rows != 4 {
		t.Errorf("the standings table has %d rows (%v), want 4", rows, err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`ul.games a[href^="/tanbo/"]`), chromedp.WaitVisible("footer")); err != nil {
		t.Fatal(err)
	}
	title, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("h1").textContent`))
	if err != nil || !strings.Contains(title, "Tanbo") {
		t.Errorf("the game's link led to a page titled %q (%v)", title, err)
	}
}

// TestTournamentsAPI: the API lists the tournaments with the address of
// each, and gives each as the same bytes as its page's .json.
func TestTournamentsAPI(t *testing.T) {
	t.Parallel()
	s := newTestServer(tournamentPlayed(t))
	var list struct {
		Page        int `json:"page"`
		Tournaments []struct {
			Name, Game, Kind, Phase, URL string
			Entrants, Round              int
		} `json:"tournaments"`
		Next string `json:"next"`
	}
	getJSON(t, s, "/api/v1/tournaments", 200, &list)
	if list.Page != 1 || len(list.Tournaments) != 2 || list.Next != "" {
		t.Fatalf("the list says %+v; want page 1 of the two tournaments and no next", list)
	}
	spring := list.Tournaments[1]
	if spring.Name != "Spring" || spring.Phase != "running" || spring.Entrants != 4 || spring.Round != 2 || spring.URL != "/api/v1/tournaments/Spring" {
		t.Errorf("Spring in the list: %+v", spring)
	}
	api := getJSON(t, s, spring.URL, 200, nil)
	if page := body(t, get(t, s, "/tournaments/Spring.json")); api != page {
		t.Errorf("the API's Spring differs from the page's .json:\n%s\n%s", api, page)
	}
	for target, status := range map[string]int{
		"/api/v1/tournaments/Nope":        404,
		"/api/v1/tournaments/Spring.json": 404,
		"/api/v1/tournaments?page=2":      404,
		"/api/v1/tournaments?page=x":      400,
		"/api/v1/tournaments?junk=1":      400,
	} {
		if r := get(t, s, target); r.StatusCode != status || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("GET %s: %d %s, want %d in JSON", target, r.StatusCode, r.Header.Get("Content-Type"), status)
		}
	}
}

// TestTournamentPagesAccessible: the tournament pages pass axe as every
// other page does (TestAccessible), in both colour schemes.
func TestTournamentPagesAccessible(t *testing.T) {
	t.Parallel()
	script := axeScript(t)
	ts := httptest.NewServer(newTestServer(tournamentPlayed(t)))
	defer ts.Close()
	ctx := newBrowserFor(t, 5*time.Minute)
	if err := chromedp.Do(ctx, withAxe(script)); err != nil {
		t.Fatal(err)
	}
	for _, scheme := range []string{"light", "dark"} {
		if err := chromedp.Do(ctx, colourScheme(scheme, false)); err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/tournaments/", "/tournaments/Spring", "/tournaments/Spring?round=1", "/tournaments/Later"} {
			if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+path), chromedp.WaitReady("body")); err != nil {
				t.Fatalf("load %s: %v", path, err)
			}
			axeCheck(ctx, t, scheme, path)
		}
	}
}
