package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"time"
)

// The indexes let every list read only what it shows. Each is a bucket of
// keys (and, for the seats, a one-byte value) kept in the same transaction
// as the record it is about, by PutGame, PutUser, DeleteUser and
// MarkProcessed. A write touches only the index entries that changed, so
// a move rewrites no index page but its own board's.
//
//	seats         user \0 kind \0 board -> seat flags (over, open)
//	running       kind \0 board, every board not over
//	open-boards   kind \0 board, running boards with an open seat
//	finished      kind \0 end time \0 board, boards over, by when they ended
//	due           time \0 kind \0 board, when the sweep must look at a board
//	playing       user \0 kind \0 board, the seats of boards not over
//	ratings       kind \0 rank \0 user, rated players best first, and at
//	              the start rating those who play or seek a first game
//	notify-kinds  kind \0 user, who hears of the end of every board of a kind
//	subscribe-kinds kind \0 user, who subscribes to every new board of a kind
//	processed-at  time \0 mail key, to forget old mail keys in time order
var (
	bucketOpen        = []byte("open-boards")
	bucketFinished    = []byte("finished")
	bucketDue         = []byte("due")
	bucketPlaying     = []byte("playing")
	bucketRatings     = []byte("ratings")
	bucketNotifyKinds = []byte("notify-kinds")
	bucketSubscribers = []byte("subscribe-kinds")
	bucketProcessedAt = []byte("processed-at")

	indexBuckets = [][]byte{bucketOpen, bucketFinished, bucketDue, bucketPlaying, bucketRatings,
		bucketNotifyKinds, bucketSubscribers, bucketProcessedAt}
)

// keyIndexes records in the meta bucket the version of the indexes built;
// a file without it (written before them) has them built once by Open.
var keyIndexes = []byte("indexes")

const indexVersion = "3" // 2: subscribe-kinds; 3: playing, and newcomers in ratings

// Seat flags: what a user's entry in the seat index says of the board.
// They change only as a board fills its seats and ends: a move writes no
// seat entry. (Whose turn it is was a third flag, 4, which made every
// move rewrite the entries of both players, scattered over the index: a
// third of the pages a commit of moves wrote. Entries written before
// may still carry it; it is not read.)
const (
	seatOver = 1 << iota // the game is over
	seatOpen             // a seat waits for a player
)

// A SeatState is what the seat index tells of one board of a user, and
// whose turn it is, which the board's head tells.
type SeatState struct {
	Over, Open bool
	toMove     func() bool
}

// ToMove reports whether it is the user's turn on the board: a running
// board with every seat taken, whose head says so. It reads the head.
func (s SeatState) ToMove() bool { return !s.Over && !s.Open && s.toMove != nil && s.toMove() }

func seatFlags(g *Game) byte {
	var f byte
	open := false
	for _, s := range g.Seats {
		open = open || s == ""
	}
	switch {
	case g.Over:
		f |= seatOver
	case open:
		f |= seatOpen
	}
	return f
}

func seatState(v []byte) SeatState {
	var f byte
	if len(v) > 0 {
		f = v[0]
	}
	return SeatState{Over: f&seatOver != 0, Open: f&seatOpen != 0}
}

// toMove reports whether it is the user's turn on the board of the game
// key (kind \0 board), from the board's head; not when it cannot be read.
func (tx *Tx) toMove(user string, key []byte) bool {
	ref, ok := refOfGameKey(key)
	if !ok {
		return false
	}
	h, err := tx.GameHead(ref.Kind, ref.Board)
	if err != nil || h.Over || h.ToMove < 0 || h.ToMove >= len(h.Seats) {
		return false
	}
	return strings.EqualFold(h.Seats[h.ToMove], user)
}

func timeBytes(t time.Time) []byte {
	return binary.BigEndian.AppendUint64(nil, uint64(t.UnixNano()))
}

// An entry is one key of one index.
type entry struct {
	bucket []byte
	key    string
	value  byte
}

// gameEntries are the index entries of g; a nil g has none.
func (tx *Tx) gameEntries(g *Game) []entry {
	if g == nil {
		return nil
	}
	var es []entry
	for u := range seatSet(g.Seats) {
		es = append(es, entry{bucketSeats, string(seatKey(u, g.Kind, g.Board)), seatFlags(g)})
	}
	k := string(gameKey(g.Kind, g.Board))
	open := false
	for _, s := range g.Seats {
		open = open || s == ""
	}
	if !g.Over {
		for u := range seatSet(g.Seats) {
			es = append(es, entry{bucket: bucketPlaying, key: string(seatKey(u, g.Kind, g.Board))})
		}
	}
	switch {
	case g.Over:
		end := append(append([]byte(g.Kind+"\x00"), timeBytes(g.Updated)...), 0)
		es = append(es, entry{bucket: bucketFinished, key: string(append(end, boardBytes(g.Board)...))})
	case open:
		es = append(es, entry{bucket: bucketRunning, key: k}, entry{bucket: bucketOpen, key: k})
	default:
		es = append(es, entry{bucket: bucketRunning, key: k})
	}
	if tx.due != nil {
		if t := tx.due(g); !t.IsZero() {
			es = append(es, entry{bucket: bucketDue, key: string(timeBytes(t)) + k})
		}
	}
	return es
}

// StartRating is the rating of a player with no rated game of a kind,
// the rating he is listed at while he plays or seeks his first game.
const StartRating = 1600

// userEntries are the index entries of u; a nil u has none. His entry in
// the rating index of a kind is at his rating once he has a rated game of
// it, at StartRating while he holds a seat on a board of it not over (read
// from the playing index), and absent else.
func (tx *Tx) userEntries(u *User) []entry {
	if u == nil {
		return nil
	}
	var es []entry
	for kind, r := range u.Ratings {
		if r != nil && r.Games > 0 {
			es = append(es, entry{bucket: bucketRatings, key: string(ratingKey(kind, r.Rating, u.ID))})
		}
	}
	for _, kind := range tx.playingKinds(u.ID) {
		if e, ok := tx.newcomerEntry(u, kind); ok {
			es = append(es, e)
		}
	}
	for _, kind := range u.NotifyKinds {
		es = append(es, entry{bucket: bucketNotifyKinds, key: kind + "\x00" + u.ID})
	}
	for _, kind := range u.SubscribeKinds {
		es = append(es, entry{bucket: bucketSubscribers, key: kind + "\x00" + u.ID})
	}
	return es
}

// newcomerEntry is the rating index entry of u in kind at StartRating,
// when he has no rated game of the kind and plays it.
func (tx *Tx) newcomerEntry(u *User, kind string) (entry, bool) {
	if r := u.Ratings[kind]; r != nil && r.Games > 0 || !tx.playing(u.ID, kind) {
		return entry{}, false
	}
	return entry{bucket: bucketRatings, key: string(ratingKey(kind, StartRating, u.ID))}, true
}

// playing reports whether the user holds a seat on a board of kind not
// over. It reads one key of the playing index.
func (tx *Tx) playing(user, kind string) bool {
	b := tx.index(bucketPlaying)
	if b == nil {
		return false
	}
	prefix := []byte(strings.ToLower(user) + "\x00" + kind + "\x00")
	k, _ := b.Cursor().Seek(prefix)
	return bytes.HasPrefix(k, prefix)
}

// playingKinds returns the kinds of the boards not over where the user
// holds a seat, reading one key of the playing index per kind.
func (tx *Tx) playingKinds(user string) []string {
	b := tx.index(bucketPlaying)
	if b == nil {
		return nil
	}
	prefix := []byte(strings.ToLower(user) + "\x00")
	var kinds []string
	c := b.Cursor()
	for k, _ := c.Seek(prefix); bytes.HasPrefix(k, prefix); {
		kind, _, ok := bytes.Cut(k[len(prefix):], []byte{0})
		if !ok {
			break
		}
		kinds = append(kinds, string(kind))
		// Past every board of this kind: the kind and a byte above 0.
		k, _ = c.Seek(append(append(append([]byte(nil), prefix...), kind...), 1))
	}
	return kinds
}

// reindexNewcomers keeps the rating index of a kind after a board of it
// changed players or ended: a player with no rated game of the kind is
// listed while he plays it. was has the ids of the board's players before
// and after, each with whether he played the kind before.
func (tx *Tx) reindexNewcomers(kind string, was map[string]bool) error {
	for id, before := range was {
		if tx.playing(id, kind) == before {
			continue
		}
		u, err := tx.User(id)
		if errors.Is(err, ErrNotFound) {
			continue // a seat of a user who has gone
		}
		if err != nil {
			return err
		}
		var old, now []entry
		e := entry{bucket: bucketRatings, key: string(ratingKey(kind, StartRating, u.ID))}
		if _, ok := tx.newcomerEntry(u, kind); ok {
			now = append(now, e)
		} else if r := u.Ratings[kind]; r == nil || r.Games == 0 {
			old = append(old, e)
		}
		if err := tx.reindex(old, now); err != nil {
			return err
		}
	}
	return nil
}

// ratingKey sorts the best rating first: the rating's bits, inverted.
func ratingKey(kind string, rating float64, user string) []byte {
	k := []byte(kind + "\x00")
	k = binary.BigEndian.AppendUint64(k, ^sortableFloat(rating))
	return append(append(k, 0), user...)
}

// sortableFloat maps a float to a uint64 of the same order.
func sortableFloat(f float64) uint64 {
	b := math.Float64bits(f)
	if b&(1<<63) != 0 {
		return ^b
	}
	return b | 1<<63
}

// reindex replaces the entries old had by those now has, writing only the
// ones that differ.
func (tx *Tx) reindex(old, now []entry) error {
	had := make(map[string]byte, len(old))
	for _, e := range old {
		had[string(e.bucket)+"/"+e.key] = e.value
	}
	keep := make(map[string]bool, len(now))
	for _, e := range now {
		id := string(e.bucket) + "/" + e.key
		keep[id] = true
		if v, ok := had[id]; ok && v == e.value {
			continue
		}
		var val []byte
		if e.value != 0 {
			val = []byte{e.value}
		}
		if err := tx.index(e.bucket).Put([]byte(e.key), val); err != nil {
			return err
		}
		if _, ok := had[id]; !ok && bytes.Equal(e.bucket, bucketRunning) {
			if err := tx.addRunning(e.key, 1); err != nil {
				return err
			}
		}
	}
	for _, e := range old {
		if !keep[string(e.bucket)+"/"+e.key] {
			if err := tx.index(e.bucket).Delete([]byte(e.key)); err != nil {
				return err
			}
			if bytes.Equal(e.bucket, bucketRunning) {
				if err := tx.addRunning(e.key, -1); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// index returns an index bucket. Open makes them all in a file it may
// write; a read-only file from before them lacks them, and reads of a
// missing index find nothing (see each).
func (tx *Tx) index(name []byte) bucket { return tx.btx.bucket(name) }

// buildIndexes makes the indexes of a file written before them.
func (tx *Tx) buildIndexes() error {
	for _, name := range indexBuckets {
		if _, err := tx.btx.createBucket(name); err != nil {
			return err
		}
	}
	meta := tx.bucket(bucketMeta)
	switch string(meta.Get(keyIndexes)) {
	case indexVersion:
		return nil
	case "2":
		return nil // upgraded by upgradeIndexes, a part at a time
	}
	// Counted again once the index is built (countRunningBoards).
	if err := meta.Delete(keyRunningCounted); err != nil {
		return err
	}
	err := tx.bucket(bucketGames).ForEach(func(k, v []byte) error {
		g, err := decodeGame(v)
		if err != nil {
			return err
		}
		return tx.reindex(nil, tx.gameEntries(g))
	})
	if err != nil {
		return err
	}
	// After the boards: a user's entries read the playing index.
	err = tx.Users(func(u *User) error { return tx.reindex(nil, tx.userEntries(u)) })
	if err != nil {
		return err
	}
	at := tx.index(bucketProcessedAt)
	err = tx.bucket(bucketProcessed).ForEach(func(k, v []byte) error {
		return at.Put(append(append([]byte(nil), v...), k...), nil)
	})
	if err != nil {
		return err
	}
	return meta.Put(keyIndexes, []byte(indexVersion))
}

// upgradeIndexes adds to the indexes of a file of index version 2 what
// version 3 has: the playing index, read from the seat index's flags, and
// the players of a first game in the rating index. It works in
// transactions of upgradeBatch keys, so that a store of a million boards
// upgrades in bounded memory and some minutes; an upgrade cut short is
// done again from the start on the next open.
func (db *DB) upgradeIndexes() error {
	var version string
	db.eng.view(func(btx etx) error {
		version = string(btx.bucket(bucketMeta).Get(keyIndexes))
		return nil
	})
	if version != "2" {
		return nil
	}
	// Begun afresh: an older pbemd may have run since a cut-short try,
	// without keeping the playing index.
	err := db.eng.update(func(btx etx) error {
		if err := btx.deleteBucket(bucketPlaying); err != nil {
			return err
		}
		_, err := btx.createBucket(bucketPlaying)
		return err
	})
	if err != nil {
		return err
	}
	err = db.eachKey(bucketSeats, func(tx *Tx, k, v []byte) error {
		if seatState(v).Over {
			return nil
		}
		return tx.index(bucketPlaying).Put(k, nil)
	})
	if err != nil {
		return err
	}
	// After the boards: a user's entries read the playing index.
	err = db.eachKey(bucketUsers, func(tx *Tx, k, v []byte) error {
		u, err := decodeUser(string(k), v)
		if err != nil {
			return err
		}
		return tx.reindex(nil, tx.userEntries(u))
	})
	if err != nil {
		return err
	}
	return db.eng.update(func(btx etx) error {
		return btx.bucket(bucketMeta).Put(keyIndexes, []byte(indexVersion))
	})
}

// upgradeBatch is how many keys one transaction of an index upgrade reads.
var upgradeBatch = 10000

// eachKey calls fn with every key of the bucket, upgradeBatch keys a
// transaction. fn must not change the bucket it is given.
func (db *DB) eachKey(bucket []byte, fn func(tx *Tx, k, v []byte) error) error {
	var after []byte
	for done := false; !done; {
		err := db.Update(func(tx *Tx) error {
			c := tx.bucket(bucket).Cursor()
			k, v := c.First()
			if after != nil {
				if k, v = c.Seek(after); bytes.Equal(k, after) {
					k, v = c.Next()
				}
			}
			for n := 0; n < upgradeBatch; n++ {
				if k == nil {
					done = true
					return nil
				}
				if err := fn(tx, k, v); err != nil {
					return err
				}
				after = append(after[:0], k...)
				k, v = c.Next()
			}
			return nil
		})
		if err != nil {
			return err
		}
		// A long walk maps much of the file: give it back as it goes.
		if err := db.ReleasePages(); err != nil {
			return err
		}
	}
	return nil
}

// SetDeadline tells the store when the periodic sweep must next look at a
// board (zero: never), so that the sweep reads only the boards due
// (DueBoards). The store keeps that time in its deadline index with every
// PutGame; the policy is the caller's. Boards stored before are indexed
// anew the first time a function is set on a file, in one transaction.
func (db *DB) SetDeadline(due func(*Game) time.Time) error {
	db.due = due
	if db.readOnly {
		return nil
	}
	var built bool
	if err := db.View(func(tx *Tx) error {
		built = tx.bucket(bucketMeta).Get(keyDueIndex) != nil
		return nil
	}); err != nil || built {
		return err
	}
	return db.Update(func(tx *Tx) error {
		due := tx.index(bucketDue)
		var old [][]byte
		if err := due.ForEach(func(k, _ []byte) error { old = append(old, append([]byte(nil), k...)); return nil }); err != nil {
			return err
		}
		if err := deleteKeys(due, old); err != nil {
			return err
		}
		c := tx.bucket(bucketRunning).Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			g, err := decodeGame(tx.bucket(bucketGames).Get(k))
			if err != nil {
				return err
			}
			if t := db.due(g); !t.IsZero() {
				if err := due.Put(append(timeBytes(t), k...), nil); err != nil {
					return err
				}
			}
		}
		return tx.bucket(bucketMeta).Put(keyDueIndex, []byte("1"))
	})
}

// keyDueIndex marks the deadline index built. Its name changes when the
// caller's policy comes to give a time to boards it gave none, so that
// boards stored before are indexed anew: "due-index-2" when open seats
// came to lapse.
var keyDueIndex = []byte("due-index-2")

// A Due is a board due for the sweep, with its place in the deadline
// index.
type Due struct {
	GameRef
	// Mark is where the board is in the index: DueBoards from this mark
	// on gives the boards after it.
	Mark []byte
}

// DueBoards returns at most most boards whose sweep time is not after
// until, the earliest first, from after the mark after (nil: from the
// first). It reads the deadline index only, and the keys it returns: the
// sweep passes a board left due at the cost of one key.
func (tx *Tx) DueBoards(until time.Time, after []byte, most int) []Due {
	b := tx.index(bucketDue)
	if b == nil {
		return nil
	}
	limit := timeBytes(until)
	var due []Due
	c := b.Cursor()
	k, _ := c.First()
	if after != nil {
		if k, _ = c.Seek(after); bytes.Equal(k, after) {
			k, _ = c.Next()
		}
	}
	for ; k != nil && len(due) < most && bytes.Compare(k[:8], limit) <= 0; k, _ = c.Next() {
		if ref, ok := refOfGameKey(k[8:]); ok {
			due = append(due, Due{ref, append([]byte(nil), k...)})
		}
	}
	return due
}

func refOfGameKey(k []byte) (GameRef, bool) {
	i := bytes.IndexByte(k, 0)
	if i < 0 || len(k)-i-1 != 8 {
		return GameRef{}, false
	}
	return GameRef{Kind: string(k[:i]), Board: int(binary.BigEndian.Uint64(k[i+1:]))}, true
}

// A Page is a part of a list: up to Size items after the first Skip.
type Page struct {
	Skip, Size int
}

// walk goes over the keys of b under prefix, forward or backward, and
// hands take the keys of the page among those match accepts (nil match:
// all); it reports whether accepted keys remain after the page. Keys
// skipped or refused are read as keys only.
func walk(b bucket, prefix []byte, back bool, p Page, match func(k, v []byte) bool, take func(k, v []byte)) (more bool) {
	if b == nil || p.Size <= 0 {
		return false
	}
	c := b.Cursor()
	var k, v []byte
	if back {
		k, _ = c.Seek(append(append([]byte(nil), prefix...), 0xff))
		if k == nil {
			k, v = c.Last()
		} else {
			k, v = c.Prev()
		}
	} else {
		k, v = c.Seek(prefix)
	}
	skip, n := p.Skip, 0
	for ; k != nil && bytes.HasPrefix(k, prefix); k, v = step(c, back) {
		if match != nil && !match(k, v) {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		if n == p.Size {
			return true
		}
		n++
		take(k, v)
	}
	return false
}

func step(c cursor, back bool) ([]byte, []byte) {
	if back {
		return c.Prev()
	}
	return c.Next()
}

// BoardState chooses boards in the lists of a kind.
type BoardState int

const (
	AllBoards      BoardState = iota // every board, by number
	RunningBoards                    // boards not over, by number
	RunningNewest                    // boards not over, the newest first
	OpenBoards                       // running boards with an open seat, by number
	FinishedBoards                   // boards over, the last ended first
	OpenNewest                       // running boards with an open seat, the newest first
)

// KindBoards returns the numbers of the page of the kind's boards in the
// state, and whether more follow. It reads index keys only.
func (tx *Tx) KindBoards(kind string, state BoardState, p Page) ([]int, bool) {
	prefix := []byte(kind + "\x00")
	b, back := tx.index(bucketRunning), false
	switch state {
	case AllBoards:
		// Board numbers run from 101 to the last one given out.
		last := tx.lastBoard(kind)
		var nums []int
		for n := firstBoard + p.Skip; n <= last && len(nums) < p.Size; n++ {
			nums = append(nums, n)
		}
		return nums, p.Size > 0 && firstBoard+p.Skip+len(nums) <= last
	case OpenBoards:
		b = tx.index(bucketOpen)
	case RunningNewest:
		back = true
	case OpenNewest:
		b, back = tx.index(bucketOpen), true
	case FinishedBoards:
		b, back = tx.index(bucketFinished), true
	}
	var nums []int
	more := walk(b, prefix, back, p, nil, func(k, _ []byte) {
		nums = append(nums, int(binary.BigEndian.Uint64(k[len(k)-8:])))
	})
	return nums, more
}

// UserBoards returns the page of the boards of kind ("" for every kind)
// where the user holds a seat and which want accepts, ordered by kind and
// board, or the newest first when back; and whether more follow. It reads
// the seat index, and the head of each running board whose turn want asks
// (SeatState.ToMove).
func (tx *Tx) UserBoards(user, kind string, want func(SeatState) bool, back bool, p Page) ([]GameRef, bool) {
	prefix := []byte(strings.ToLower(user) + "\x00")
	if user == "" {
		return nil, false
	}
	if kind != "" {
		prefix = append(prefix, kind+"\x00"...)
	}
	var refs []GameRef
	match := func(k, v []byte) bool {
		if want == nil {
			return true
		}
		s := seatState(v)
		s.toMove = func() bool { return tx.toMove(user, k[bytes.IndexByte(k, 0)+1:]) }
		return want(s)
	}
	more := walk(tx.bucket(bucketSeats), prefix, back, p, match, func(k, _ []byte) {
		u := bytes.IndexByte(k, 0)
		if ref, ok := refOfGameKey(k[u+1:]); ok {
			refs = append(refs, ref)
		}
	})
	return refs, more
}

// ActiveCount counts the boards of kind where the user holds a seat and
// the game is not over, from the playing index.
func (tx *Tx) ActiveCount(user, kind string) int { return tx.ActiveWith(user, "", kind) }

// ActiveWith counts the boards of kind, not over, where both the user and
// other hold a seat; other "" counts all the user's. It walks the user's
// keys of the playing index and seeks other's key for each board, so its
// cost follows the user's running boards of the kind, whatever other has
// and however many games either has finished: give as user the one whose
// running boards are bounded.
func (tx *Tx) ActiveWith(user, other, kind string) int {
	playing := tx.index(bucketPlaying)
	if playing == nil {
		return 0
	}
	prefix := []byte(strings.ToLower(user) + "\x00" + kind + "\x00")
	with := []byte(strings.ToLower(other) + "\x00" + kind + "\x00")
	// Seek, not Get: the keys have empty values, and Get reports an empty
	// value written in this transaction as no key.
	find := playing.Cursor()
	n := 0
	walk(playing, prefix, false, Page{Size: math.MaxInt}, func(k, _ []byte) bool {
		if other == "" {
			return true
		}
		key := append(with[:len(with):len(with)], k[len(prefix):]...)
		found, _ := find.Seek(key)
		return bytes.Equal(found, key)
	}, func(_, _ []byte) { n++ })
	return n
}

// RatedUsers returns the ids of the page of the players rated in the kind,
// the best first, and whether more follow; those who play or seek a first
// game of it come among them at StartRating. It reads the rating index
// only.
func (tx *Tx) RatedUsers(kind string, p Page) ([]string, bool) {
	var ids []string
	prefix := []byte(kind + "\x00")
	more := walk(tx.index(bucketRatings), prefix, false, p, nil, func(k, _ []byte) {
		ids = append(ids, string(k[len(prefix)+9:]))
	})
	return ids, more
}

// NotifyUsers returns the ids of the users told of the end of every board
// of the kind.
func (tx *Tx) NotifyUsers(kind string) []string { return tx.kindUsers(bucketNotifyKinds, kind) }

// SubscribeAllUsers returns the ids of the users who subscribe to every
// new board of the kind.
func (tx *Tx) SubscribeAllUsers(kind string) []string { return tx.kindUsers(bucketSubscribers, kind) }

func (tx *Tx) kindUsers(bucket []byte, kind string) []string {
	var ids []string
	prefix := []byte(kind + "\x00")
	walk(tx.index(bucket), prefix, false, Page{Size: math.MaxInt}, nil, func(k, _ []byte) {
		ids = append(ids, string(k[len(prefix):]))
	})
	return ids
}
