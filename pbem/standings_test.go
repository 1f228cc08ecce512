package pbem

import "testing"

// Who plays or seeks a first game of a kind is in its standings, among the
// provisional players at the start rating with no game counted, as on
// pbmserv; who leaves his only board is not.
func TestStandingsListNewcomers(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signup("alice", "frank", "gina")
	h.send("frank@example.org", "tanbo challenge ? frank", "")    // frank seeks a game: board 101
	h.send("alice@example.org", "tanbo challenge alice ?", "")    // board 102
	h.send("gina@example.org", "tanbo join 102 gina pw-gina", "") // gina takes its open seat
	head := "Provisional (fewer than 20 rated games)\nRank  User             Rating   Won  Lost Drawn  Active/Limit Open\n"
	standings := func() string { return one(t, h.send("x@example.org", "tanbo standings", ""), "x@example.org").Body }
	body := standings()
	has(t, body, head+
		"   1  alice             1600P     0     0     0     1/-     0\n"+
		"   2  frank             1600P     0     0     0     1/-     1\n"+
		"   3  gina              1600P     0     0     0     1/-     0\n")
	hasNot(t, body, "Established", "Inactive")

	// gina gives the seat back: she is not listed, and alice waits again.
	h.send("gina@example.org", "tanbo decline 102 gina pw-gina", "")
	body = standings()
	has(t, body, head+
		"   1  alice             1600P     0     0     0     1/-     1\n"+
		"   2  frank             1600P     0     0     0     1/-     1\n")
	hasNot(t, body, "gina")
	// frank withdraws his board before anyone joined: not listed either.
	h.send("frank@example.org", "tanbo resign 101 frank pw-frank", "")
	body = standings()
	has(t, body, head+"   1  alice             1600P     0     0     0     1/-     1\n")
	hasNot(t, body, "frank")
	has(t, one(t, h.send("x@example.org", "tobit standings", ""), "x@example.org").Body, "No rated games yet.")
}
