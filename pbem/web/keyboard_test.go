package web

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// focused is what the browser says of the element that has the focus:
// its tag, class, id, href and rel, and whether its focus ring shows.
type focused struct {
	Tag, Class, ID, Href, Rel string
	Ring                      bool // an outline of 2 pixels or more
	InMoves                   bool // within the table of moves
	Top                       float64
}

func focusedNow(ctx context.Context) (focused, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[focused](`(() => {
		const e = document.activeElement, s = getComputedStyle(e);
		return {Tag: e.tagName.toLowerCase(), Class: e.className, ID: e.id,
			Href: e.getAttribute("href") || "", Rel: e.getAttribute("rel") || "",
			Ring: s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2,
			InMoves: !!e.closest("table.moves"), Top: e.getBoundingClientRect().top};
	})()`))
}

// tabTo presses Tab until the focus is on an element for which want is
// true, checking that each element the focus passes shows its ring; it
// fails after limit presses.
func tabTo(t *testing.T, ctx context.Context, limit int, want func(focused) bool) focused {
	t.Helper()
	for range limit {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
			t.Fatal(err)
		}
		f, err := focusedNow(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !f.Ring {
			t.Errorf("the focus on %+v shows no ring", f)
		}
		if want(f) {
			return f
		}
	}
	t.Fatalf("%d presses of Tab did not reach the element looked for", limit)
	return focused{}
}

// A board's page is used by keyboard alone: the first Tab reaches a skip
// link that shows, Enter on it moves the focus to the content, Tab reaches
// the next move's link, Enter on it shows the board after that move, and
// Tab reaches the moves of the move list; every element the focus reaches
// shows a focus ring. The page honours the reader's colour scheme and
// reduced motion.
func TestKeyboard(t *testing.T) {
	t.Parallel()
	p, ctx, ts := browsePlayed(t)
	board := p.games["ultima"]
	if err := chromedp.Do(ctx, colourScheme("light", false),
		chromedp.Navigate(fmt.Sprintf("%s/ultima/%d?move=3", ts.URL, board)), chromedp.WaitVisible("footer")); err != nil {
		t.Fatal(err)
	}

	skip := tabTo(t, ctx, 1, func(f focused) bool { return true })
	if skip.Class != "skip" || skip.Top < 0 {
		t.Fatalf("the first Tab reaches %+v; want the skip link, in view", skip)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	if f, err := focusedNow(ctx); err != nil || f.ID != "main" {
		t.Fatalf("after Enter on the skip link the focus is on %+v (%v); want the main content", f, err)
	}
	next := tabTo(t, ctx, 20, func(f focused) bool { return f.Rel == "next" })
	if next.Href != "?move=4" {
		t.Errorf("the next move's link leads to %q; want ?move=4", next.Href)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(`table.moves a[aria-current="step"][href="?move=4"]`)); err != nil {
		t.Fatalf("Enter on the next move's link: %v", err)
	}
	move := tabTo(t, ctx, 40, func(f focused) bool { return f.InMoves })
	if move.Href != "?move=1" {
		t.Errorf("the first move of the move list the focus reaches leads to %q; want ?move=1", move.Href)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(`table.moves a[aria-current="step"][href="?move=1"]`)); err != nil {
		t.Fatalf("Enter on the first move: %v", err)
	}

	for _, c := range []struct {
		scheme     string
		reduce     bool
		background string
		scroll     string
	}{
		{"light", false, "rgb(253, 252, 248)", "smooth"},
		{"dark", false, "rgb(27, 24, 20)", "smooth"},
		{"dark", true, "rgb(27, 24, 20)", "auto"},
		{"light", true, "rgb(253, 252, 248)", "auto"},
	} {
		if err := chromedp.Do(ctx, colourScheme(c.scheme, c.reduce)); err != nil {
			t.Fatal(err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[getComputedStyle(document.body).backgroundColor,
			getComputedStyle(document.documentElement).scrollBehavior]`))
		if err != nil || len(got) != 2 || got[0] != c.background || got[1] != c.scroll {
			t.Errorf("%s scheme, reduced motion %v: background and scrolling %q (%v); want %s and %s", c.scheme, c.reduce, got, err, c.background, c.scroll)
		}
	}
}
