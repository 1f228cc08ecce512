package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// fill sets every field of the value v points to, recursively, to a value
// that is not zero: strings, ints (some negative), floats, bools, times in
// UTC, the local zone and a fixed zone, two elements of each slice and
// map, pointers to filled values. A field of a type it does not know
// fails the test: the binary form must learn it too.
func fill(t *testing.T, v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", *n))
	case reflect.Int:
		v.SetInt(int64(*n * (1 - 2*(*n%2))))
	case reflect.Uint64, reflect.Uint8:
		v.SetUint(uint64(*n))
	case reflect.Float64:
		v.SetFloat(float64(*n) + 0.25)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			zones := []*time.Location{time.UTC, time.Local, time.FixedZone("", 5400)}
			v.Set(reflect.ValueOf(time.Date(2026, 11, 25, 10, *n%60, 7, *n, zones[*n%3])))
			return
		}
		for i := range v.NumField() {
			fill(t, v.Field(i), n)
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(t, s.Index(i), n)
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(t, k, n)
			fill(t, e, n)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(t, p.Elem(), n)
		v.Set(p)
	default:
		t.Fatalf("fill: a field of kind %s; teach the binary record form (record.go) and this test its type", v.Kind())
	}
}

func fullGame(t *testing.T) *Game {
	g := new(Game)
	n := 0
	fill(t, reflect.ValueOf(g).Elem(), &n)
	g.Kind, g.Board = "tanbo", 101
	return g
}

func fullUser(t *testing.T) *User {
	u := new(User)
	n := 0
	fill(t, reflect.ValueOf(u).Elem(), &n)
	u.ID = "alice"
	return u
}

// sameRecord fails the test unless got and want have the same JSON form:
// every field, times to the nanosecond with their zone offsets, and an
// empty list told from a missing one.
func sameRecord(t *testing.T, what string, got, want any) {
	t.Helper()
	g, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	w, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if string(g) != string(w) {
		t.Errorf("%s read back as\n%s\nwant\n%s", what, g, w)
	}
}

// Every field of a game and a user reads back as it was stored, a full
// record and an empty one.
func TestRecordsReadBackWhole(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	games := map[string]*Game{
		"full":  fullGame(t),
		"empty": {Kind: "tanbo", Board: 102},
		// JSON writes [] for an empty list of these, not null.
		"empty lists": {Kind: "tanbo", Board: 103, Options: []string{}, Seats: []string{}, Moves: []Move{}},
	}
	users := map[string]*User{
		"full":        fullUser(t),
		"empty":       {ID: "bob"},
		"empty lists": {ID: "carol", Addresses: []string{}},
	}
	update(t, db, func(tx *Tx) error {
		for _, g := range games {
			if err := tx.PutGame(g); err != nil {
				return err
			}
		}
		for _, u := range users {
			if err := tx.PutUser(u); err != nil {
				return err
			}
		}
		return nil
	})
	err := db.View(func(tx *Tx) error {
		for name, want := range games {
			got, err := tx.Game(want.Kind, want.Board)
			if err != nil {
				return err
			}
			sameRecord(t, name+" game", got, want)
			head, err := tx.GameHead(want.Kind, want.Board)
			if err != nil {
				return err
			}
			sameRecord(t, name+" game's head", head, &GameHead{Kind: want.Kind, Board: want.Board, Seats: want.Seats,
				ToMove: want.ToMove, Over: want.Over, Winner: want.Winner, Withdrawn: want.Withdrawn, Moves: len(want.Moves), Updated: want.Updated, EndReason: want.EndReason,
				Options: want.Options, Created: want.Created, Extra: want.Extra})
		}
		for name, want := range users {
			got, err := tx.User(want.ID)
			if err != nil {
				return err
			}
			sameRecord(t, name+" user", got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Records written in JSON, by pbemd before the binary form, read as they
// did, and are written in the binary form when next stored.
func TestJSONRecordsRead(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	g, u := fullGame(t), fullUser(t)
	oldGame, _ := json.Marshal(g)
	oldUser, _ := json.Marshal(u)
	// What the JSON records read as: times in UTC or a fixed zone.
	var wantGame Game
	var wantUser User
	json.Unmarshal(oldGame, &wantGame)
	json.Unmarshal(oldUser, &wantUser)
	update(t, db, func(tx *Tx) error { return tx.PutGame(g) }) // the indexes, as when it was written
	update(t, db, func(tx *Tx) error { return tx.PutUser(u) })
	db = reopenAfter(t, db, func(btx *bolt.Tx) error {
		if err := btx.Bucket(bucketGames).Put(gameKey(g.Kind, g.Board), oldGame); err != nil {
			return err
		}
		return btx.Bucket(bucketUsers).Put([]byte(u.ID), oldUser)
	})
	defer db.Close()
	read := func(when string) {
		t.Helper()
		err := db.View(func(tx *Tx) error {
			got, err := tx.Game(g.Kind, g.Board)
			if err != nil {
				return err
			}
			sameRecord(t, when+": game", got, &wantGame)
			head, err := tx.GameHead(g.Kind, g.Board)
			if err != nil {
				return err
			}
			if head.Moves != len(g.Moves) || !reflect.DeepEqual(head.Seats, g.Seats) || head.Winner != g.Winner ||
				!reflect.DeepEqual(head.Options, g.Options) || !head.Created.Equal(g.Created) || !reflect.DeepEqual(head.Extra, g.Extra) {
				t.Errorf("%s: head %+v does not match the game", when, head)
			}
			gotUser, err := tx.User(u.ID)
			if err != nil {
				return err
			}
			sameRecord(t, when+": user", gotUser, &wantUser)
			n := 0
			err = tx.Users(func(got *User) error { n++; sameRecord(t, when+": Users", got, &wantUser); return nil })
			if n != 1 {
				t.Errorf("%s: Users gave %d users, want 1", when, n)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	stored := func() (game, user []byte) {
		db.View(func(tx *Tx) error {
			game = append(game, tx.bucket(bucketGames).Get(gameKey(g.Kind, g.Board))...)
			user = append(user, tx.bucket(bucketUsers).Get([]byte(u.ID))...)
			return nil
		})
		return game, user
	}

	read("in JSON")
	if game, user := stored(); !isJSON(game) || !isJSON(user) {
		t.Fatal("reading rewrote the records")
	}
	update(t, db, func(tx *Tx) error {
		g, err := tx.Game(g.Kind, g.Board)
		if err != nil {
			return err
		}
		u, err := tx.User(u.ID)
		if err != nil {
			return err
		}
		if err := tx.PutGame(g); err != nil {
			return err
		}
		return tx.PutUser(u)
	})
	if game, user := stored(); game[0] != recordMark || user[0] != recordMark {
		t.Fatalf("records stored again start with %q and %q, want the binary form", game[0], user[0])
	}
	read("stored again")
}

// A field that a later version added is skipped; a record cut short or
// damaged is an error, never a panic or a huge allocation.
func TestBinaryRecordFields(t *testing.T) {
	t.Parallel()
	g := fullGame(t)
	rec, err := encodeGame(g)
	if err != nil {
		t.Fatal(err)
	}
	w := &recordWriter{b: rec}
	w.int(90, -5)
	w.float(91, 1.5)
	w.string(92, "later")
	w.record(93, func() { w.string(1, "nested") })
	got, err := decodeGame(w.b)
	if err != nil {
		t.Fatalf("a record with later fields: %v", err)
	}
	sameRecord(t, "a record with later fields", got, g)

	for n := 1; n < len(rec); n++ {
		// Cut short: most cuts fail, a cut between two fields reads
		// as a record without the rest.
		decodeGame(rec[:n])
	}
	for i := 1; i < len(rec); i++ {
		bad := append([]byte(nil), rec...)
		bad[i] ^= 0xff
		decodeGame(bad)
	}
	// A list that claims more elements than it has bytes.
	w = newRecordWriter(0)
	w.key(6, kindBytes)
	w.b = append(w.b, 10, 0xff, 0xff, 0xff, 0xff, 0x0f)
	if _, err := decodeGame(w.b); err == nil {
		t.Error("a list claiming 4 billion moves read without error")
	}
	for _, v := range [][]byte{nil, {}, {0x7f}, []byte("[1]")} {
		if _, err := decodeGame(v); err == nil {
			t.Errorf("record %q read without error", v)
		}
	}
}

// A file of schema version 1, whose records are all JSON, opens read-only
// as it is, and a read-write Open raises its version.
func TestSchemaVersion1Upgraded(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), FileName)
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	u := &User{ID: "alice", Addresses: []string{"alice@example.org"}}
	old, _ := json.Marshal(u)
	update(t, db, func(tx *Tx) error { return tx.PutUser(u) })
	err = db.bolt.Update(func(btx *bolt.Tx) error {
		if err := btx.Bucket(bucketUsers).Put([]byte(u.ID), old); err != nil {
			return err
		}
		return btx.Bucket(bucketMeta).Put(keySchema, []byte("1"))
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	version := func(db *DB) (v string) {
		db.bolt.View(func(btx *bolt.Tx) error { v = string(btx.Bucket(bucketMeta).Get(keySchema)); return nil })
		return v
	}
	for _, ro := range []bool{true, false} {
		db, err := Open(path, &Options{NoSync: true, ReadOnly: ro})
		if err != nil {
			t.Fatalf("Open (read-only %v) of a version 1 file: %v", ro, err)
		}
		err = db.View(func(tx *Tx) error {
			got, err := tx.UserByAddress("alice@example.org")
			if err == nil {
				sameRecord(t, "a version 1 user", got, u)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		want := map[bool]string{true: "1", false: fmt.Sprint(schemaVersion)}[ro]
		if v := version(db); v != want {
			t.Errorf("after Open (read-only %v) the version is %q, want %q", ro, v, want)
		}
		db.Close()
	}
}

// A reply token reads back whole, and one written in JSON before the
// binary form still reads.
func TestReplyTokenRecords(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	want := new(ReplyToken)
	n := 0
	fill(t, reflect.ValueOf(want).Elem(), &n)
	old := bytes.Repeat([]byte{2}, 16)
	oldRecord, _ := json.Marshal(want)
	var wantOld ReplyToken
	json.Unmarshal(oldRecord, &wantOld)
	var stored []byte
	update(t, db, func(tx *Tx) error {
		var err error
		if stored, err = tx.NewReplyToken(want); err != nil {
			return err
		}
		if err := putOldToken(tx, old, want); err != nil {
			return err
		}
		return tx.btx.bucket(bucketTokens).Put(tokenHash(old), oldRecord)
	})
	err := db.View(func(tx *Tx) error {
		got, err := tx.ReplyToken(stored)
		if err != nil {
			return err
		}
		sameRecord(t, "a reply token", got, want)
		if got, err = tx.ReplyToken(old); err != nil {
			return err
		}
		sameRecord(t, "a reply token in JSON", got, &wantOld)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// An outbox mail reads back whole, in the outbox and in the failed mail,
// and one written in JSON before the binary form still reads.
func TestOutgoingRecords(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	want := new(Outgoing)
	n := 0
	fill(t, reflect.ValueOf(want).Elem(), &n)
	oldRecord, _ := json.Marshal(want)
	var got, gotOld *Outgoing
	update(t, db, func(tx *Tx) error {
		if err := tx.Enqueue(want); err != nil {
			return err
		}
		b := tx.bucket(bucketOutbox)
		if v := b.Get(outKey(want.ID)); isJSON(v) || len(v) > len(want.Data)+200 {
			t.Errorf("stored as %d bytes, JSON %v; want the binary form", len(v), isJSON(v))
		}
		var err error
		if got, err = tx.Outgoing(want.ID); err != nil {
			return err
		}
		if err := b.Put(outKey(want.ID+1), oldRecord); err != nil {
			return err
		}
		gotOld, err = tx.Outgoing(want.ID + 1)
		return err
	})
	sameRecord(t, "an outbox mail", got, want)
	wantOld := *want
	wantOld.ID++ // the key it was put under
	sameRecord(t, "an outbox mail in JSON", gotOld, &wantOld)
	update(t, db, func(tx *Tx) error {
		var err error
		got, err = tx.Outgoing(want.ID)
		got.Data[0]++ // a copy of its own, not the file's bytes
		return err
	})
	if got, _ := db.Mails(want.ID); len(got) != 1 || !bytes.Equal(got[0].Data, want.Data) {
		t.Errorf("the stored message changed with the copy read")
	}
}

// A nil rating, as a user record in JSON may hold ("Ratings":{"tanbo":null}),
// is the start rating: in the binary form it reads back as no rating, not
// as a rating of 0, beside a rating that is there.
func TestNilRatingStaysStart(t *testing.T) {
	t.Parallel()
	b, err := encodeUser(&User{ID: "u", Ratings: map[string]*Rating{"tanbo": nil, "tobit": {Rating: 1700}}})
	if err != nil {
		t.Fatal(err)
	}
	u, err := decodeUser("u", b)
	if err != nil {
		t.Fatal(err)
	}
	if r := u.Ratings["tanbo"]; r != nil {
		t.Errorf("a nil rating read back as %+v; want none", r)
	}
	if r := u.Ratings["tobit"]; r == nil || r.Rating != 1700 {
		t.Errorf("the rating beside it read back as %+v", r)
	}
}

// A corrupt count of a list reserves a bounded room before the read fails:
// a count is checked only against the bytes left.
func TestCorruptCountReservesLittle(t *testing.T) {
	const n = 1 << 20 // elements claimed, as many bytes left, none an element
	list := binary.AppendUvarint(nil, n)
	list = append(list, bytes.Repeat([]byte{0xff}, n)...)
	w := newRecordWriter(n + 16)
	w.key(6, kindBytes) // a game's moves
	w.b = binary.AppendUvarint(w.b, uint64(len(list)))
	w.b = append(w.b, list...)
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	before := m.TotalAlloc
	if _, err := decodeGame(w.b); err == nil {
		t.Fatal("a corrupt record decoded")
	}
	runtime.ReadMemStats(&m)
	if grew := m.TotalAlloc - before; grew > 4<<20 {
		t.Errorf("decoding a corrupt record of 1 MB allocated %d MB", grew>>20)
	}
}
