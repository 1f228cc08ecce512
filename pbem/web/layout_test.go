package web

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The widths a page must read well at: a desktop's and a phone's.
var viewports = []struct {
	name  string
	set   chromedp.Action[chromedp.Void]
	width float64
}{
	{"desktop", chromedp.EmulateViewport(1280, 800), 1280},
	{"phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile), 390},
}

// visit loads path at each width in turn, saves a screenshot named after
// the page and the width, checks the page does not scroll sideways, and
// calls check.
func visit(t *testing.T, ctx context.Context, url, name string, check func(width string)) {
	t.Helper()
	dir := screenshotDir(t)
	for _, vp := range viewports {
		if err := chromedp.Do(ctx, vp.set, chromedp.Navigate(url), chromedp.WaitVisible("footer")); err != nil {
			t.Fatalf("load %s at %s width: %v", url, vp.name, err)
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot of %s: %v", url, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+"-"+vp.name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
		width, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.documentElement.scrollWidth`))
		if err != nil || width > vp.width {
			t.Errorf("%s at %s width: the page is %v pixels wide (%v); want no sideways scrolling", url, vp.name, width, err)
		}
		check(vp.name)
	}
}

// Issue 27, item 8: Taratibu's move list, a turn a row, wrapped "Turn"
// apart from its number and a move's number apart from the move, and
// left every other cell "…". In the browser, at a desktop's width and a
// phone's, every move's number ends on the line its move starts, every
// row's head ("Turn 3, White") is one line, no cell is "…", and the table
// links every move once.
func TestMoveListLayout(t *testing.T) {
	p, ctx, ts := browsePlayed(t)
	for _, kind := range []string{"taratibu", "tobit"} {
		board := p.games[kind]
		moves := len(p.game(t, kind, board).Moves)
		visit(t, ctx, fmt.Sprintf("%s/%s/%d", ts.URL, kind, board), kind+"-moves", func(width string) {
			// Lines are told apart by the tops of the boxes a range
			// over an element's text gives, one per line.
			got, err := chromedp.Run(ctx, chromedp.Evaluate[map[string][]string](`(() => {
				const lines = (el) => {
					const r = document.createRange();
					r.selectNodeContents(el);
					return new Set([...r.getClientRects()].filter(b => b.width > 0).map(b => Math.round(b.top))).size;
				};
				const out = {split: [], heads: [], dots: [], links: []};
				for (const n of document.querySelectorAll("table.moves small")) {
					const a = n.nextElementSibling;
					if (!/^\d+\.$/.test(n.textContent) || !a || a.tagName !== "A") continue;
					const nb = n.getBoundingClientRect(), ab = a.getClientRects()[0];
					if (Math.abs(nb.bottom - ab.bottom) > 4 || ab.left < nb.right) out.split.push(n.textContent + " " + a.textContent);
				}
				for (const tr of document.querySelectorAll("table.moves tbody tr")) {
					const head = tr.firstElementChild;
					if (lines(head) !== 1) out.heads.push(head.textContent);
					for (const td of tr.querySelectorAll("td")) {
						if (td.textContent.trim() === "…") out.dots.push(head.textContent);
					}
				}
				for (const a of document.querySelectorAll("table.moves a")) out.links.push(a.getAttribute("href"));
				return out;
			})()`))
			if err != nil {
				t.Fatal(err)
			}
			if len(got["split"]) > 0 {
				t.Errorf("%s at %s width: moves wrapped apart from their numbers: %q", kind, width, got["split"])
			}
			if len(got["heads"]) > 0 {
				t.Errorf("%s at %s width: row heads over two lines: %q", kind, width, got["heads"])
			}
			if kind == "taratibu" && len(got["dots"]) > 0 {
				t.Errorf("%s at %s width: %d cells with no move but \"…\", in rows %q", kind, width, len(got["dots"]), got["dots"])
			}
			if len(got["links"]) != moves || got["links"][0] != "?move=1" || got["links"][moves-1] != fmt.Sprintf("?move=%d", moves) {
				t.Errorf("%s at %s width: the table links %d moves, %q…; want the %d moves in order", kind, width, len(got["links"]), got["links"][:min(3, len(got["links"]))], moves)
			}
		})
		if kind == "taratibu" {
			b := body(t, get(t, newTestServer(p), fmt.Sprintf("/taratibu/%d", board)))
			if !regexp.MustCompile(`>Turn 1, White</th>`).MatchString(b) || !strings.Contains(b, ">Turn 2, Black</th>") {
				t.Errorf("the Taratibu move list does not head its rows as the mails do, \"Turn 2, Black\"")
			}
		}
	}
}

// Issue 27, item 8: Tobit's point numbers were drawn over the discs that
// stand on the points. In the browser, no point's number overlaps a disc,
// at a desktop's width and a phone's, in the start position (a piece on 24
// of the 38 points), halfway and at the end of a game.
func TestPointNumbersClearOfPieces(t *testing.T) {
	p, ctx, ts := browsePlayed(t)
	board := p.games["tobit"]
	moves := len(p.game(t, "tobit", board).Moves)
	for _, n := range []int{0, moves / 2, moves} {
		visit(t, ctx, fmt.Sprintf("%s/tobit/%d?move=%d", ts.URL, board, n), fmt.Sprintf("tobit-points-%d", n), func(width string) {
			// A label overlaps a disc when the point of its box nearest
			// the disc's centre lies within the disc's radius, outline
			// included.
			got, err := chromedp.Run(ctx, chromedp.Evaluate[map[string][]string](`(() => {
				const out = {labels: [], discs: [], overlaps: []};
				const labels = [...document.querySelectorAll("svg.board text")].filter(t => !t.closest(".piece"));
				const discs = [...document.querySelectorAll("svg.board .piece > circle:first-of-type")];
				for (const l of labels) out.labels.push(l.textContent);
				for (const d of discs) {
					const b = d.getBoundingClientRect();
					out.discs.push(d.closest(".piece").dataset.piece);
					const cx = b.left + b.width / 2, cy = b.top + b.height / 2, r = b.width / 2 + 1;
					for (const l of labels) {
						const lb = l.getBoundingClientRect();
						const x = Math.max(lb.left, Math.min(cx, lb.right)), y = Math.max(lb.top, Math.min(cy, lb.bottom));
						if (Math.hypot(x - cx, y - cy) < r) out.overlaps.push(l.textContent + " on " + d.closest(".piece").querySelector("title").textContent);
					}
				}
				return out;
			})()`))
			if err != nil {
				t.Fatal(err)
			}
			if len(got["labels"]) != 38 || len(got["discs"]) == 0 {
				t.Fatalf("tobit after move %d at %s width: %d point numbers and %d discs; want 38 numbers and the pieces", n, width, len(got["labels"]), len(got["discs"]))
			}
			if len(got["overlaps"]) > 0 {
				t.Errorf("tobit after move %d at %s width: point numbers over discs: %q", n, width, got["overlaps"])
			}
		})
	}
}
