package web

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
)

// Atom 1.0 feeds (RFC 4287): a board's moves at /GAME/BOARD.atom, public
// as its page is, and a player's boards at his move at
// /users/NAME/todo.atom?key=KEY, the key mailed to him by "feed key"
// (pbem's feeds.go). Every id is the address of a page: a move's entry is
// the board after that move, a todo entry the board at the turn it
// waits for, so that a feed reader sees a new entry for each new turn and
// never the same entry twice.

// feedMoves bounds the entries of a board's feed: its last moves.
const feedMoves = 20

// atomType is the media type of a feed (RFC 4287, section 7).
const atomType = "application/atom+xml"

type atomFeed struct {
	XMLName  xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	ID       string      `xml:"id"`
	Title    string      `xml:"title"`
	Subtitle string      `xml:"subtitle,omitempty"`
	Updated  string      `xml:"updated"`
	Author   atomPerson  `xml:"author"`
	Links    []atomLink  `xml:"link"`
	Entries  []atomEntry `xml:"entry"`
}

type atomPerson struct {
	Name string `xml:"name"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomEntry struct {
	ID      string   `xml:"id"`
	Title   string   `xml:"title"`
	Updated string   `xml:"updated"`
	Link    atomLink `xml:"link"`
	Summary string   `xml:"summary"`
}

// atomTime is an instant as Atom writes it (RFC 3339, in UTC).
func atomTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// feedPage is the feed as a page.
func feedPage(f *atomFeed) (page, error) {
	buf := getBuffer()
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(buf)
	enc.Indent("", " ")
	if err := enc.Encode(f); err != nil {
		putBuffer(buf)
		return page{}, err
	}
	buf.WriteByte('\n')
	return page{body: buf.Bytes(), ctype: atomType, buf: buf}, nil
}

// base is the site's address with no slash at its end: the configured one,
// else the request's own.
func (s *Server) base(r *http.Request) string {
	if s.opts.URL != "" {
		return strings.TrimRight(s.opts.URL, "/")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	host := r.Host
	if host == "" || strings.ContainsFunc(host, func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune(".-:[]", c))
	}) {
		host = "localhost" // no address to trust: ids stay URIs
	}
	return scheme + "://" + host
}

// boardURL is the address of a board's page, after move n when n >= 0.
func boardURL(base string, rec *store.Game, n int) string {
	u := fmt.Sprintf("%s/%s/%d", base, rec.Kind, rec.Board)
	if n >= 0 {
		u += "?move=" + strconv.Itoa(n)
	}
	return u
}

// boardFeed is a board's last feedMoves moves, the newest first, and its
// end when it is over.
func (s *Server) boardFeed(g rules.Game, text string, q url.Values, base string) (page, error) {
	if err := onlyParams(q); err != nil {
		return page{}, err
	}
	b, err := s.loadBoard(g, text, nil)
	if err != nil {
		return page{}, err
	}
	rec := b.rec
	f := &atomFeed{
		ID:       boardURL(base, rec, -1),
		Title:    fmt.Sprintf("%s Board %d", g.Title(), rec.Board),
		Subtitle: b.status(),
		Author:   atomPerson{s.opts.Name},
		Links: []atomLink{
			{Rel: "self", Type: atomType, Href: fmt.Sprintf("%s/%s/%d.atom", base, rec.Kind, rec.Board)},
			{Rel: "alternate", Type: "text/html", Href: boardURL(base, rec, -1)},
		},
	}
	updated := rec.Created
	if rec.Over {
		updated = rec.Updated
		f.Entries = append(f.Entries, atomEntry{
			ID: boardURL(base, rec, len(rec.Moves)) + "#end", Title: b.status(), Updated: atomTime(rec.Updated),
			Link: atomLink{Rel: "alternate", Type: "text/html", Href: boardURL(base, rec, -1)}, Summary: b.status(),
		})
	}
	sides := g.Sides()
	for n := len(rec.Moves); n > 0 && n > len(rec.Moves)-feedMoves; n-- {
		m := rec.Moves[n-1]
		at := m.At
		if at.IsZero() {
			at = rec.Created // a record written before moves had times
		}
		if at.After(updated) {
			updated = at
		}
		text := rules.Step{Move: m.Text, Captured: m.Captured}.String()
		f.Entries = append(f.Entries, atomEntry{
			ID:      boardURL(base, rec, n),
			Title:   fmt.Sprintf("Move %d: %s %s", n, sides[m.Seat&1], text),
			Updated: atomTime(at),
			Link:    atomLink{Rel: "alternate", Type: "text/html", Href: boardURL(base, rec, n)},
			Summary: fmt.Sprintf("%s (%s) played move #%d, %s.", board.SeatName(rec, m.Seat), sides[m.Seat&1], n, text),
		})
	}
	f.Updated = atomTime(updated)
	return feedPage(f)
}

// todoFeed is the boards at a player's move, as "todo" lists them, for
// the holder of his feed key. Without the right key it is no page at all,
// whether the user exists or not.
func (s *Server) todoFeed(name string, q url.Values, base string) (page, error) {
	none := notFound("There is no such feed; the address of a player's feed comes by mail: feed key USERID PASSWORD.")
	if err := onlyParams(q, "key"); err != nil {
		return page{}, err
	}
	if name == "" || len(name) > 64 || len(q.Get("key")) != pbem.FeedKeyChars {
		return page{}, none
	}
	var items []pbem.TodoItem
	var more bool
	var u *store.User
	err := s.db.View(func(tx *store.Tx) error {
		ok, err := pbem.FeedKeyValid(tx, name, q.Get("key"))
		if err != nil || !ok {
			return err
		}
		if u, err = tx.User(name); err != nil {
			return err
		}
		items, more, err = pbem.Todo(tx, u.ID, "")
		return err
	})
	if err != nil {
		return page{}, err
	}
	if u == nil {
		return page{}, none
	}
	f := &atomFeed{
		// Its id is its address without the key: a new key is the
		// same feed.
		ID:       base + "/users/" + url.PathEscape(u.ID) + "/todo.atom",
		Title:    "Boards at " + u.ID + "'s move",
		Subtitle: "The most urgent first: the nearest end of the clock, then the oldest turn.",
		Author:   atomPerson{s.opts.Name},
		Links: []atomLink{
			{Rel: "self", Type: atomType, Href: base + pbem.FeedPath(u.ID, q.Get("key"))},
			{Rel: "alternate", Type: "text/html", Href: base + "/users/" + url.PathEscape(u.ID)},
		},
	}
	if more {
		f.Subtitle += " There are more boards at this move than listed."
	}
	updated := u.Created
	for _, it := range items {
		if it.Since.After(updated) {
			updated = it.Since
		}
		rec := &store.Game{Kind: it.Game, Board: it.Board}
		last := "no move yet"
		if it.LastMove != "" {
			last = it.Opponent + " played " + it.LastMove
		}
		clock := "The clock stands while your proposal is open."
		if !it.Deadline.IsZero() {
			clock = "The clock runs out at " + it.Deadline.UTC().Format(timeLayout) + "."
		}
		f.Entries = append(f.Entries, atomEntry{
			ID:      boardURL(base, rec, it.Move-1),
			Title:   fmt.Sprintf("%s board %d against %s: move #%d", it.Title, it.Board, it.Opponent, it.Move),
			Updated: atomTime(it.Since),
			Link:    atomLink{Rel: "alternate", Type: "text/html", Href: boardURL(base, rec, -1)},
			Summary: fmt.Sprintf("%s's move: %s. %s", u.ID, last, clock),
		})
	}
	f.Updated = atomTime(updated)
	return feedPage(f)
}
