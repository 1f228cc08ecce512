package web

import (
	"fmt"
	"log/slog"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

// mailRow is a player's line of the standings mail: rank, user, rating.
var mailRow = regexp.MustCompile(`(?m)^ *\d+  (\S+) +\d+P? `)

// Issue 27, item 8: a game's standings page said "No rated games yet"
// while the standings mail listed players: the page ranked only players
// with a finished game, read from every account; the mail reads the
// rating index, which also lists who plays a first game. Now the page is
// made from the mail's source. Played by mail: a first Ultima game in
// progress, a Tanbo game finished (and one begun by a third player), no
// Tobit game. Each game's standings page in the browser, at a desktop's
// width and a phone's, names the players of the mail, in its order and
// sections, and a forged sender changes nothing.
func TestStandingsPageListsTheMailsPlayers(t *testing.T) {
	db := storetest.New(t)
	now := testStart
	clock := func() time.Time { return now }
	svc := pbem.New(db, pbem.Config{Address: "pbem@example.org", Now: clock, Log: slog.New(slog.DiscardHandler),
		Limits: pbem.Limits{Mails: 1 << 30}, Auth: pbemtest.Auth()})
	n := 0
	deliver := func(raw []byte) {
		t.Helper()
		now = now.Add(17 * time.Minute)
		if err := svc.Deliver(raw); err != nil {
			t.Fatal(err)
		}
	}
	send := func(from, subject string) {
		t.Helper()
		n++
		deliver(pbemtest.Mail(from+"@example.org", subject, "", fmt.Sprintf("s%d@client.example", n)))
	}
	for _, u := range []string{"alice", "bob", "carol", "dave"} {
		send(u, "signup "+u+" secret")
	}
	send("alice", "ultima challenge alice bob")
	send("alice", "ultima move 101 alice secret e2-e4")
	send("carol", "tanbo challenge carol dave -size=9")
	for i := 0; i < 5; i++ { // and dave is to move
		rec := gameOf(t, db, "tanbo", 101)
		_, pos, err := board.Replay(rec, len(rec.Moves))
		if err != nil {
			t.Fatal(err)
		}
		who := rec.Seats[pos.ToMove()]
		send(who, fmt.Sprintf("tanbo move 101 %s secret %s", who, chooseMove(pos, i)))
	}
	send("dave", "tanbo resign 101 dave secret")
	send("bob", "tanbo challenge bob alice -size=9")
	// A mail forged in alice's name, which no provider vouches for,
	// resigns her Ultima game: it must rate nobody.
	deliver(pbemtest.Forged("alice@example.org", "ultima resign 101 alice secret", "", "forged@client.example"))
	if rec := gameOf(t, db, "ultima", 101); rec.Over {
		t.Fatalf("ultima 101 is over (%s) after a forged resignation", rec.EndReason)
	}
	if rec := gameOf(t, db, "tanbo", 101); !rec.Over || rec.Winner != 0 {
		t.Fatalf("tanbo 101: over %v, winner %d; carol should have won when dave resigned", rec.Over, rec.Winner)
	}
	for _, kind := range []string{"ultima", "tanbo", "tobit"} {
		send("carol", kind+" standings")
	}
	mails := map[string]string{}
	for _, m := range pbemtest.TakeOutbox(t, db, now.Add(time.Hour)) {
		if strings.HasSuffix(m.Subject, " standings") && m.To == "carol@example.org" {
			mails[strings.ToLower(strings.TrimSuffix(m.Subject, " standings"))] = m.Body
		}
	}
	want := map[string][]string{"ultima": {"alice", "bob"}, "tanbo": {"carol", "alice", "bob", "dave"}, "tobit": nil}
	for kind, players := range want {
		if got := mailPlayers(mails[kind]); strings.Join(got, " ") != strings.Join(players, " ") {
			t.Fatalf("the %s standings mail lists %q; the games played by mail make it %q:\n%s", kind, got, players, mails[kind])
		}
	}

	ctx := newBrowser(t)
	ts := httptest.NewServer(New(db, Options{Mail: "pbem@example.org", Now: clock, Rate: 1e6, Burst: 1e6}))
	defer ts.Close()
	for kind, players := range want {
		visit(t, ctx, ts.URL+"/"+kind+"/standings", kind+"-standings", func(width string) {
			page, err := chromedp.Run(ctx, chromedp.Evaluate[map[string][]string](`(() => ({
				players: [...document.querySelectorAll("table.standings tbody tr td:nth-child(2) a")].map(a => a.textContent),
				sections: [...document.querySelectorAll("main h2")].map(h => h.textContent),
				text: [document.querySelector("main").innerText],
				hidden: [...document.querySelectorAll("main .scroll")].filter(d => d.scrollWidth > d.clientWidth).map(d => d.scrollWidth + ">" + d.clientWidth),
			}))()`))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(page["players"], " ") != strings.Join(players, " ") {
				t.Errorf("the %s standings page at %s width lists %q; the mail lists %q", kind, width, page["players"], players)
			}
			for _, sec := range page["sections"] {
				if !strings.Contains(mails[kind], "\n"+sec+"\n") {
					t.Errorf("the %s standings page at %s width has a section %q the mail has not:\n%s", kind, width, sec, mails[kind])
				}
			}
			if len(page["hidden"]) > 0 {
				t.Errorf("the %s standings at %s width are wider than the page (%q pixels); want every column in sight", kind, width, page["hidden"])
			}
			if empty := strings.Contains(page["text"][0], "No rated games yet"); empty != (players == nil) {
				t.Errorf("the %s standings page at %s width says \"No rated games yet\": %v; the mail lists %q", kind, width, empty, players)
			}
		})
	}
}

// mailPlayers are the user ids of a standings mail's rows, in its order.
func mailPlayers(body string) []string {
	var ids []string
	for _, m := range mailRow.FindAllStringSubmatch(body, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

// gameOf reads a board of db.
func gameOf(t testing.TB, db *store.DB, kind string, board int) *store.Game {
	t.Helper()
	var rec *store.Game
	err := db.View(func(tx *store.Tx) (err error) {
		rec, err = tx.Game(kind, board)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}
