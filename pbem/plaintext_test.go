package pbem

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
)

// plainPart is the text/plain part of a mail as a plain-text mail client
// shows it: the whole body of a text/plain mail, or the first text/plain
// part of a multipart one, its transfer encoding undone. It fails t when
// the mail has no such part: a client that shows no HTML would show the
// player nothing.
func plainPart(t *testing.T, raw []byte) string {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("a reply does not parse: %v", err)
	}
	text, ok := findPlain(m.Header.Get("Content-Type"), m.Header.Get("Content-Transfer-Encoding"), m.Body)
	if !ok {
		t.Fatalf("the reply %q has no text/plain part (Content-Type %q)", m.Header.Get("Subject"), m.Header.Get("Content-Type"))
	}
	return text
}

// findPlain reads a body of the given type and encoding, and returns its
// first text/plain part; ok is false when it has none. A part that
// declares no type is text/plain (RFC 2045, 5.2).
func findPlain(ctype, encoding string, body io.Reader) (text string, ok bool) {
	if ctype == "" {
		ctype = "text/plain"
	}
	media, params, err := mime.ParseMediaType(ctype)
	if err != nil {
		return "", false
	}
	if strings.HasPrefix(media, "multipart/") {
		parts := multipart.NewReader(body, params["boundary"])
		for {
			p, err := parts.NextRawPart()
			if err != nil {
				return "", false
			}
			if text, ok := findPlain(p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p); ok {
				return text, true
			}
		}
	}
	if media != "text/plain" {
		return "", false
	}
	switch strings.ToLower(encoding) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		return "", false // the service writes none; a board must arrive byte-exact
	}
	b, err := io.ReadAll(body)
	return strings.ReplaceAll(string(b), "\r\n", "\n"), err == nil
}

// A player whose mail client shows only plain text plays a whole game of
// each kind from the board mails alone: each player reads whose turn it
// is from the text of his newest board mail, finds there the board the
// rules hold, the last move, and the command to move, whose PASSWORD and
// MOVE he fills in. Every reply of the game has a text/plain part. The
// test keeps the position itself, by the rules, and never reads the store.
func TestPlainTextPlay(t *testing.T) {
	t.Parallel()
	for _, g := range catalog.All() {
		t.Run(g.Name(), func(t *testing.T) {
			t.Parallel()
			playByText(t, g)
		})
	}
}

// plainOptions are the challenge options of each game's test: small
// boards, so that the games end soon.
var plainOptions = map[string]string{"tanbo": " -size=9"}

// maxPlainMoves bounds a test game: past it the player to move resigns,
// by the same command with "resign" for MOVE.
const maxPlainMoves = 300

var (
	turnLine    = regexp.MustCompile(`(?m)^It is (\w+)'s turn\.$`)
	commandLine = regexp.MustCompile(`(?m)^  (\w+ move \d+ (\w+) PASSWORD MOVE#(\d+))$`)
	endLine     = regexp.MustCompile(`(?m)^(Game won by (\w+)\.|Game was a tie\.)$`)
)

func playByText(t *testing.T, g rules.Game) {
	h := newHarness(t)
	h.signup("alice", "bob")
	seats := [2]string{"alice", "bob"} // the challenger moves first
	opts, err := rules.ParseOptions(g, strings.Fields(plainOptions[g.Name()]))
	if err != nil {
		t.Fatal(err)
	}
	pos, err := g.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	// newest is the text of each player's newest board mail.
	newest := map[string]string{}
	read := func(out []reply) {
		t.Helper()
		for _, r := range out {
			text := plainPart(t, r.Raw)
			if strings.HasSuffix(r.Subject, "Error") || strings.HasSuffix(r.Subject, "error") {
				t.Fatalf("%s got an error mail:\n%s", r.To, text)
			}
			if who, ok := strings.CutSuffix(r.To, "@example.org"); ok && strings.Contains(r.Subject, g.Title()+" Board ") {
				newest[who] = text
			}
		}
	}
	read(h.send("alice@example.org", g.Name()+" challenge alice bob"+plainOptions[g.Name()], ""))
	var mover, last string // who played the last move, and what
	played := 0
	for n := 1; !pos.Result().Over; n++ {
		// The other player's mail says whose turn it is; his own mail
		// says so too, and how to move.
		other := seats[1-pos.ToMove()]
		m := turnLine.FindStringSubmatch(newest[other])
		if m == nil {
			t.Fatalf("before move %d, %s's board mail says nobody's turn:\n%s", n, other, newest[other])
		}
		who := m[1]
		if who != seats[pos.ToMove()] {
			t.Fatalf("before move %d, the mail says it is %s's turn; the rules say %s's:\n%s", n, who, seats[pos.ToMove()], newest[other])
		}
		text := newest[who]
		checkBoardText(t, text, pos, fmt.Sprintf("before move %d, %s's mail", n, who))
		if last != "" && !strings.Contains(text, mover+" played "+last) {
			t.Errorf("before move %d, %s's mail does not say %q:\n%s", n, who, mover+" played "+last, text)
		}
		c := commandLine.FindStringSubmatch(text)
		if c == nil || c[2] != who || c[3] != fmt.Sprint(n) {
			t.Fatalf("before move %d, %s's mail gives the command %q; want his move #%d:\n%s", n, who, c, n, text)
		}
		move := pickMove(pos, n)
		if n == 3 {
			forgedMove(t, h, other, c[1], move)
		}
		if n > maxPlainMoves {
			move = "resign"
		}
		subject := strings.Replace(strings.Replace(c[1], "PASSWORD", pbemtest.Password(who), 1), "MOVE", move, 1)
		clear(newest)
		h.now = h.now.Add(3 * time.Minute) // within a player's commands an hour
		read(h.send(who+"@example.org", subject, ""))
		if newest["alice"] == "" || newest["bob"] == "" {
			t.Fatalf("%s's move #%d %s brought no board mail to each player", who, n, move)
		}
		if move == "resign" {
			t.Logf("%s resigned at move %d", who, n)
			checkEnd(t, newest, "Game won by "+seats[1-pos.ToMove()]+".")
			return
		}
		if _, err := pos.Play(move); err != nil {
			t.Fatalf("the rules refuse %s, which they listed: %v", move, err)
		}
		mover, last, played = who, move, n
	}
	res := pos.Result()
	want := "Game was a tie."
	if res.Winner != rules.Draw {
		want = "Game won by " + seats[res.Winner] + "."
	}
	t.Logf("%d moves: %s", played, want)
	checkEnd(t, newest, want)
	for _, who := range seats {
		checkBoardText(t, newest[who], pos, who+"'s last mail")
	}
}

// checkBoardText checks that a board mail's text shows the board the
// rules draw for pos.
func checkBoardText(t *testing.T, text string, pos rules.Position, which string) {
	t.Helper()
	if !strings.Contains(text, pos.Board()) {
		t.Fatalf("%s does not show the board the rules hold:\n%s\nwant within it:\n%s", which, text, pos.Board())
	}
}

// checkEnd checks that both players' last mails say the game's end.
func checkEnd(t *testing.T, newest map[string]string, want string) {
	t.Helper()
	for who, text := range newest {
		if m := endLine.FindString(text); m != want {
			t.Errorf("%s's last mail says %q of the end; want %q:\n%s", who, m, want, text)
		}
	}
}

// pickMove is a legal move of pos, one that wins when there is one: the
// games end sooner than by chance alone.
func pickMove(pos rules.Position, n int) string {
	legal := pos.Legal()
	for _, m := range legal {
		next := pos.Clone()
		if _, err := next.Play(m); err == nil && next.Result().Over {
			return m
		}
	}
	return legal[(n*13+n/3)%len(legal)]
}

// forgedMove sends the command of the mover's board mail from the other
// player's address, not vouched for and with a wrong password: it is not
// played (the game goes on from the position the rules hold), and its
// sender alone gets an error mail whose text part says why.
func forgedMove(t *testing.T, h *harness, from, command, move string) {
	t.Helper()
	wrong := "not-" + pbemtest.Password(from)
	subject := strings.Replace(strings.Replace(command, "PASSWORD", wrong, 1), "MOVE", move, 1)
	out := h.deliver(h.forged(from+"@example.org", subject, ""))
	if len(out) != 1 || out[0].To != from+"@example.org" {
		t.Fatalf("a forged move with a wrong password got %v; want one error mail to its sender", subjects(out))
	}
	text := plainPart(t, out[0].Raw)
	if !strings.Contains(text, "password") || !strings.Contains(text, "Original message follows:") {
		t.Errorf("the error mail of a wrong password does not say so in its text:\n%s", text)
	}
}
