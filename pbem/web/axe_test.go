package web

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/pbemd/pbemd/rules/catalog"
)

// axePath is where tests/axe's npm install puts axe-core, from this
// package's directory: .ci/run installs it (npm ci in tests/axe).
var axePath = filepath.Join("..", "..", "tests", "axe", "node_modules", "axe-core", "axe.min.js")

// axeScript is axe-core's script, or the test skips saying how to get it,
// except in CI, where the accessibility test must run.
func axeScript(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(axePath)
	if err != nil {
		needed(t, fmt.Sprintf("no axe-core (%v); install it with (cd tests/axe && npm ci)", err))
	}
	return string(b)
}

// axeRules are the rules axe runs: those tagged WCAG 2.0 and 2.1 at levels
// A and AA, and axe's best practices. In the dark colour scheme, where
// only the colours differ, it runs those that judge colours alone.
const (
	axeRules       = `{type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa", "best-practice"]}`
	axeColourRules = `{type: "rule", values: ["color-contrast", "link-in-text-block"]}`
)

// An axeViolation is one rule a page breaks, as axe reports it.
type axeViolation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"` // a selector and axe's summary per element
}

// withAxe has the browser load axe-core into every page it opens, before
// the page's own scripts (through the debugging protocol, which the
// page's CSP does not govern).
func withAxe(script string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: script})
		return err
	})
}

// runAxe checks the page the browser shows with axe-core's rules (one of
// axeRules and axeColourRules) and returns the violations.
func runAxe(ctx context.Context, rules string) ([]axeViolation, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[[]axeViolation](`axe.run(document, {
		runOnly: `+rules+`,
		resultTypes: ["violations"],
	}).then(r => r.violations.map(v => ({
		id: v.id, impact: v.impact || "", help: v.help,
		nodes: v.nodes.map(n => n.target.join(" ") + ": " + (n.failureSummary || "").replace(/\s+/g, " ")),
	})))`, chromedp.EvalAwaitPromise))
}

// colourScheme has the browser report the user's colour scheme ("light"
// or "dark") and whether he asks for reduced motion.
func colourScheme(scheme string, reduce bool) chromedp.Action[chromedp.Void] {
	motion := "no-preference"
	if reduce {
		motion = "reduce"
	}
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{
				{Name: "prefers-color-scheme", Value: scheme},
				{Name: "prefers-reduced-motion", Value: motion},
			},
		})
		return err
	})
}

// axePages are the pages of every kind of a played store, each game's
// finished board at the start, in the middle and at the end, and the
// error pages.
func axePages(p *played, t *testing.T) []string {
	paths := []string{"/", "/users/alice", "/users/nobody", "/nothing/here",
		fmt.Sprintf("/ultima/%d?move=nine", p.games["ultima"])}
	for _, g := range catalog.All() {
		kind, board := g.Name(), p.games[g.Name()]
		n := len(p.game(t, kind, board).Moves)
		paths = append(paths, "/"+kind+"/", "/"+kind+"/standings",
			fmt.Sprintf("/%s/%d?move=0", kind, board),
			fmt.Sprintf("/%s/%d?move=%d", kind, board, n/2),
			fmt.Sprintf("/%s/%d", kind, board))
	}
	return paths
}

// TestAccessible has axe-core check every kind of page in Chromium: no
// serious or critical violation of WCAG 2.1 AA or of axe's best practices
// in the light colour scheme, nor of contrast in the dark one.
func TestAccessible(t *testing.T) {
	t.Parallel()
	script := axeScript(t)
	p := sharedPlayed(t)
	ctx := newBrowserFor(t, 10*time.Minute) // some 50 pages, each checked for seconds
	ts := httptest.NewServer(newTestServer(p).WithUnsubscribe(func(string) (string, bool, error) {
		return "alice@example.org gets no more mail of Ultima Board 101.", true, nil
	}))
	defer ts.Close()

	check := func(scheme, path string) { t.Helper(); axeCheck(ctx, t, scheme, path) }
	if err := chromedp.Do(ctx, withAxe(script)); err != nil {
		t.Fatal(err)
	}
	for _, scheme := range []string{"light", "dark"} {
		if err := chromedp.Do(ctx, colourScheme(scheme, false)); err != nil {
			t.Fatal(err)
		}
		for _, path := range axePages(p, t) {
			if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+path), chromedp.WaitReady("body")); err != nil {
				t.Fatalf("load %s: %v", path, err)
			}
			check(scheme, path)
		}
		// The unsubscribe link's page, its button, and the page it posts to.
		path := "/unsubscribe/some-token"
		if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+path), chromedp.WaitVisible("button")); err != nil {
			t.Fatalf("load %s: %v", path, err)
		}
		check(scheme, path)
		if err := chromedp.Do(ctx, chromedp.Click("button"), chromedp.WaitNotPresent("button")); err != nil {
			t.Fatalf("unsubscribing: %v", err)
		}
		check(scheme, path+" (posted)")
	}
}

// axeCheck runs axe on the page loaded in ctx, all its rules in the light
// scheme and those of colours in the dark one, and fails the test on each
// serious or critical violation; lesser ones are logged.
func axeCheck(ctx context.Context, t *testing.T, scheme, path string) {
	t.Helper()
	rules := axeRules
	if scheme == "dark" {
		rules = axeColourRules
	}
	vs, err := runAxe(ctx, rules)
	if err != nil {
		t.Fatalf("%s (%s): %v", path, scheme, err)
	}
	for _, v := range vs {
		if v.Impact != "serious" && v.Impact != "critical" {
			t.Logf("%s (%s): %s %s (%s), not failing: %s", path, scheme, v.Impact, v.ID, v.Help, strings.Join(v.Nodes, "; "))
			continue
		}
		t.Errorf("%s (%s): %s %s: %s\n\t%s", path, scheme, v.Impact, v.ID, v.Help, strings.Join(v.Nodes, "\n\t"))
	}
}
