package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/rules/rulestool"
	"github.com/pbemd/pbemd/store/storetest"
)

func newTestServer(p *played) *Server {
	return New(p.db, Options{Mail: "pbem@example.org", Now: func() time.Time { return p.now }, Rate: 1e6, Burst: 1e6})
}

// get answers one request from the server.
func get(t *testing.T, s http.Handler, target string, header ...string) *http.Response {
	t.Helper()
	req := httptest.NewRequest("GET", target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	return w.Result()
}

func body(t *testing.T, r *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// pagePaths are the pages of a played store, with what each must show.
func pagePaths(p *played) map[string][]string {
	u, tb, ta, to := p.games["ultima"], p.games["tanbo"], p.games["taratibu"], p.games["tobit"]
	return map[string][]string{
		"/": {"Ultima", "Tanbo", "Taratibu", "Tobit", "In play", "Recent results",
			fmt.Sprintf(`href="/ultima/%d"`, u), "pbem@example.org", "checkmate",
			// A first game against a robot, with the exact command (issue 27).
			"signup USERID PASSWORD", `href="/tournaments/"`, "<code>ultima challenge USERID ultima-robot1</code>", "<code>tobit challenge USERID tobit-robot1</code>"},
		"/ultima/":                          {fmt.Sprintf(`href="/ultima/%d"`, u), fmt.Sprintf(`href="/ultima/%d"`, p.live["ultima"]), `href="/users/alice"`},
		"/tanbo/":                           {fmt.Sprintf(`href="/tanbo/%d"`, tb)},
		"/ultima/standings":                 {`href="/users/alice"`, `href="/users/bob"`, "Rating"},
		"/tobit/standings":                  {`href="/users/bob"`},
		"/users/alice":                      {"Ratings", "Ultima", "Tobit", fmt.Sprintf(`href="/tobit/%d"`, to), fmt.Sprintf("%d boards", 2*len(catalog.All()))},
		fmt.Sprintf("/ultima/%d", u):        {"<svg", "Game won by alice, White (checkmate).", "Rating changes", `class="current"`, "Started:", "Ended:"},
		fmt.Sprintf("/ultima/%d?move=3", u): {"<svg", "after move 3 of", `href="?move=2"`, `href="?move=4"`, "It is bob&#39;s turn: Black plays move #4."},
		fmt.Sprintf("/ultima/%d", p.live["ultima"]): {"It is bob&#39;s turn: Black plays move #6.", "Reminder after 7 days, forfeit after 21 days", "bob has had the move since"},
		fmt.Sprintf("/tanbo/%d", tb):                {"<svg", "-size=9", "no stones left"},
		fmt.Sprintf("/taratibu/%d?move=0", ta):      {"<svg", "after move 0 of", "It is alice&#39;s turn: White plays move #1."},
		fmt.Sprintf("/tobit/%d", to):                {"<svg", "White has no pieces"},
	}
}

func TestPages(t *testing.T) {
	t.Parallel()
	p := sharedPlayed(t)
	s := newTestServer(p)
	for path, wants := range pagePaths(p) {
		r := get(t, s, path)
		b := body(t, r)
		if r.StatusCode != 200 {
			t.Errorf("GET %s: status %d, want 200:\n%s", path, r.StatusCode, b)
			continue
		}
		if ct := r.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Errorf("GET %s: Content-Type %q", path, ct)
		}
		for _, w := range wants {
			if !strings.Contains(b, w) {
				t.Errorf("GET %s: the page lacks %q", path, w)
			}
		}
		checkPrivate(t, path, b)
	}
}

// checkPrivate fails when a page tells what "show" does not: an address or
// a password, or carries a script.
func checkPrivate(t *testing.T, path, b string) {
	t.Helper()
	for _, bad := range []string{"alice@example.org", "bob@example.org", "secret", pbemtest.Password("alice"), pbemtest.Password("bob"), "<script", " style=", "onclick", "javascript:"} {
		if strings.Contains(strings.ToLower(b), bad) {
			t.Errorf("GET %s: the page holds %q", path, bad)
		}
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	p := sharedPlayed(t)
	s := newTestServer(p)
	u := p.games["ultima"]
	long := "/ultima/" + strings.Repeat("1", 600)
	games := strings.Join(catalog.Names(), ", ")
	for _, c := range []struct {
		path   string
		status int
		want   string
	}{
		{"/chess/", 404, "There is no page /chess/ here; the games are " + games + "."},
		{"/chess/101", 404, "the games are ultima"},
		{"/ultima/999", 404, "There is no Ultima board 999; see /ultima/ for the boards there are."},
		{"/ultima/abc", 404, "There is no Ultima board &#34;abc&#34;"},
		{"/ultima/0101", 404, "There is no Ultima board"},
		{"/ultima/999.json", 404, `"error": "There is no Ultima board 999`},
		{"/ultima/999.svg", 404, "There is no Ultima board 999"},
		{"/ultima/101/x", 404, "There is no page"},
		{"/users/nobody", 404, "There is no user &#34;nobody&#34;"},
		{"/users/", 404, "There is no user"},
		{fmt.Sprintf("/ultima/%d?move=-1", u), 400, "has moves 0 to"},
		{fmt.Sprintf("/ultima/%d?move=9999", u), 400, "has moves 0 to"},
		{fmt.Sprintf("/ultima/%d?move=x", u), 400, "move=&#34;x&#34; is none of them"},
		{fmt.Sprintf("/ultima/%d.json?move=x", u), 400, `"error"`},
		{fmt.Sprintf("/ultima/%d?move=1&move=2", u), 400, "given 2 times"},
		{fmt.Sprintf("/ultima/%d?turn=1", u), 400, "takes only move, not &#34;turn&#34;"},
		{"/ultima/?before=x", 400, "before=&#34;x&#34; is not a number"},
		{"/ultima/standings?page=99", 404, "there is no page 99"},
		{"/users/alice?page=0", 400, "page=&#34;0&#34; is not a number from 1"},
		{long, 414, "too long"},
		{"/ultima/101?move=" + strings.Repeat("9", 100), 414, "too long"},
	} {
		r := get(t, s, c.path)
		b := body(t, r)
		if r.StatusCode != c.status || !strings.Contains(b, c.want) {
			t.Errorf("GET %s: %d %q, want %d with %q", c.path, r.StatusCode, b, c.status, c.want)
		}
		checkHeaders(t, c.path, r)
	}

	for _, m := range []string{"POST", "PUT", "DELETE"} {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(m, "/ultima/101", strings.NewReader("x")))
		if w.Code != 405 || w.Header().Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: status %d, Allow %q; want 405 with GET, HEAD", m, w.Code, w.Header().Get("Allow"))
		}
	}
	r := get(t, s, "/baroque/101?move=2")
	if r.StatusCode != 301 || r.Header.Get("Location") != "/ultima/101?move=2" {
		t.Errorf("GET /baroque/101: %d to %q, want 301 to /ultima/101?move=2", r.StatusCode, r.Header.Get("Location"))
	}
}

// checkHeaders checks the security headers every answer carries.
func checkHeaders(t *testing.T, path string, r *http.Response) {
	t.Helper()
	csp := r.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "unsafe") || strings.Contains(csp, "script-src") {
		t.Errorf("GET %s: CSP %q; want default-src 'none' and no script at all", path, csp)
	}
	for _, h := range []string{"X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy"} {
		if r.Header.Get(h) == "" {
			t.Errorf("GET %s: no %s header", path, h)
		}
	}
}

func TestConditionalGet(t *testing.T) {
	t.Parallel()
	p := sharedPlayed(t)
	s := newTestServer(p)
	for path := range pagePaths(p) {
		for _, suffix := range []string{"", ".svg", ".json"} {
			target := path
			if suffix != "" {
				if !regexp.MustCompile(`^/\w+/\d+$`).MatchString(path) {
					continue
				}
				target += suffix
			}
			r := get(t, s, target)
			etag := r.Header.Get("ETag")
			if r.StatusCode != 200 || etag == "" {
				t.Fatalf("GET %s: %d with ETag %q", target, r.StatusCode, etag)
			}
			checkHeaders(t, target, r)
			r = get(t, s, target, "If-None-Match", `"other", `+etag)
			if b := body(t, r); r.StatusCode != 304 || b != "" {
				t.Errorf("GET %s with its ETag: %d %q, want 304 and no body", target, r.StatusCode, b)
			}
			r = get(t, s, target, "If-None-Match", `"other"`)
			if r.StatusCode != 200 {
				t.Errorf("GET %s with another ETag: %d, want 200", target, r.StatusCode)
			}
		}
	}
	// A board's ETag changes with each move.
	a := get(t, s, "/ultima/101?move=3").Header.Get("ETag")
	b := get(t, s, "/ultima/101?move=4").Header.Get("ETag")
	if a == b {
		t.Errorf("the board after moves 3 and 4 has one ETag %s", a)
	}
}

func TestRateLimit(t *testing.T) {
	t.Parallel()
	p := sharedPlayed(t)
	now := p.now
	s := New(p.db, Options{Now: func() time.Time { return now }, Rate: 2, Burst: 5})
	ask := func(addr string) int {
		req := httptest.NewRequest("GET", "/style.css", nil)
		req.RemoteAddr = addr + ":40000"
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		return w.Code
	}
	for i := 0; i < 5; i++ {
		if c := ask("192.0.2.1"); c != 200 {
			t.Fatalf("request %d of the burst: %d", i+1, c)
		}
	}
	if c := ask("192.0.2.1"); c != 429 {
		t.Errorf("request beyond the burst: %d, want 429", c)
	}
	if c := ask("192.0.2.2"); c != 200 {
		t.Errorf("another client: %d, want 200", c)
	}
	now = now.Add(time.Second) // two tokens back
	for i, want := range []int{200, 200, 429} {
		if c := ask("192.0.2.1"); c != want {
			t.Errorf("a second later, request %d: %d, want %d", i+1, c, want)
		}
	}
}

func TestLimiterForgets(t *testing.T) {
	t.Parallel()
	now := testStart
	l := newLimiter(1, 2, 100, func() time.Time { return now })
	for i := 0; i < 1000; i++ {
		l.allow(strconv.Itoa(i))
		if len(l.buckets) > 100 {
			t.Fatalf("%d clients remembered, want at most 100", len(l.buckets))
		}
		now = now.Add(10 * time.Millisecond)
	}
}

// TestJSONFollowsRules checks the JSON of every position of a whole game of
// each kind against what "pbemd rules -json" says after the same moves.
func TestJSONFollowsRules(t *testing.T) {
	t.Parallel()
	p := sharedPlayed(t)
	s := newTestServer(p)
	for _, g := range catalog.All() {
		kind, board := g.Name(), p.games[g.Name()]
		rec := p.game(t, kind, board)
		var last boardDoc
		for n := 0; n <= len(rec.Moves); n++ {
			target := fmt.Sprintf("/%s/%d.json?move=%d", kind, board, n)
			r := get(t, s, target)
			if r.StatusCode != 200 || r.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("GET %s: %d %s", target, r.StatusCode, r.Header.Get("Content-Type"))
			}
			var doc boardDoc
			if err := json.NewDecoder(r.Body).Decode(&doc); err != nil {
				t.Fatalf("GET %s: %v", target, err)
			}
			args := append([]string{kind}, rec.Options...)
			args = append(args, "-json", "--")
			for _, m := range rec.Moves[:n] {
				args = append(args, m.Text)
			}
			var out, errOut bytes.Buffer
			if code := rulestool.Run(args, &out, &errOut); code != 0 {
				t.Fatalf("pbemd rules %v: %d %s", args, code, errOut.String())
			}
			var want rulestool.Report
			if err := json.Unmarshal(out.Bytes(), &want); err != nil {
				t.Fatal(err)
			}
			if n == len(rec.Moves) && rec.Over && want.Result == "" && doc.Result != "" {
				// A resignation ended it, not the rules: the JSON says who won.
				want.ToMove, want.Result = "", doc.Result
			}
			if doc.Position != want.Position || doc.ToMove != want.ToMove || doc.Result != want.Result {
				t.Fatalf("%s: position %q, to_move %q, result %q; pbemd rules says %q, %q, %q",
					target, doc.Position, doc.ToMove, doc.Result, want.Position, want.ToMove, want.Result)
			}
			if doc.Game != kind || doc.Board != board || doc.AtMove != n || len(doc.Moves) != len(rec.Moves) {
				t.Fatalf("%s: game %q board %d at_move %d with %d moves", target, doc.Game, doc.Board, doc.AtMove, len(doc.Moves))
			}
			last = doc
		}
		if last.Status != "over" || last.Result == "" || last.Reason != rec.EndReason {
			t.Errorf("%s %d: the last JSON says status %q result %q reason %q; the game ended (%s)", kind, board, last.Status, last.Result, last.Reason, rec.EndReason)
		}
		for i, m := range last.Moves {
			if m.Number != i+1 || m.Move != rec.Moves[i].Text || m.Side != strings.ToLower(g.Sides()[rec.Moves[i].Seat]) {
				t.Errorf("%s move %d in JSON: %+v; stored %+v", kind, i+1, m, rec.Moves[i])
			}
		}
		if last.Players[0].User != "alice" || last.Players[1].User != "bob" {
			t.Errorf("%s players %+v", kind, last.Players)
		}
	}
	// Without ?move the JSON is the board now.
	r := get(t, s, fmt.Sprintf("/tobit/%d.json", p.live["tobit"]))
	var doc boardDoc
	json.NewDecoder(r.Body).Decode(&doc)
	if doc.Status != "playing" || doc.ToMove == "" || doc.AtMove != len(doc.Moves) {
		t.Errorf("live tobit board JSON: %+v", doc)
	}
}

// TestSVGPieces counts the pieces of every drawn position of each game
// against the position text.
func TestSVGPieces(t *testing.T) {
	t.Parallel()
	p := sharedPlayed(t)
	s := newTestServer(p)
	piece := regexp.MustCompile(`class="piece" data-piece="(.)"`)
	for _, g := range catalog.All() {
		kind, num := g.Name(), p.games[g.Name()]
		rec := p.game(t, kind, num)
		for n := 0; n <= len(rec.Moves); n += 1 + n/10 {
			r := get(t, s, fmt.Sprintf("/%s/%d.svg?move=%d", kind, num, n))
			svg := body(t, r)
			if !draws(g) {
				if r.StatusCode != 404 {
					t.Fatalf("%s does not draw its positions, yet its SVG answers %d", kind, r.StatusCode)
				}
				break
			}
			if r.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(svg, "<title>") {
				t.Fatalf("%s %d svg: %s %.200s", kind, n, r.Header.Get("Content-Type"), svg)
			}
			got := map[string]int{}
			for _, m := range piece.FindAllStringSubmatch(svg, -1) {
				got[m[1]]++
			}
			var doc boardDoc
			json.NewDecoder(get(t, s, fmt.Sprintf("/%s/%d.json?move=%d", kind, num, n)).Body).Decode(&doc)
			want := pieceCounts(kind, doc.Position)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s after move %d: the SVG draws %v, the position %q holds %v", kind, n, got, doc.Position, want)
			}
			// The last move is marked on every cell its game's drawing
			// names (which cells those are, the rules' tests check).
			marks, wantMarks := strings.Count(svg, `class="last"`), 0
			if n > 0 {
				_, pos, err := board.Replay(rec, n)
				if err != nil {
					t.Fatal(err)
				}
				d, _ := drawing(pos, rec.Moves[n-1].Text)
				wantMarks = len(d.Last)
			}
			if marks != wantMarks || n > 0 && marks == 0 {
				t.Errorf("%s after move %d: %d marks of the last move, want %d", kind, n, marks, wantMarks)
			}
		}
	}
}

// draws reports whether the positions of g draw themselves.
func draws(g rules.Game) bool {
	opts, _ := rules.ParseOptions(g, nil)
	pos, err := g.Start(opts)
	_, ok := pos.(rules.Drawer)
	return err == nil && ok
}

// pieceCounts counts the piece letters of a position's board part.
func pieceCounts(kind, position string) map[string]int {
	board, _, _ := strings.Cut(position, " ")
	counts := map[string]int{}
	for _, c := range board {
		if c == '/' || c == '.' || c >= '0' && c <= '9' {
			continue
		}
		counts[string(c)]++
	}
	return counts
}

// Over a real connection, HEAD gives a page's headers without its body, and
// the rating changes of a finished game are those of its final mail.
func TestHeadAndRatings(t *testing.T) {
	t.Parallel()
	p := sharedPlayed(t)
	ts := httptest.NewServer(newTestServer(p))
	defer ts.Close()
	target := fmt.Sprintf("%s/ultima/%d", ts.URL, p.games["ultima"])
	r, err := http.Head(target)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != 200 || len(b) != 0 || r.Header.Get("ETag") == "" || r.ContentLength <= 0 {
		t.Errorf("HEAD %s: %d, %d bytes of body, ETag %q, length %d", target, r.StatusCode, len(b), r.Header.Get("ETag"), r.ContentLength)
	}
	r, err = http.Get(target)
	if err != nil {
		t.Fatal(err)
	}
	page := body(t, r)
	rec := p.game(t, "ultima", p.games["ultima"])
	if len(rec.Ratings) != 2 {
		t.Fatalf("the finished game has rating changes %+v", rec.Ratings)
	}
	for _, c := range rec.Ratings {
		want := regexp.MustCompile(fmt.Sprintf(`<li>%s +%.0f -&gt; %.0f \((&#43;|-)\d+\)`, c.User, c.Old, c.New))
		if !want.MatchString(page) {
			t.Errorf("the board page lacks the rating change of %s (%v)", c.User, want)
		}
	}
}

// A board withdrawn before a first move (bob declined) is "withdrawn" in
// its JSON, not a draw, and its page says it was not rated.
func TestWithdrawnBoard(t *testing.T) {
	t.Parallel()
	var mails [][]byte
	for i, subject := range []string{"signup alice secret", "signup bob secret", "tanbo challenge alice bob", "tanbo move 101 alice secret a1", "tanbo decline 101 bob secret"} {
		from := "alice"
		if strings.Contains(subject, "bob secret") {
			from = "bob"
		}
		mails = append(mails, pbemtest.Mail(from+"@example.org", subject, "", fmt.Sprintf("w%d@client.example", i)))
	}
	s := servedAfter(t, mails...)
	var doc boardDoc
	if err := json.NewDecoder(get(t, s, "/tanbo/101.json").Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc.Status != "over" || doc.Result != "withdrawn" {
		t.Errorf("status %q, result %q; want over and withdrawn", doc.Status, doc.Result)
	}
	page, _ := io.ReadAll(get(t, s, "/tanbo/101").Body)
	if !strings.Contains(string(page), "withdrawn, not rated") {
		t.Errorf("the page does not say the board was withdrawn:\n%.2000s", page)
	}
}

// A board made by a challenge that proves nothing of its sender waits for
// the players it invited: its page, its row and its JSON say so, and
// nobody's turn.
func TestInvitedBoard(t *testing.T) {
	t.Parallel()
	s := servedAfter(t,
		pbemtest.Mail("alice@example.org", "signup alice secret", "", "i1@client.example"),
		pbemtest.Mail("bob@example.org", "signup bob secret", "", "i2@client.example"),
		pbemtest.Forged("mallory@evil.example", "tanbo challenge alice bob", "", "i3@client.example"))
	page := body(t, get(t, s, "/tanbo/101"))
	if !strings.Contains(page, "Waiting for alice and bob to accept the challenge by mail: tanbo join 101 USERID PASSWORD") || strings.Contains(page, "s turn") {
		t.Errorf("the page of an invitation:\n%.3000s", page)
	}
	if list := body(t, get(t, s, "/tanbo/")); !strings.Contains(list, "invited: alice, bob") {
		t.Errorf("the game's list does not show the invitation:\n%.3000s", list)
	}
	var doc boardDoc
	if err := json.NewDecoder(get(t, s, "/tanbo/101.json").Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc.Status != "open" {
		t.Errorf("the JSON status of an invitation is %q; want open", doc.Status)
	}
}

// servedAfter is the web view of a store that the service has handled the
// mails into, in order.
func servedAfter(t *testing.T, mails ...[]byte) *Server {
	t.Helper()
	db := storetest.New(t)
	svc := pbem.New(db, pbem.Config{Address: "pbem@example.org", Log: slog.New(slog.DiscardHandler), Auth: pbemtest.Auth()})
	for i, raw := range mails {
		if err := svc.Deliver(raw); err != nil {
			t.Fatalf("mail %d: %v", i, err)
		}
	}
	return New(db, Options{Mail: "pbem@example.org", Rate: 1e6, Burst: 1e6})
}
