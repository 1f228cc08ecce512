package web

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/pbemtest"
)

// TestTodoAndClock: a player's page and its JSON list the boards at his
// move with the end of his clock; a board's page and JSON show its clock
// and banks; neither shows an address.
func TestTodoAndClock(t *testing.T) {
	var mails [][]byte
	for i, m := range [][2]string{
		{"alice", "signup alice secret"}, {"bob", "signup bob secret"},
		{"alice", "tanbo challenge alice bob -size=9 -clock=fischer:2d+1d/3d"}, {"alice", "tanbo move 101 alice secret h7"},
	} {
		mails = append(mails, pbemtest.Mail(m[0]+"@example.org", m[1], "", fmt.Sprintf("t%d@client.example", i)))
	}
	s := servedAfter(t, mails...)
	page := body(t, get(t, s, "/users/bob"))
	checkPrivate(t, "/users/bob", page)
	for _, want := range []string{"At bob's move", `<a href="/tanbo/101">Tanbo 101</a>`, `<a href="/users/alice">alice</a>`, "<td>h7</td>", " UTC</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("bob's page lacks %q:\n%.3000s", want, page)
		}
	}
	var todo todoDoc
	if err := json.NewDecoder(get(t, s, "/users/bob.json").Body).Decode(&todo); err != nil {
		t.Fatal(err)
	}
	if len(todo.Todo) != 1 || todo.Todo[0].Game != "tanbo" || todo.Todo[0].Board != 101 || todo.Todo[0].Opponent != "alice" ||
		todo.Todo[0].Move != 2 || todo.Todo[0].LastMove != "h7" || todo.Todo[0].Deadline.Sub(todo.Todo[0].Since) != 48*time.Hour {
		t.Errorf("bob's todo: %+v", todo)
	}
	if alice := body(t, get(t, s, "/users/alice.json")); !strings.Contains(alice, `"todo": []`) {
		t.Errorf("alice's todo, with no board at her move:\n%s", alice)
	}
	var doc boardDoc
	if err := json.NewDecoder(get(t, s, "/tanbo/101.json").Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc.Clock.Spec != "fischer:2d+1d/3d" || len(doc.Clock.Banks) != 2 || doc.Clock.Banks[1] != (bankJS{User: "bob", Seconds: 2 * 86400}) {
		t.Errorf("the board's clock: %+v", doc.Clock)
	}
	if b := body(t, get(t, s, "/tanbo/101")); !strings.Contains(b, "Clock: Fischer: 2d to start, 1d more after each move, at most 3d.") ||
		strings.Contains(b, "forfeit after 21 days") {
		t.Errorf("the board's page does not show its clock, or shows days as well:\n%.3000s", b)
	}
}
