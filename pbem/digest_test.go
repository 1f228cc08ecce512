package pbem

import (
	"fmt"
	"strings"
	"testing"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/store"
)

// digestHarness signs up alice and bob and starts n Tanbo boards between
// them, from 101, alice to move on each; alice's board mails then come in
// a digest at 08:00 and 20:00 UTC.
func digestHarness(t *testing.T, n int) *harness {
	t.Helper()
	h := newHarness(t)
	h.signup("alice", "bob")
	for range n {
		if out := h.send("alice@example.org", "tanbo challenge alice bob", ""); len(out) != 2 {
			t.Fatalf("challenge: %v", subjects(out))
		}
	}
	r := one(t, h.send("alice@example.org", "set mail alice pw-alice digest 20:00,08:00", ""), "alice@example.org")
	says(t, r.Body, "Board mails of alice now come in a digest at 08:00, 20:00 UTC: the next at Sun 20:00.")
	return h
}

// firstLegal is the first legal move of the side to move on tanbo board
// num, and who that is.
func firstLegal(t *testing.T, h *harness, num int) (who, move string) {
	t.Helper()
	rec := h.game("tanbo", num)
	_, pos, err := model.Current(rec)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Over {
		return "", ""
	}
	return rec.Seats[pos.ToMove()], pos.Legal()[0]
}

func isDigest(r reply) bool { return strings.HasPrefix(r.Subject, digestSubject) }

// A simulated week of 20 active boards: bob answers every hour, alice only
// by replying to her digests. Besides the answers to her own replies she
// gets at most two mails a day, every one of them a digest, and every
// board moves on twice a day.
func TestDigestWeek(t *testing.T) {
	t.Parallel()
	const boards = 20
	h := digestHarness(t, boards)
	perDay := map[string]int{}
	digests, played := 0, 0
	for range 7 * 24 {
		h.now = h.now.Add(time.Hour)
		out := h.sweep()
		for _, r := range out {
			if r.To != "alice@example.org" {
				continue
			}
			perDay[h.now.Format(time.DateOnly)]++
			if !isDigest(r) {
				t.Fatalf("%s: alice got %q, not a digest:\n%s", h.now, r.Subject, r.Body)
			}
			digests++
			var lines []string
			for num := 101; num < 101+boards; num++ {
				if who, move := firstLegal(t, h, num); who == "alice" {
					lines = append(lines, fmt.Sprintf("tanbo %d %s", num, move))
				}
			}
			answer := h.deliver(h.plainReply("alice@example.org", r, strings.Join(lines, "\n")+"\n"))
			a := one(t, filterTo(answer, "alice@example.org"), "alice@example.org") // the answer to her own mail
			played += strings.Count(a.Body, "Played on")
			hasNot(t, a.Body, "Refused")
		}
		for num := 101; num < 101+boards; num++ {
			if who, move := firstLegal(t, h, num); who == "bob" {
				out := h.send("bob@example.org", fmt.Sprintf("tanbo move %d bob pw-bob %s", num, move), "")
				if got := filterTo(out, "alice@example.org"); len(got) != 0 {
					t.Fatalf("bob's move on board %d mailed alice: %v", num, subjects(got))
				}
			}
		}
	}
	for d, n := range perDay {
		if n > 2 {
			t.Errorf("%s: alice got %d mails", d, n)
		}
	}
	if digests < 13 || digests > 14 {
		t.Errorf("alice got %d digests in a week, want 14 (13 when the last falls after the week)", digests)
	}
	if played < boards*digests-boards {
		t.Errorf("alice played %d moves by %d digests of %d boards", played, digests, boards)
	}
}

// One reply of 20 lines to a digest: each legal move is played, each
// refused line says why, and one mail answers all; a second reply with
// the same token, and a forged one, play nothing.
func TestDigestReply(t *testing.T) {
	t.Parallel()
	h := digestHarness(t, 21)
	h.now = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	d := one(t, h.sweep(), "alice@example.org")
	says(t, d.Body, "Tanbo board 101 against bob: no move yet.", "Reply line: tanbo 120 MOVE (move #1)",
		"Boards at your move besides these: 1; send todo.")
	hasNot(t, d.Body, "tanbo 121 MOVE")
	checkWidth(t, "digest", d)
	if !strings.HasPrefix(d.messageID(), tokenIDPrefix) {
		t.Fatalf("the digest carries no reply token: %q", d.messageID())
	}

	// A forged From with the token plays nothing, nor does alice's
	// address without it.
	_, move := firstLegal(t, h, 101)
	h.deliver(h.plainReply("mallory@evil.example", d, "tanbo 101 "+move+"\n"))
	h.send("alice@example.org", "Re: "+d.Subject, "tanbo 101 "+move+"\n")
	if n := len(h.game("tanbo", 101).Moves); n != 0 {
		t.Fatalf("a forged reply played %d moves", n)
	}

	var lines []string
	for num := 101; num <= 116; num++ { // 16 legal moves, half without the game
		_, move := firstLegal(t, h, num)
		if num%2 == 0 {
			lines = append(lines, fmt.Sprintf("%d %s", num, move))
		} else {
			lines = append(lines, fmt.Sprintf("tanbo %d %s", num, move))
		}
	}
	lines = append(lines,
		"tanbo 117 zz99",              // illegal
		"118 a1#7",                    // the wrong move number
		"tanbo 121 "+move,             // not in the digest
		"tanbo 101 "+move,             // a second line for board 101
		"tanbo 119 "+move+" and more", // beyond one line a board: not read
	)
	out := h.deliver(h.plainReply("alice@example.org", d, strings.Join(lines, "\n")+"\n\n> quoted digest\n"))
	a := one(t, filterTo(out, "alice@example.org"), "alice@example.org")
	if got := strings.Count(a.Body, "Played on"); got != 16 {
		t.Errorf("%d lines played, want 16:\n%s", got, a.Body)
	}
	says(t, a.Body,
		"tanbo 117 zz99 Refused:",
		"118 a1#7 Refused: the digest listed this board at move #1, not #7.",
		"Refused: this digest does not list board 121",
		"Refused: board 101 was answered by an earlier line of this reply.",
		"1 more lines were not read",
	)
	if got := len(filterTo(out, "bob@example.org")); got != 16 {
		t.Errorf("bob got %d board mails, want 16", got)
	}
	for num := 117; num <= 121; num++ {
		if n := len(h.game("tanbo", num).Moves); n != 0 {
			t.Errorf("board %d has %d moves after a refused line", num, n)
		}
	}
	for _, r := range out {
		checkWidth(t, "digest answer", r)
	}

	// The token is spent: the same reply again plays nothing.
	again := one(t, h.deliver(h.plainReply("alice@example.org", d, "tanbo 117 "+move+"\n")), "alice@example.org")
	says(t, again.Body, "This digest has been answered already")
	if n := len(h.game("tanbo", 117).Moves); n != 0 {
		t.Errorf("a spent digest token played %d moves", n)
	}
}

// While alice takes a digest, bob's moves mail only bob; "set mail each"
// brings her a mail at each move again. Her own commands are answered as
// always, and the end of a game is mailed at once.
func TestDigestHoldsAndEach(t *testing.T) {
	t.Parallel()
	h := digestHarness(t, 2)
	_, m := firstLegal(t, h, 101)
	if out := h.send("alice@example.org", "tanbo move 101 alice pw-alice "+m, ""); len(filterTo(out, "alice@example.org")) != 1 {
		t.Fatalf("alice's own move was not answered: %v", subjects(out))
	}
	_, m = firstLegal(t, h, 101)
	out := h.send("bob@example.org", "tanbo move 101 bob pw-bob "+m, "")
	if len(filterTo(out, "alice@example.org")) != 0 || len(filterTo(out, "bob@example.org")) != 1 {
		t.Fatalf("bob's move in digest mode: %v", subjects(out))
	}
	out = h.send("bob@example.org", "tanbo resign 102 bob pw-bob", "")
	if len(filterTo(out, "alice@example.org")) != 1 {
		t.Fatalf("the end of a game did not reach alice: %v", subjects(out))
	}

	one(t, h.send("alice@example.org", "set mail alice pw-alice each", ""), "alice@example.org")
	_, m = firstLegal(t, h, 101)
	h.send("alice@example.org", "tanbo move 101 alice pw-alice "+m, "")
	_, m = firstLegal(t, h, 101)
	out = h.send("bob@example.org", "tanbo move 101 bob pw-bob "+m, "")
	if len(filterTo(out, "alice@example.org")) != 1 {
		t.Fatalf("after set mail each, bob's move did not mail alice: %v", subjects(out))
	}
	h.now = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	if out := h.sweep(); len(out) != 0 {
		t.Errorf("a digest after set mail each: %v", subjects(out))
	}
}

// The digest's times are checked: times of day, four at most; a forged
// mail without the password sets nothing.
func TestSetMailRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice")
	for _, c := range []struct{ value, want string }{
		{"digest 25:00", `"25:00" is not a time of day HH:MM`},
		{"digest noon", `"noon" is not a time of day HH:MM`},
		{"digest 01:00,02:00,03:00,04:00,05:00", "at most 4 digests a day can be chosen"},
		{"digest", "no digest time was given"},
		{"weekly", `"weekly" is no way of mailing boards`},
	} {
		r := refused(t, h.send("alice@example.org", "set mail alice pw-alice "+c.value, ""), "alice@example.org")
		says(t, r.Body, c.want)
	}
	refused(t, h.deliver(h.forged("alice@example.org", "set mail alice guessed digest 08:00", "")), "alice@example.org")
	if u := h.user("alice"); u.Extra[mailKey] != "" || u.Extra[digestDueKey] != "" {
		t.Errorf("a refused setting was stored: %v", u.Extra)
	}
	says(t, one(t, h.send("alice@example.org", "set mail alice pw-alice", ""), "alice@example.org").Body,
		"Board mails of alice come at each move.")
}

// Digest times are of the player's zone, and move with it: 08:00 in
// Berlin is 07:00 UTC in winter. The next digest after a change of zone
// follows the new one.
func TestDigestInPlayerZone(t *testing.T) {
	t.Parallel()
	h := digestHarness(t, 1)
	one(t, h.send("alice@example.org", "set timezone alice pw-alice Europe/Berlin", ""), "alice@example.org")
	say := one(t, h.send("alice@example.org", "set mail alice pw-alice digest 08:00", ""), "alice@example.org")
	says(t, say.Body, "digest at 08:00 Europe/Berlin: the next at Mon 08:00.")
	h.now = time.Date(2026, 11, 23, 6, 59, 0, 0, time.UTC)
	if out := h.sweep(); len(out) != 0 {
		t.Fatalf("a digest before its time: %v", subjects(out))
	}
	h.now = h.now.Add(time.Minute)
	if d := one(t, h.sweep(), "alice@example.org"); !isDigest(d) {
		t.Fatalf("at 08:00 Berlin: %q", d.Subject)
	}
	one(t, h.send("alice@example.org", "set timezone alice pw-alice America/New_York", ""), "alice@example.org")
	h.now = time.Date(2026, 11, 23, 12, 59, 0, 0, time.UTC)
	if out := h.sweep(); len(out) != 0 {
		t.Fatalf("a digest before 08:00 in New York: %v", subjects(out))
	}
	h.now = time.Date(2026, 11, 23, 13, 0, 0, 0, time.UTC) // 08:00 in New York
	one(t, h.sweep(), "alice@example.org")
	h.now = time.Date(2026, 11, 24, 7, 0, 0, 0, time.UTC)
	if out := h.sweep(); len(out) != 0 {
		t.Fatalf("a digest at the old zone's time: %v", subjects(out))
	}
}

// A mail that answers a digest by its subject, with no lines, runs its
// subject; one that names a digest only in References plays no line.
func TestDigestReplyBySubject(t *testing.T) {
	t.Parallel()
	h := digestHarness(t, 1)
	h.now = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	d := one(t, h.sweep(), "alice@example.org")
	_, move := firstLegal(t, h, 101)

	threaded := strings.Replace(string(h.plainReply("alice@example.org", d, "tanbo 101 "+move+"\n")),
		"In-Reply-To: <"+d.messageID()+">\r\n", "", 1)
	r := one(t, h.deliver([]byte(threaded)), "alice@example.org")
	says(t, r.Body, "names a digest only in its References")
	if n := len(h.game("tanbo", 101).Moves); n != 0 {
		t.Fatalf("a reply threaded to a digest played %d moves", n)
	}

	raw := strings.Replace(string(h.plainReply("alice@example.org", d, "")),
		"Subject: Re: "+d.Subject, "Subject: tanbo move 101 alice pw-alice "+move, 1)
	h.deliver([]byte(raw))
	if n := len(h.game("tanbo", 101).Moves); n != 1 {
		t.Fatalf("the subject's move was not played: %d moves", n)
	}
}

// A digest that cannot be made (its player's record unreadable) is
// dropped and logged; the digests after it still go.
func TestDigestUnreadablePassedOver(t *testing.T) {
	t.Parallel()
	h := digestHarness(t, 2)
	_, m := firstLegal(t, h, 101)
	h.send("alice@example.org", "tanbo move 101 alice pw-alice "+m, "")
	one(t, h.send("bob@example.org", "set mail bob pw-bob digest 20:00", ""), "bob@example.org")
	if err := h.db.Update(func(tx *store.Tx) error { return tx.CorruptUser("alice") }); err != nil {
		t.Fatal(err)
	}
	h.now = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	out := h.sweep()
	if d := one(t, out, "bob@example.org"); !isDigest(d) {
		t.Fatalf("bob's digest beside alice's unreadable one: %q", d.Subject)
	}
	if out := h.sweep(); len(out) != 0 {
		t.Errorf("the dropped digest came back: %v", subjects(out))
	}
}

// Only a plain move waits for the digest: a move with a comment, and a
// proposal to answer, reach the digest player at once.
func TestDigestHoldsOnlyPlainMoves(t *testing.T) {
	t.Parallel()
	h := digestHarness(t, 1)
	_, m := firstLegal(t, h, 101)
	h.send("alice@example.org", "tanbo move 101 alice pw-alice "+m, "")
	_, m = firstLegal(t, h, 101)
	out := h.send("bob@example.org", "tanbo move 101 bob pw-bob "+m, "Well played so far.")
	if got := filterTo(out, "alice@example.org"); len(got) != 1 || !strings.Contains(got[0].Body, "Well played so far.") {
		t.Fatalf("bob's move with a comment did not reach alice in digest mode: %v", subjects(out))
	}
	_, m = firstLegal(t, h, 101)
	h.send("alice@example.org", "tanbo move 101 alice pw-alice "+m, "")
	out = h.send("bob@example.org", "tanbo move 101 bob pw-bob propose", "")
	if len(filterTo(out, "alice@example.org")) != 1 {
		t.Fatalf("bob's draw proposal did not reach alice in digest mode: %v", subjects(out))
	}
}
