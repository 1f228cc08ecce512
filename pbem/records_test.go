package pbem

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/rules/record"
	"github.com/pbemd/pbemd/rules/rulestool"
	"github.com/pbemd/pbemd/store"
)

// attachments are the files of a reply: name to text.
func attachments(t *testing.T, r reply) map[string]string {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(r.Raw))
	if err != nil {
		t.Fatal(err)
	}
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/mixed" {
		t.Fatalf("reply %q is %q, want multipart/mixed", r.Subject, msg.Header.Get("Content-Type"))
	}
	files := map[string]string{}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return files
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(p)
		if p.FileName() != "" {
			files[p.FileName()] = strings.ReplaceAll(string(data), "\r\n", "\n")
		}
	}
}

// Anyone, even a forged sender, gets a board's record: inline, where a
// plain-text client reads it, and attached (Tanbo: also as SGF), the
// record so far while the game goes on, and it replays to the board.
func TestRecordByMail(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	h.send("alice@example.org", "tanbo move 101 alice pw-alice h7", "Good luck } 1-0 {")
	h.send("bob@example.org", "tanbo move 101 bob pw-bob b7", "")
	r := one(t, h.deliver(h.forged("stranger@example.net", "tanbo record 101", "")), "stranger@example.net")
	if r.Subject != "Tanbo Board 101 record" {
		t.Errorf("subject %q", r.Subject)
	}
	checkWidth(t, "record", r)
	files := attachments(t, r)
	pgn := files["tanbo-101.pgn"]
	if pgn == "" || files["tanbo-101.sgf"] == "" || len(files) != 2 {
		t.Fatalf("attachments %v", files)
	}
	if !strings.HasSuffix(r.Body, pgn) {
		t.Errorf("the body does not end in the record:\n%s\nrecord:\n%s", r.Body, pgn)
	}
	for _, want := range []string{`[Event "Tanbo Board 101"]`, `[Site "` + h.svc.cfg.Address + `"]`, `[Game "tanbo"]`, `[Board "101"]`,
		`[White "bob"]`, `[Black "alice"]`, `[Options "-size=9"]`, `[Clock "days 7/21"]`, `[Result "*"]`,
		`[Termination "unterminated"]`, `1. h7 {alice: Good luck \x7d 1-0 {} 1... b7 *`} {
		has(t, pgn, want)
	}
	g, pos, res, err := rulestool.Replay(pgn)
	if err != nil {
		t.Fatal(err)
	}
	var rec *store.Game
	h.db.View(func(tx *store.Tx) error { rec, err = tx.Game("tanbo", 101); return err })
	if pos.String() != rec.Position || res.Over || g.Name() != "tanbo" {
		t.Errorf("replayed to %s %+v, the store has %s", pos, res, rec.Position)
	}
	// Over: the result and why.
	h.send("alice@example.org", "tanbo resign 101 alice pw-alice", "")
	pgn = attachments(t, one(t, h.send("carol@example.org", "tanbo record board 101", ""), "carol@example.org"))["tanbo-101.pgn"]
	has(t, pgn, `[Result "1-0"]`)
	has(t, pgn, `[Termination "alice resigned"]`)
	if _, _, res, err := rulestool.Replay(pgn); err != nil || !res.Over || res.Winner != 1 || res.Reason != "alice resigned" {
		t.Errorf("replayed result %+v, %v; want White (bob, seat 1) by alice's resignation", res, err)
	}
}

// A record of no board, or asked wrongly, is refused with what would be
// right.
func TestRecordRefusals(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	errorReply(t, h.send("carol@example.org", "tanbo record 999", ""), "carol@example.org",
		"There is no Tanbo board 999; send 'tanbo games all' for the boards there are.")
	errorReply(t, h.send("carol@example.org", "tanbo record x", ""), "carol@example.org",
		`"x" is not a board number; boards are numbered from 101.`)
	r := one(t, h.send("carol@example.org", "tanbo record 101 102", ""), "carol@example.org")
	has(t, r.Body, "tanbo record board")
}

// A record carries the comments up to its bound, then says how many it
// left out; a swap is told where it came.
func TestRecordComments(t *testing.T) {
	t.Parallel()
	rec := &store.Game{Kind: "ultima", Board: 101, Seats: []string{"bob", "alice"}, Swapped: "bob",
		Moves: []store.Move{{Seat: 0, Text: "Pa2-a3"}, {Seat: 1, Text: "pa7-a6"}}}
	long := strings.Repeat("word ", 2000)
	for i := 0; i < 10; i++ {
		rec.Comments = append(rec.Comments, store.Comment{User: "alice", Text: long, Move: 5}) // after an undo: past the end
	}
	r, _, err := RecordOf(rec, "pbem@example.org")
	if err != nil {
		t.Fatal(err)
	}
	if r.Comments[0].After != 1 || !strings.Contains(r.Comments[0].Text, "bob swapped") {
		t.Errorf("first comment %+v, want the swap after move 1", r.Comments[0])
	}
	last := r.Comments[len(r.Comments)-1]
	if len(r.Comments) != 8 || !strings.HasPrefix(last.Text, "4 more comments are left out") || last.After != 2 {
		t.Errorf("%d comments, the last %+v", len(r.Comments), last)
	}
	text := r.String()
	if len(text) > 70<<10 {
		t.Errorf("the record has %d bytes", len(text))
	}
	if _, err := record.Parse(text); err != nil {
		t.Error(err)
	}
}
