package pbem

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/storetest"
)

// BenchmarkReplyMail compares a move mailed as the full command with the
// same move mailed as a reply to the board mail, on Tanbo games of 40
// moves. Both mint a reply token for each player's board mail; the reply
// also finds the token, checks it and reads its first line. "sync" commits
// with fsync as in production; "nosync" leaves the disk out to show the
// work itself.
func BenchmarkReplyMail(b *testing.B) {
	for _, sync := range []bool{true, false} {
		for _, byReply := range []bool{false, true} {
			name := map[bool]string{true: "sync", false: "nosync"}[sync] + "/" + map[bool]string{false: "command", true: "reply"}[byReply]
			b.Run(name, func(b *testing.B) { benchReplyMail(b, sync, byReply) })
		}
	}
}

func benchReplyMail(b *testing.B, sync, byReply bool) {
	db := storetest.Open(b, store.PathIn(b.TempDir()), &store.Options{NoSync: !sync})
	s := New(db, Config{Address: "pbem@example.org", Log: slog.New(slog.DiscardHandler), Limits: Limits{Mails: 1 << 30}, Auth: pbemtest.Auth()})
	n := 0
	// deliver handles a mail and returns the Message-ID of the board mail
	// it sent to the address.
	deliver := func(raw []byte, to string) string {
		ids, err := s.Handle(raw)
		if err != nil {
			b.Fatal(err)
		}
		out, err := db.Mails(ids...)
		if err != nil {
			b.Fatal(err)
		}
		for _, o := range out {
			if o.To[0] == to {
				m, err := mailmsg.ReadMail(o.Data)
				if err != nil {
					b.Fatal(err)
				}
				return m.MessageID
			}
		}
		return ""
	}
	deliver(benchMail(-1, "alice@example.org", "signup alice pw-alice"), "")
	deliver(benchMail(-2, "bob@example.org", "signup bob pw-bob"), "")
	moves := firstMoves(b, 40)
	players := [2]string{"alice", "bob"}
	board, i := 100, len(moves)
	var last string // the newest board mail to the player to move
	b.ResetTimer()
	for k := 0; k < b.N; k++ {
		if i == len(moves) {
			b.StopTimer()
			board, i = board+1, 0
			n++
			last = deliver(benchMail(n, "alice@example.org", "tanbo challenge alice bob"), "alice@example.org")
			b.StartTimer()
		}
		id, other := players[i%2], players[1-i%2]
		n++
		var raw []byte
		if byReply {
			raw = []byte(fmt.Sprintf("From: %s@example.org\r\nTo: pbem@example.org\r\nSubject: Re: Tanbo Board %d %s\r\nMessage-ID: <b%d@client.example>\r\nIn-Reply-To: <%s>\r\nReferences: <%s>\r\n\r\n%s\r\nMy move.\r\n\r\nOn Sun, Nov 22, 2026 at 12:00 PM pbemd <pbem@example.org> wrote:\r\n> Summary of Tanbo Board %d\r\n",
				id, board, id, n, last, last, moves[i], board))
		} else {
			raw = benchMail(n, id+"@example.org", fmt.Sprintf("tanbo move %d %s pw-%s %s#%d", board, id, id, moves[i], i+1))
		}
		last = deliver(raw, other+"@example.org")
		if !strings.HasPrefix(last, tokenIDPrefix) {
			b.Fatalf("move %d on board %d: no board mail with a token to %s; mail was\n%s", i+1, board, other, raw)
		}
		i++
	}
}
