package web

import (
	"encoding/xml"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/pbemtest"
)

const atomNS = "http://www.w3.org/2005/Atom"

// xmlNode is any element, as encoding/xml reads it.
type xmlNode struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Nodes   []xmlNode  `xml:",any"`
	Text    string     `xml:",chardata"`
}

func (n xmlNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name && a.Name.Space == "" {
			return a.Value
		}
	}
	return ""
}

// children are n's child elements of the Atom namespace named name.
func (n xmlNode) children(name string) []xmlNode {
	var out []xmlNode
	for _, c := range n.Nodes {
		if c.XMLName.Space == atomNS && c.XMLName.Local == name {
			out = append(out, c)
		}
	}
	return out
}

// A feed as the tests read it: its updated and its entries' ids, titles
// and updated, in order.
type checkedFeed struct {
	Updated string
	Entries []checkedEntry
}

type checkedEntry struct{ ID, Title, Updated, Link string }

// checkAtom checks body against the rules of RFC 4287 that a feed reader
// relies on, and returns what it holds:
//   - the root is atom:feed in the Atom namespace (section 4.1.1);
//   - a feed and each entry has exactly one id, title and updated, the
//     feed an author or each entry one (4.1.1, 4.1.2);
//   - an id is an absolute IRI (4.2.6), and no two entries share one;
//   - a date is RFC 3339 with its zone (3.3);
//   - an entry without content has a link rel="alternate" (4.1.2), and
//     every link has an absolute href; a feed has at most one alternate
//     link of a type (4.1.1);
//   - a person has a name (3.2.1).
func checkAtom(t *testing.T, what, body string) checkedFeed {
	t.Helper()
	var root xmlNode
	if err := xml.Unmarshal([]byte(body), &root); err != nil {
		t.Fatalf("%s: not XML: %v\n%s", what, err, body)
	}
	if root.XMLName.Space != atomNS || root.XMLName.Local != "feed" {
		t.Fatalf("%s: the root is {%s}%s, want atom:feed", what, root.XMLName.Space, root.XMLName.Local)
	}
	var f checkedFeed
	one := func(where string, n xmlNode, name string) string {
		t.Helper()
		c := n.children(name)
		if len(c) != 1 {
			t.Errorf("%s: %s has %d atom:%s, want exactly one", what, where, len(c), name)
			return ""
		}
		return strings.TrimSpace(c[0].Text)
	}
	absolute := func(where, iri string) {
		t.Helper()
		if u, err := url.Parse(iri); err != nil || !u.IsAbs() || u.Host == "" && u.Scheme != "tag" {
			t.Errorf("%s: %s %q is no absolute IRI", what, where, iri)
		}
	}
	date := func(where, s string) {
		t.Helper()
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			t.Errorf("%s: %s %q is no RFC 3339 date: %v", what, where, s, err)
		}
	}
	persons := func(where string, n xmlNode) int {
		t.Helper()
		authors := n.children("author")
		for _, a := range authors {
			if one(where+"'s author", a, "name") == "" {
				t.Errorf("%s: %s has an author without a name", what, where)
			}
		}
		return len(authors)
	}
	links := func(where string, n xmlNode) (alternates map[string]int, first string) {
		t.Helper()
		alternates = map[string]int{}
		for _, l := range n.children("link") {
			absolute(where+"'s link", l.attr("href"))
			if rel := l.attr("rel"); rel == "" || rel == "alternate" {
				alternates[l.attr("type")]++
				if first == "" {
					first = l.attr("href")
				}
			}
		}
		return alternates, first
	}
	absolute("the feed's id", one("the feed", root, "id"))
	one("the feed", root, "title")
	f.Updated = one("the feed", root, "updated")
	date("the feed's updated", f.Updated)
	feedAuthor := persons("the feed", root) > 0
	if alts, _ := links("the feed", root); len(alts) > 0 {
		for typ, n := range alts {
			if n > 1 {
				t.Errorf("%s: the feed has %d alternate links of type %q", what, n, typ)
			}
		}
	}
	ids := map[string]bool{}
	for i, e := range root.children("entry") {
		where := fmt.Sprintf("entry %d", i+1)
		ce := checkedEntry{ID: one(where, e, "id"), Title: one(where, e, "title"), Updated: one(where, e, "updated")}
		absolute(where+"'s id", ce.ID)
		date(where+"'s updated", ce.Updated)
		if ids[ce.ID] {
			t.Errorf("%s: two entries have the id %s", what, ce.ID)
		}
		ids[ce.ID] = true
		if persons(where, e) == 0 && !feedAuthor {
			t.Errorf("%s: %s has no author, nor has the feed", what, where)
		}
		alts, first := links(where, e)
		if len(e.children("content")) == 0 && len(alts) == 0 {
			t.Errorf("%s: %s has neither content nor an alternate link", what, where)
		}
		ce.Link = first
		f.Entries = append(f.Entries, ce)
	}
	return f
}

// fetchFeed gets a feed, checks its type and its Atom, and returns it.
func fetchFeed(t *testing.T, s *Server, target string) checkedFeed {
	t.Helper()
	r := get(t, s, target)
	b := body(t, r)
	if r.StatusCode != 200 || r.Header.Get("Content-Type") != "application/atom+xml" {
		t.Fatalf("GET %s: %d %s:\n%s", target, r.StatusCode, r.Header.Get("Content-Type"), b)
	}
	checkPrivate(t, target, b)
	return checkAtom(t, target, b)
}

var feedKeyURL = regexp.MustCompile(`https://pbem\.example\.org(/users/\w+/todo\.atom\?key=[a-z2-7]+)`)

// feedOf asks the service for the player's feed key by mail and returns
// the feed's path with it, from the mail to his address.
func feedOf(t *testing.T, h *pbemtest.Harness, id string) string {
	t.Helper()
	for _, m := range h.Mail(id+"@example.org", "feed key "+id+" "+pbemtest.Password(id), "") {
		if p := feedKeyURL.FindStringSubmatch(m.Body); m.To == id+"@example.org" && p != nil {
			return p[1]
		}
	}
	t.Fatalf("no feed address came to %s", id)
	return ""
}

// feedHarness is a service whose mails link to https://pbem.example.org,
// with alice and bob signed up.
func feedHarness(t *testing.T) *pbemtest.Harness {
	t.Helper()
	h := pbemtest.New(t)
	h.Service = pbem.New(h.DB, pbem.Config{Address: pbemtest.Address, Now: h.Clock, Auth: pbemtest.Auth(),
		PublicURL: "https://pbem.example.org", Log: slog.New(slog.DiscardHandler)})
	h.SignUp("alice", "bob")
	return h
}

// TestFeedsFollowMoves: a move made by mail takes the board out of the
// mover's todo feed and into his opponent's, adds an entry to the
// board's feed and moves its updated; every feed is Atom 1.0.
func TestFeedsFollowMoves(t *testing.T) {
	t.Parallel()
	h := feedHarness(t)
	h.Mail("alice@example.org", "tanbo challenge alice bob -size=9", "")
	aliceFeed, bobFeed := feedOf(t, h, "alice"), feedOf(t, h, "bob")
	s := New(h.DB, Options{Name: "pbemd test", Now: h.Clock, Rate: 1e6, Burst: 1e6, URL: "https://pbem.example.org/"})

	alice, bob, board := fetchFeed(t, s, aliceFeed), fetchFeed(t, s, bobFeed), fetchFeed(t, s, "/tanbo/101.atom")
	if len(alice.Entries) != 1 || alice.Entries[0].ID != "https://pbem.example.org/tanbo/101?move=0" ||
		alice.Entries[0].Link != "https://pbem.example.org/tanbo/101" || !strings.Contains(alice.Entries[0].Title, "Tanbo board 101 against bob") {
		t.Errorf("alice's feed before her first move: %+v", alice.Entries)
	}
	if len(bob.Entries) != 0 || len(board.Entries) != 0 {
		t.Errorf("before a move, bob's feed has %+v, the board's %+v", bob.Entries, board.Entries)
	}

	h.Now = h.Now.Add(time.Hour)
	h.Mail("alice@example.org", "tanbo move 101 alice "+pbemtest.Password("alice")+" h7", "")
	moved := atomTime(h.Now)

	alice2, bob2, board2 := fetchFeed(t, s, aliceFeed), fetchFeed(t, s, bobFeed), fetchFeed(t, s, "/tanbo/101.atom")
	if len(alice2.Entries) != 0 {
		t.Errorf("alice's feed after her move: %+v", alice2.Entries)
	}
	if len(bob2.Entries) != 1 || bob2.Entries[0].ID != "https://pbem.example.org/tanbo/101?move=1" ||
		bob2.Entries[0].Updated != moved || bob2.Updated != moved || !strings.Contains(bob2.Entries[0].Title, "move #2") {
		t.Errorf("bob's feed after alice's move (at %s): updated %s, %+v", moved, bob2.Updated, bob2.Entries)
	}
	if len(board2.Entries) != 1 || board2.Entries[0].ID != "https://pbem.example.org/tanbo/101?move=1" ||
		board2.Entries[0].Title != "Move 1: Black h7" || board2.Updated != moved || board2.Updated == board.Updated {
		t.Errorf("the board's feed after the move (at %s; before, updated %s): updated %s, %+v", moved, board.Updated, board2.Updated, board2.Entries)
	}

	// bob answers: the newest move comes first, and the turn goes back.
	h.Now = h.Now.Add(time.Hour)
	h.Mail("bob@example.org", "tanbo move 101 bob "+pbemtest.Password("bob")+" b7", "")
	board3 := fetchFeed(t, s, "/tanbo/101.atom")
	if len(board3.Entries) != 2 || board3.Entries[0].Title != "Move 2: White b7" || board3.Updated != atomTime(h.Now) {
		t.Errorf("the board's feed after two moves: %+v", board3)
	}
	if a := fetchFeed(t, s, aliceFeed); len(a.Entries) != 1 || a.Entries[0].ID != "https://pbem.example.org/tanbo/101?move=2" {
		t.Errorf("alice's feed at her second move: %+v", a.Entries)
	}

	// A revoked key opens nothing.
	h.Mail("alice@example.org", "feed revoke alice "+pbemtest.Password("alice"), "")
	if r := get(t, s, aliceFeed); r.StatusCode != 404 {
		t.Errorf("a revoked key: %d, want 404", r.StatusCode)
	}
}

// TestTodoFeedKeys: without the right key a player's feed is no page, and
// its answer tells nothing of whether the player exists; the key is
// checked before the store is read, and a forged one of any shape fails.
func TestTodoFeedKeys(t *testing.T) {
	t.Parallel()
	h := feedHarness(t)
	s := New(h.DB, Options{Now: h.Clock, Rate: 1e6, Burst: 1e6})
	aliceFeed, bobFeed := feedOf(t, h, "alice"), feedOf(t, h, "bob")
	_, aliceKey, _ := strings.Cut(aliceFeed, "?key=")
	_, bobKey, _ := strings.Cut(bobFeed, "?key=")
	if aliceKey == bobKey {
		t.Fatalf("alice and bob have one key %s", aliceKey)
	}
	// Without a configured address the feed's ids are the request's.
	if f := fetchFeed(t, s, aliceFeed); !strings.HasPrefix(f.Updated, "2026-") {
		t.Errorf("alice's feed: %+v", f)
	}
	if b := body(t, get(t, s, aliceFeed)); !strings.Contains(b, "<id>http://example.com/users/alice/todo.atom</id>") {
		t.Errorf("the feed's id is not under the request's host:\n%s", b)
	}
	refusal := ""
	for _, target := range []string{
		"/users/alice/todo.atom",
		"/users/alice/todo.atom?key=",
		"/users/alice/todo.atom?key=" + bobKey,
		"/users/bob/todo.atom?key=" + aliceKey,
		"/users/alice/todo.atom?key=" + strings.ToUpper(aliceKey),
		"/users/alice/todo.atom?key=" + aliceKey[:len(aliceKey)-1],
		"/users/alice/todo.atom?key=" + aliceKey[:len(aliceKey)-1] + "%00",
		"/users/nobody/todo.atom?key=" + aliceKey,
		"/users/" + strings.Repeat("a", 200) + "/todo.atom?key=" + aliceKey,
		"/users/ALICE/todo.atom?key=" + bobKey,
	} {
		r := get(t, s, target)
		b := body(t, r)
		if r.StatusCode != 404 || strings.Contains(b, "<feed") {
			t.Errorf("GET %s: %d, want 404:\n%s", target, r.StatusCode, b)
			continue
		}
		if refusal == "" {
			refusal = b
		} else if b != refusal {
			t.Errorf("GET %s answers otherwise than another refused key:\n%s\n%s", target, b, refusal)
		}
	}
	for target, status := range map[string]int{
		"/users/alice/todo.atom?key=" + aliceKey + "&key=" + aliceKey: 400,
		"/users/alice/todo.atom?key=" + aliceKey + "&page=2":          400,
		"/users/alice/todo.atom?key=" + strings.Repeat("k", 100):      414,
	} {
		if r := get(t, s, target); r.StatusCode != status {
			t.Errorf("GET %s: %d, want %d", target, r.StatusCode, status)
		}
	}
	// The id of a user is case-insensitive, as in mail; the key is not.
	fetchFeed(t, s, strings.Replace(aliceFeed, "alice", "Alice", 1))
	// A keyed feed stays out of shared caches.
	if cc := get(t, s, aliceFeed).Header.Get("Cache-Control"); !strings.Contains(cc, "private") {
		t.Errorf("a keyed feed's Cache-Control is %q", cc)
	}
}

// TestBoardFeeds: each board of the played store has a valid feed of its
// last moves, at most feedMoves, the newest first, and its end; the feed
// has an ETag and answers 304 to it; hostile addresses are refused.
func TestBoardFeeds(t *testing.T) {
	t.Parallel()
	p := sharedPlayed(t)
	s := newTestServer(p)
	longest := 0
	for _, g := range []map[string]int{p.games, p.live} {
		for kind, num := range g {
			target := fmt.Sprintf("/%s/%d.atom", kind, num)
			f := fetchFeed(t, s, target)
			rec := p.game(t, kind, num)
			want := min(len(rec.Moves), feedMoves)
			if rec.Over {
				want++
			}
			if len(f.Entries) != want {
				t.Errorf("GET %s: %d entries, want %d (%d moves)", target, len(f.Entries), want, len(rec.Moves))
			}
			longest = max(longest, len(rec.Moves))
			last := fmt.Sprintf("/%s/%d?move=%d", kind, num, len(rec.Moves))
			i := 0
			if rec.Over {
				i = 1
			}
			if i < len(f.Entries) && !strings.HasSuffix(f.Entries[i].ID, last) {
				t.Errorf("GET %s: the newest move's entry is %s, want one ending %s", target, f.Entries[i].ID, last)
			}
			etag := get(t, s, target).Header.Get("ETag")
			if r := get(t, s, target, "If-None-Match", etag); etag == "" || r.StatusCode != 304 {
				t.Errorf("GET %s with its ETag %q: %d", target, etag, r.StatusCode)
			}
		}
	}
	if longest <= feedMoves {
		t.Errorf("no board has more than %d moves: the bound is not tested", feedMoves)
	}
	for target, status := range map[string]int{
		"/ultima/101.atom?move=1":  400,
		"/ultima/999.atom":         404,
		"/ultima/abc.atom":         404,
		"/ultima/.atom":            404,
		"/ultima/101.atom.atom":    404,
		"/ultima/-1.atom":          404,
		"/chess/101.atom":          404,
		"/ultima/0101.atom":        404,
		"/ultima/99999999999.atom": 404,
	} {
		r := get(t, s, target)
		b := body(t, r)
		if r.StatusCode != status || r.Header.Get("Content-Type") != "text/plain; charset=utf-8" && status != 404 {
			t.Errorf("GET %s: %d %s, want %d:\n%s", target, r.StatusCode, r.Header.Get("Content-Type"), status, b)
		}
	}
}
