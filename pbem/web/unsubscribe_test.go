package web

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/store"
)

// watched is a store where carol watches tanbo board 101 of alice and
// bob, and the link of carol's one-click unsubscribe from a chat's mail,
// as the outbox stamps it, pointing at a real web server.
func watched(t *testing.T) (db *store.DB, srv *httptest.Server, link string) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cfg := pbem.Config{Address: "pbem@example.org", Now: func() time.Time { return testStart },
		Log: slog.New(slog.DiscardHandler), Auth: pbemtest.Auth(), PublicURL: "https://pbem.example.org"}
	svc := pbem.New(db, cfg)
	for i, c := range []struct{ from, subject string }{
		{"alice", "signup alice secret1"}, {"bob", "signup bob secret2"}, {"carol", "signup carol secret3"},
		{"alice", "tanbo challenge alice bob -size=9"}, {"carol", "tanbo subscribe 101 carol secret3"},
		{"alice", "tanbo chat 101 alice secret1"},
	} {
		if err := svc.Deliver(pbemtest.Mail(c.from+"@example.org", c.subject, "hello", fmt.Sprintf("u%d@client.example", i))); err != nil {
			t.Fatal(err)
		}
	}
	pending, err := db.Pending(testStart.Add(time.Hour), 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	stamp := pbem.NewTokens(db, cfg).Stamp
	for _, p := range pending {
		if p.List == "" || !strings.Contains(strings.Join(p.To, ","), "carol@example.org") {
			continue
		}
		_, fields, err := stamp(&p, "carol@example.org")
		if err != nil {
			t.Fatal(err)
		}
		m, err := mailmsg.ReadMail(mailmsg.WithFields([]byte("From: x@example.org\r\n\r\n"), fields...))
		if err != nil {
			t.Fatal(err)
		}
		link, _, _ = strings.Cut(strings.TrimPrefix(m.Header.Get("List-Unsubscribe"), "<"), ">")
	}
	if !strings.HasPrefix(link, "https://pbem.example.org/unsubscribe/") {
		t.Fatalf("carol's copy of the chat has no unsubscribe link: %q", link)
	}
	srv = httptest.NewServer(New(db, Options{Log: slog.New(slog.DiscardHandler), Now: func() time.Time { return testStart }, Rate: 0.001, Burst: 8}).WithUnsubscribe(svc.Unsubscribe))
	t.Cleanup(srv.Close)
	return db, srv, strings.Replace(link, "https://pbem.example.org", srv.URL, 1)
}

func subscribers(t *testing.T, db *store.DB) []string {
	t.Helper()
	var subs []string
	if err := db.View(func(tx *store.Tx) error {
		g, err := tx.Game("tanbo", 101)
		if err == nil {
			subs = g.Subscribers
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return subs
}

func post(t *testing.T, link, form string) (int, string) {
	t.Helper()
	r, err := http.Post(link, "application/x-www-form-urlencoded", strings.NewReader(form))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r.StatusCode, string(b)
}

// The mail client's one-click POST (RFC 8058) of the link stops the
// board's mail and says so; a GET (a link checker, a browser) only shows
// a button; a POST without the One-Click field, or of a link changed, does
// nothing; and the POSTs count against the client as the pages do.
func TestOneClickPost(t *testing.T) {
	db, _, link := watched(t)
	r, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != http.StatusOK || !strings.Contains(string(page), `<form method="post"`) ||
		!strings.Contains(r.Header.Get("Content-Security-Policy"), "form-action 'self'") {
		t.Fatalf("GET: %d, CSP %q, page:\n%s", r.StatusCode, r.Header.Get("Content-Security-Policy"), page)
	}
	if len(subscribers(t, db)) != 1 {
		t.Fatal("a GET unsubscribed")
	}
	if code, _ := post(t, link, "unsubscribe=yes"); code != http.StatusBadRequest || len(subscribers(t, db)) != 1 {
		t.Fatalf("a POST without List-Unsubscribe=One-Click: %d", code)
	}
	changed := link[:len(link)-3] + "aaa" // another address, not the MAC's
	if code, body := post(t, changed, "List-Unsubscribe=One-Click"); code != http.StatusBadRequest || !strings.Contains(body, "not one pbemd made") || len(subscribers(t, db)) != 1 {
		t.Fatalf("a changed link: %d %s", code, body)
	}
	code, body := post(t, link, url.Values{"List-Unsubscribe": {"One-Click"}}.Encode())
	if code != http.StatusOK || !strings.Contains(body, "No more mail of Tanbo board 101 goes to this address") {
		t.Fatalf("the one click: %d\n%s", code, body)
	}
	if subs := subscribers(t, db); len(subs) != 0 {
		t.Fatalf("after the click the board's subscribers are %v", subs)
	}
	if strings.Contains(body, "carol@example.org") {
		t.Error("the page shows the address")
	}
	for range 8 {
		code, _ = post(t, link, "List-Unsubscribe=One-Click")
	}
	if code != http.StatusTooManyRequests {
		t.Fatalf("the client's POSTs beyond its burst: %d, want 429", code)
	}
}

// A player whose address is paused after its bounces is told so on his
// page, which never shows the address; another player's page says nothing.
func TestUserPageTellsPaused(t *testing.T) {
	db, srv, _ := watched(t)
	// The record pbem's bounces.go keeps of a paused address.
	if err := db.Update(func(tx *store.Tx) error {
		return tx.PutCounter("paused:carol@example.org", store.Counter{Start: testStart, Count: 1, Expires: testStart.Add(24 * time.Hour)})
	}); err != nil {
		t.Fatal(err)
	}
	for user, want := range map[string]bool{"carol": true, "alice": false} {
		r, err := http.Get(srv.URL + "/users/" + user)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if got := strings.Contains(string(b), "is paused: it came back undelivered"); got != want || strings.Contains(string(b), "@example.org") {
			t.Errorf("/users/%s tells paused %v, want %v, and no address:\n%s", user, got, want, b)
		}
	}
}

// The page of an unsubscribe link is in the site's frame (its skip link
// and landmarks), and a link's token, which anyone may write, goes into
// its form escaped.
func TestUnsubscribePageHostileToken(t *testing.T) {
	t.Parallel()
	p := sharedPlayed(t)
	s := newTestServer(p).WithUnsubscribe(func(string) (string, bool, error) { return "", false, nil })
	r := get(t, s, "/unsubscribe/%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E")
	page := body(t, r)
	if r.StatusCode != http.StatusOK || strings.Contains(page, "<script") {
		t.Fatalf("a hostile token: %d\n%s", r.StatusCode, page)
	}
	for _, want := range []string{`<html lang="en">`, `<a class="skip" href="#main">`, `<main id="main"`, `<h1>Unsubscribe from a board</h1>`, `<button type="submit">`} {
		if !strings.Contains(page, want) {
			t.Errorf("the unsubscribe page lacks %s:\n%s", want, page)
		}
	}
}
