package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
)

// findChromium returns the path of Debian's Chromium, or stops the test
// as needed does.
func findChromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"chromium", "/usr/bin/chromium", "chromium-browser"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	needed(t, "no chromium in PATH or /usr/bin; install Debian's chromium package (apt-get install chromium)")
	return ""
}

// needed stops a test that lacks something it needs, what says which and
// how to install it: it skips, except in CI (CI=true), where every test
// must run and it fails.
func needed(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal(what + "; CI must install it")
	}
	t.Skip(what + " to run this test")
}

// newBrowser starts a headless Chromium on a fresh profile, for at most
// three minutes of work.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	return newBrowserFor(t, 3*time.Minute)
}

// newBrowserFor starts a headless Chromium on a fresh profile, stopped
// after limit: a hung browser fails the test rather than the test binary.
func newBrowserFor(t *testing.T, limit time.Duration) context.Context {
	t.Helper()
	path := findChromium(t)
	// The profile is not t.TempDir: Chromium's helper processes may still
	// write to it for a moment after the browser is gone, and the test's
	// own removal of it would then fail the test.
	profile, err := os.MkdirTemp("", "pbemd-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1200, 900),
	}
	for _, f := range []string{"headless", "no-sandbox", "disable-gpu", "disable-background-networking",
		"disable-component-update", "disable-sync", "no-first-run", "hide-scrollbars", "mute-audio",
		"no-default-browser-check", "disable-dev-shm-usage"} {
		opts = append(opts, chromedp.Flag(f, true))
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, limit)
	t.Cleanup(func() {
		cancelTime()
		cancel()
		cancelAlloc()
		for try := 0; os.RemoveAll(profile) != nil && try < 50; try++ {
			time.Sleep(100 * time.Millisecond) // the helpers' last writes
		}
	})
	return ctx
}

// browsePlayed is the shared played store, a headless Chromium, and a
// server of the web view over that store, closed when t ends.
func browsePlayed(t *testing.T) (*played, context.Context, *httptest.Server) {
	t.Helper()
	p := sharedPlayed(t)
	ctx := newBrowser(t)
	ts := httptest.NewServer(newTestServer(p))
	t.Cleanup(ts.Close)
	return p, ctx, ts
}

// screenshotDir is where the browser test saves its screenshots:
// $PBEMD_SCREENSHOTS, or the test's temporary directory.
func screenshotDir(t *testing.T) string {
	dir := os.Getenv("PBEMD_SCREENSHOTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestBrowser loads every page of a played game of each kind in Chromium,
// checks what it draws against the board's position, and saves
// screenshots: at a desktop width, and the board pages also at a phone's.
func TestBrowser(t *testing.T) {
	t.Parallel()
	p, ctx, ts := browsePlayed(t)
	dir := screenshotDir(t)
	t.Logf("screenshots in %s", dir)

	shoot := func(name string) {
		t.Helper()
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	load := func(path string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+path), chromedp.WaitVisible("footer")); err != nil {
			t.Fatalf("load %s: %v", path, err)
		}
		// The style sheet applies under the page's CSP.
		bg, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector("header")).backgroundColor`))
		if err != nil || bg != "rgb(59, 47, 32)" {
			t.Errorf("%s: the header's background is %q (%v); the style sheet did not apply", path, bg, err)
		}
	}
	desktop := chromedp.EmulateViewport(1100, 800)
	phone := chromedp.EmulateViewport(390, 800, chromedp.EmulateScale(2), chromedp.EmulateMobile)

	if err := chromedp.Do(ctx, desktop); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/", "/users/alice"} {
		load(path)
		shoot(map[string]string{"/": "front", "/users/alice": "user"}[path])
	}
	for _, g := range catalog.All() {
		kind, board := g.Name(), p.games[g.Name()]
		load("/" + kind + "/")
		shoot(kind + "-boards")
		load("/" + kind + "/standings")
		shoot(kind + "-standings")
		rec := p.game(t, kind, board)
		for _, n := range []int{0, len(rec.Moves) / 2, len(rec.Moves)} {
			path := fmt.Sprintf("/%s/%d?move=%d", kind, board, n)
			load(path)
			checkDrawn(t, ctx, ts.URL, g, board, n)
			if n == len(rec.Moves)/2 {
				shoot(fmt.Sprintf("%s-board-%d", kind, n))
				// Following "next" shows the board after the next move.
				if err := chromedp.Do(ctx, chromedp.Click(`a[rel="next"]`), chromedp.WaitVisible("footer")); err != nil {
					t.Fatal(err)
				}
				checkDrawn(t, ctx, ts.URL, g, board, n+1)
			}
		}
		if err := chromedp.Do(ctx, phone); err != nil {
			t.Fatal(err)
		}
		load(fmt.Sprintf("/%s/%d", kind, p.live[kind]))
		width, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.documentElement.scrollWidth`))
		if err != nil || width > 390 {
			t.Errorf("%s on a phone: the page is %v pixels wide (%v); want no sideways scrolling", kind, width, err)
		}
		shoot(kind + "-phone")
		if err := chromedp.Do(ctx, desktop); err != nil {
			t.Fatal(err)
		}
	}
}

// checkDrawn compares the pieces in the page's SVG, as the browser parsed
// it, with the position the board's JSON gives after move n, and checks the
// page marks move n as the current one. A game whose positions do not
// draw themselves shows its text board instead.
func checkDrawn(t *testing.T, ctx context.Context, base string, g rules.Game, board, n int) {
	t.Helper()
	kind := g.Name()
	if !draws(g) {
		text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("figure pre.board").textContent`))
		if err != nil || !strings.Contains(text, "\n") {
			t.Errorf("%s after move %d: the page shows %q (%v); want the text board", kind, n, text, err)
		}
		return
	}
	r, err := http.Get(fmt.Sprintf("%s/%s/%d.json?move=%d", base, kind, board, n))
	if err != nil {
		t.Fatal(err)
	}
	var doc boardDoc
	err = json.NewDecoder(r.Body).Decode(&doc)
	r.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	drawn, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]int](`(() => {
		const counts = {};
		for (const p of document.querySelectorAll("figure svg.board .piece")) {
			counts[p.dataset.piece] = (counts[p.dataset.piece] || 0) + 1;
		}
		return counts;
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	want := pieceCounts(kind, doc.Position)
	if fmt.Sprint(drawn) != fmt.Sprint(want) {
		t.Errorf("%s %d after move %d: the page draws %v; the position %q holds %v", kind, board, n, drawn, doc.Position, want)
	}
	checkWords(t, ctx, g, doc, n)
	status, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(".steps b").textContent`))
	if err != nil || status != fmt.Sprintf("after move %d", n) {
		t.Errorf("%s: the page says %q (%v), want after move %d", kind, status, err, n)
	}
}

// checkWords checks what the page says of the board drawn after move n
// for a reader who does not see the drawing: the SVG's name tells the
// board and the move, and under it are the board as mails show it for
// doc's position and as many pieces by square as that position holds.
func checkWords(t *testing.T, ctx context.Context, g rules.Game, doc boardDoc, n int) {
	t.Helper()
	kind := g.Name()
	opts, err := rules.ParseOptions(g, doc.Options)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := g.ParsePosition(doc.Position, opts)
	if err != nil {
		t.Fatal(err)
	}
	named, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const svg = document.querySelector("figure svg.board");
		return svg.getAttribute("role") + "|" + svg.getAttribute("aria-labelledby") + "|" +
			document.getElementById(svg.getAttribute("aria-labelledby")).textContent;
	})()`))
	at := fmt.Sprintf("after move %d", n)
	if n == 0 {
		at = "at the start"
	}
	if want := fmt.Sprintf("img|board-title|%s board %d %s. ", g.Title(), doc.Board, at); err != nil || !strings.HasPrefix(named, want) {
		t.Errorf("%s after move %d: the SVG is %q (%v); want it to begin %q", kind, n, named, err, want)
	}
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("details.textboard pre").textContent`))
	if want := strings.TrimRight(pos.Board(), "\n"); err != nil || text != want {
		t.Errorf("%s after move %d: the text under the drawing is\n%s\n(%v); want the mails' board\n%s", kind, n, text, err, want)
	}
	sides, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("ul.bysquare li")].map(li => li.textContent)`))
	if err != nil || len(sides) != 2 {
		t.Fatalf("%s after move %d: the pieces by square are %q (%v); want a line for each side", kind, n, sides, err)
	}
	listed, want := 0, 0
	for i, line := range sides {
		side, pieces, _ := strings.Cut(line, ": ")
		if side != g.Sides()[i] {
			t.Errorf("%s after move %d: the pieces of %s are listed as %q", kind, n, g.Sides()[i], line)
		}
		if pieces != "no pieces" {
			listed += len(strings.Split(pieces, ", "))
		}
	}
	for _, c := range pieceCounts(kind, doc.Position) {
		want += c
	}
	if listed != want {
		t.Errorf("%s after move %d: %d pieces listed by square %q; the position %q holds %d", kind, n, listed, sides, doc.Position, want)
	}
}
