package pbem

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/pbemd/pbemd/store"
)

// A password is masked wherever it stands: beside letters and digits of
// any script, inside a longer word, at the start and end of lines.
func TestMaskWords(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s     string
		words []string
		want  string
	}{
		{"move 101 alice pw-alice h7", []string{"pw-alice"}, "move 101 alice ******** h7"},
		{`"pw-alice" is not a board number`, []string{"pw-alice"}, `"********" is not a board number`},
		{"密码secret2", []string{"secret2"}, "密码********"},
		{"secret2é", []string{"secret2"}, "********é"},
		{"2secret2", []string{"secret2"}, "2********"},
		{"xsecret2s pw:secret2.", []string{"secret2"}, "x********s pw:********."},
		{"secret2\nline\nsecret2", []string{"secret2"}, "********\nline\n********"},
		// The longer first: "hunter22" is not left as "********2".
		{"hunter22 hunter2", []string{"hunter2", "hunter22"}, "******** ********"},
		{"nothing here", []string{"secret", ""}, "nothing here"},
	} {
		if got := maskWords(c.s, c.words); got != c.want {
			t.Errorf("maskWords(%q, %q) = %q, want %q", c.s, c.words, got, c.want)
		}
	}
}

// A password checked and found wrong is no one's: it is not masked, so a
// guess such as "wrong" leaves the reply's words alone. One named but not
// checked, or right, is masked everywhere, longest first.
func TestMaskStates(t *testing.T) {
	t.Parallel()
	r := &request{}
	r.secret("abc") // too short to be anyone's
	r.checked("wrong", false)
	r.secret("hunter22")
	r.checked("hunter2", true)
	r.secret("hunter2") // stays right
	got := r.mask(`abc wrong hunter2 hunter22 "hunter2"`)
	if want := `abc wrong ******** ******** "********"`; got != want {
		t.Errorf("mask = %q, want %q", got, want)
	}
	err := r.maskError(errors.New("store: hunter2 failed"))
	if err.Error() != "store: ******** failed" {
		t.Errorf("maskError: %v", err)
	}
}

// A session that puts alice's password everywhere a careless player would:
// the password is in no reply, no stored outbox record, no stored comment
// and no log line.
func TestPasswordNeverLeaves(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	var logs bytes.Buffer
	h.svc.cfg.Log = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	h.restart()
	const pw, newPW = "Sesame-42", "Open-Sesame-43"

	var replies []reply
	send := func(from, subject, body string) []reply {
		t.Helper()
		if err := h.svc.Deliver(h.mail(from, subject, body)); err != nil {
			t.Fatalf("%s: %v", subject, err)
		}
		// Every stored outbox record, as the outbox keeps it.
		pending, err := h.db.Pending(h.now.Add(time.Hour), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pending {
			rec, _ := json.Marshal(p)
			if bytes.Contains(rec, []byte(pw)) || bytes.Contains(rec, []byte(newPW)) {
				t.Errorf("%s: the outbox record %d holds a password:\n%s", subject, p.ID, p.Data)
			}
		}
		out := h.outbox()
		replies = append(replies, out...)
		return out
	}

	send("alice@example.org", "signup alice "+pw, "")
	h.signup("bob")
	send("alice@example.org", "tanbo challenge alice bob -size=9", "")
	// A comment that repeats the subject: relayed to bob, stored with the game.
	subject := "tanbo move 101 alice " + pw + " h7"
	out := send("alice@example.org", subject, subject+"\nMy password is "+pw+", keep it.\n")
	if len(out) != 2 {
		t.Fatalf("move: %v", subjects(out))
	}
	says(t, out[1].Body, "tanbo move 101 alice ******** h7\nMy password is ********, keep it.")
	send("alice@example.org", "tanbo move 101 alice "+pw+" e5", "")            // illegal: the error quotes
	send("alice@example.org", "tanbo move 999 alice "+pw+" h7", "")            // no such board, before the check
	send("alice@example.org", "tanbo move 101 alice "+pw, "")                  // wrong number of words
	send("alice@example.org", "message alice "+pw+" bob", "psst: "+pw)         // a relayed message
	send("alice@example.org", "multiple", "tanbo resign 101 alice "+pw+" x\n") // a multiple line's error
	send("alice@example.org", "change password alice "+pw+" "+newPW, "")
	send("alice@example.org", "tanbo move 101 alice "+newPW+" b2", "") // not her turn: quoted
	send("alice@example.org", "vacation alice "+newPW+" 1000", "")     // refused: quoted

	if len(replies) < 10 {
		t.Fatalf("the session got %d replies: %v", len(replies), subjects(replies))
	}
	masked := 0
	for _, r := range replies {
		if bytes.Contains(r.Raw, []byte(pw)) || bytes.Contains(r.Raw, []byte(newPW)) {
			t.Errorf("reply %q to %s holds a password:\n%s", r.Subject, r.To, r.Raw)
		}
		masked += strings.Count(r.Body, "********")
	}
	if masked < 8 {
		t.Errorf("only %d masked passwords in the replies; the session quotes it more often", masked)
	}
	err := h.db.View(func(tx *store.Tx) error {
		g, err := tx.Game("tanbo", 101)
		if err != nil {
			return err
		}
		rec, _ := json.Marshal(g)
		if bytes.Contains(rec, []byte(pw)) {
			t.Errorf("the stored game holds the password: %s", rec)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// The log: every line the session wrote, and one that names the
	// password on purpose through the request's logger.
	r := &request{s: h.svc}
	r.checked(pw, true)
	r.logger().Warn("a line with "+pw, "subject", "move "+pw, "err", errors.New("err "+pw),
		slog.Group("g", "inner", pw))
	if bytes.Contains(logs.Bytes(), []byte(pw)) || bytes.Contains(logs.Bytes(), []byte(newPW)) {
		t.Errorf("the log holds a password:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), `"msg":"a line with ********","subject":"move ********","err":"err ********","g":{"inner":"********"}`) {
		t.Errorf("the log line was not written masked:\n%s", logs.String())
	}
}

// Issue 25, item 8: a password written beside a letter or digit, in a
// comment, on a line of a multiple beyond the limit, after a mistyped
// command word, reaches no one: not the opponent, not a subscriber, not
// the sender's own error reply, not the outbox, quarantine or log.
func TestPasswordBesideOtherCharacters(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	var logs bytes.Buffer
	h.svc.cfg.Log = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	h.restart()
	const pw = "secret2"
	leaks := func(what string, text []byte) {
		t.Helper()
		if bytes.Contains(text, []byte(pw)) {
			t.Errorf("%s holds the password:\n%s", what, text)
		}
	}
	var replies []reply
	send := func(subject, body string) []reply {
		t.Helper()
		if err := h.svc.Deliver(h.mail("alice@example.org", subject, body)); err != nil {
			t.Fatalf("%s: %v", subject, err)
		}
		pending, err := h.db.Pending(h.now.Add(time.Hour), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pending {
			leaks(fmt.Sprintf("outbox record %d of %q", p.ID, subject), p.Data)
		}
		out := h.outbox()
		replies = append(replies, out...)
		return out
	}
	send("signup alice "+pw, "")
	h.signup("bob", "carol")
	send("tanbo challenge alice bob -size=9", "")
	h.send("carol@example.org", "tanbo subscribe 101 carol pw-carol", "")

	comment := pw + " at the start\n密码" + pw + ", " + pw + "é, 2" + pw + "2 and mysecret2s\nat the end " + pw
	out := send("tanbo move 101 alice "+pw+" h7", comment)
	if len(out) != 3 {
		t.Fatalf("move: %v", subjects(out))
	}
	for _, r := range out {
		says(t, r.Body, "******** at the start\n密码********, ********é, 2********2 and my********s\nat the end ********")
	}

	// A multiple of 21 lines: the 21st is not run, and the note quotes it.
	lines := strings.Repeat("tanbo show 101\n", 20) + "tanbo resign 101 alice 密码" + pw + "\n"
	note := merged(t, send("multiple", lines))
	says(t, note.Body, "1 more commands were not run", "tanbo resign 101 alice ********")

	// Mistyped command words: no command reads the words, the error
	// quotes them.
	for _, subject := range []string{
		"tanbo mvoe2 101 alice " + pw + " b2",
		"tnabo move 101 alice " + pw + " b2",
		"tanbo move 101 alice " + pw + " b2 extra words",
		"chnage password alice " + pw + " new-" + pw,
	} {
		r := one(t, send(subject, "Comment: "+pw), "alice@example.org")
		if strings.Count(r.Body, "********") < 2 {
			t.Errorf("%q: the error reply masks too little:\n%s", subject, r.Body)
		}
	}
	for _, r := range replies {
		leaks(fmt.Sprintf("reply %q to %s", r.Subject, r.To), r.Raw)
	}

	// Kept in quarantine: the subject and the body, in every spelling.
	raw := h.mail("alice@example.org", "tanbo move 101 alice "+pw+" b2", comment)
	if _, err := h.svc.Quarantine(raw, "the command crashed the server", true); err != nil {
		t.Fatal(err)
	}
	kept, err := h.db.Quarantined()
	if err != nil || len(kept) != 1 {
		t.Fatalf("quarantined: %v, %v", kept, err)
	}
	leaks("the quarantined mail", kept[0].Data)
	if !bytes.Contains(kept[0].Data, []byte("密码********, ********é, 2********2")) {
		t.Errorf("the quarantined mail is not kept masked:\n%s", kept[0].Data)
	}
	leaks("the log", logs.Bytes())
}

// A board-mail subject with a password in it, its move left out, is
// answered with the password masked.
func TestBoardSubjectPasswordMasked(t *testing.T) {
	t.Parallel()
	h := twoPlayers(t)
	for _, r := range h.send("alice@example.org", "tanbo board 101 alice pw-alice", "") {
		hasNot(t, r.Body, "pw-alice")
		says(t, r.Body, "This subject is that of a board mail")
	}
}
