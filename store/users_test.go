package store

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"
)

func TestUserRoundTripAndCase(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	created := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	u := &User{
		ID:           "Alice",
		Name:         "Alice",
		PasswordHash: "$argon2id$v=19$...",
		Addresses:    []string{"Alice@Example.org", "a2@example.net"},
		Created:      created,
		Extra:        map[string]string{"vacation": "2026-12-01"},
		Ratings:      map[string]*Rating{"tanbo": {Rating: 1612.5, Games: 3, Won: 2, Lost: 1, ProvisionalSum: 4837.5}},
		Refuses:      []string{"ultima"},
		Limits:       map[string]int{"tanbo": 4},
		NotifyKinds:  []string{"tobit"},
		Vacations:    []Vacation{{From: created, Until: created.Add(48 * time.Hour)}},
		Verifier:     "\x01\x02 verifier bytes",
	}
	update(t, db, func(tx *Tx) error { return tx.PutUser(u) })
	if u.ID != "alice" {
		t.Errorf("PutUser left ID %q, want it lower-cased to %q", u.ID, "alice")
	}
	db.View(func(tx *Tx) error {
		for _, id := range []string{"alice", "ALICE", "aLiCe"} {
			got, err := tx.User(id)
			if err != nil {
				t.Errorf("User(%q): %v", id, err)
				continue
			}
			if !reflect.DeepEqual(got, u) {
				t.Errorf("User(%q) = %+v, want %+v", id, got, u)
			}
		}
		if _, err := tx.User("bob"); !errors.Is(err, ErrNotFound) {
			t.Errorf("User(bob) error = %v, want ErrNotFound", err)
		}
		return nil
	})
}

func TestPutUserRefusesBadIDs(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	for _, u := range []*User{
		{ID: ""},
		{ID: "a\x00b"},
		{ID: "ok", Addresses: []string{" "}},
		{ID: "ok", Addresses: []string{"a\x00@b"}},
	} {
		if err := db.Update(func(tx *Tx) error { return tx.PutUser(u) }); err == nil {
			t.Errorf("PutUser(%+v) succeeded", u)
		}
	}
}

func TestAddressIndex(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	update(t, db, func(tx *Tx) error {
		return tx.PutUser(&User{ID: "alice", Addresses: []string{"Alice@Example.org", "old@example.org"}})
	})
	byAddr := func(addr string) string {
		t.Helper()
		var id string
		db.View(func(tx *Tx) error {
			u, err := tx.UserByAddress(addr)
			switch {
			case errors.Is(err, ErrNotFound):
				id = "(none)"
			case err != nil:
				t.Fatalf("UserByAddress(%q): %v", addr, err)
			default:
				id = u.ID
			}
			return nil
		})
		return id
	}
	for addr, want := range map[string]string{
		"alice@example.org":      "alice",
		"ALICE@EXAMPLE.ORG":      "alice",
		" Old@Example.org ":      "alice",
		"nobody@example.org":     "(none)",
		"":                       "(none)",
		"alice@example.org.evil": "(none)",
		"alice@example.or":       "(none)",
	} {
		if got := byAddr(addr); got != want {
			t.Errorf("before change: UserByAddress(%q) = %s, want %s", addr, got, want)
		}
	}

	// A changed address list drops the old address from the index.
	update(t, db, func(tx *Tx) error {
		u, err := tx.User("alice")
		if err != nil {
			return err
		}
		u.Addresses = []string{"alice@example.org", "new@example.org"}
		return tx.PutUser(u)
	})
	for addr, want := range map[string]string{
		"alice@example.org": "alice",
		"old@example.org":   "(none)",
		"new@example.org":   "alice",
	} {
		if got := byAddr(addr); got != want {
			t.Errorf("after change: UserByAddress(%q) = %s, want %s", addr, got, want)
		}
	}

	// Two users may share an address; deleting one keeps the other's.
	update(t, db, func(tx *Tx) error {
		return tx.PutUser(&User{ID: "Aaron", Addresses: []string{"NEW@example.org"}})
	})
	if got := byAddr("new@example.org"); got != "aaron" {
		t.Errorf("shared address: UserByAddress = %s, want aaron (smallest id)", got)
	}
	db.View(func(tx *Tx) error {
		us, err := tx.UsersByAddress("new@EXAMPLE.org")
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, u := range us {
			ids = append(ids, u.ID)
		}
		if want := []string{"aaron", "alice"}; !reflect.DeepEqual(ids, want) {
			t.Errorf("UsersByAddress = %v, want %v", ids, want)
		}
		return nil
	})
	update(t, db, func(tx *Tx) error { return tx.DeleteUser("AARON") })
	if got := byAddr("new@example.org"); got != "alice" {
		t.Errorf("after deleting aaron: UserByAddress = %s, want alice", got)
	}
	update(t, db, func(tx *Tx) error { return tx.DeleteUser("alice") })
	for _, addr := range []string{"alice@example.org", "new@example.org"} {
		if got := byAddr(addr); got != "(none)" {
			t.Errorf("after deleting everyone: UserByAddress(%q) = %s", addr, got)
		}
	}
	db.View(func(tx *Tx) error {
		if _, err := tx.User("alice"); !errors.Is(err, ErrNotFound) {
			t.Errorf("User after DeleteUser: %v, want ErrNotFound", err)
		}
		return nil
	})
	if err := db.Update(func(tx *Tx) error { return tx.DeleteUser("alice") }); !errors.Is(err, ErrNotFound) {
		t.Errorf("DeleteUser of a missing user: %v, want ErrNotFound", err)
	}
}

func TestUsersInIDOrder(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	update(t, db, func(tx *Tx) error {
		for _, id := range []string{"Carol", "alice", "Bob", "dave"} {
			if err := tx.PutUser(&User{ID: id, Name: id}); err != nil {
				return err
			}
		}
		return nil
	})
	var ids, names []string
	db.View(func(tx *Tx) error {
		return tx.Users(func(u *User) error {
			ids = append(ids, u.ID)
			names = append(names, u.Name)
			return nil
		})
	})
	if want := []string{"alice", "bob", "carol", "dave"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("Users ids = %v, want %v", ids, want)
	}
	if want := []string{"alice", "Bob", "Carol", "dave"}; !reflect.DeepEqual(names, want) {
		t.Errorf("Users names = %v, want %v (case kept)", names, want)
	}

	stop := errors.New("stop")
	n := 0
	err := db.View(func(tx *Tx) error {
		return tx.Users(func(u *User) error {
			n++
			if n == 2 {
				return stop
			}
			return nil
		})
	})
	if !errors.Is(err, stop) || n != 2 {
		t.Errorf("Users with fn failing on the 2nd user: err %v after %d calls, want stop after 2", err, n)
	}
}

// KnownAddress tells a user's address from a stranger's, whatever its case.
func TestKnownAddress(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	update(t, db, func(tx *Tx) error { return tx.PutUser(&User{ID: "ann", Addresses: []string{"Ann@Example.org"}}) })
	db.View(func(tx *Tx) error {
		if !tx.KnownAddress("ann@example.org") {
			t.Error("ann's address, in other case, is not known")
		}
		if tx.KnownAddress("bo@example.org") {
			t.Error("a stranger's address is known")
		}
		return nil
	})
}

// UserAddresses reads a user's addresses once a transaction, and follows
// every change the same transaction makes to them.
func TestUserAddresses(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	update(t, db, func(tx *Tx) error {
		if _, err := tx.UserAddresses("ann"); !errors.Is(err, ErrNotFound) {
			t.Errorf("addresses of no user: %v; want ErrNotFound", err)
		}
		if err := tx.PutUser(&User{ID: "Ann", Addresses: []string{"ann@example.org"}}); err != nil {
			return err
		}
		if a, err := tx.UserAddresses("ANN"); err != nil || !slices.Equal(a, []string{"ann@example.org"}) {
			t.Errorf("addresses %v, %v", a, err)
		}
		if err := tx.PutUser(&User{ID: "ann", Addresses: []string{"ann@home.example", "ann@work.example"}}); err != nil {
			return err
		}
		if a, err := tx.UserAddresses("ann"); err != nil || !slices.Equal(a, []string{"ann@home.example", "ann@work.example"}) {
			t.Errorf("addresses after a change %v, %v", a, err)
		}
		if err := tx.DeleteUser("ann"); err != nil {
			return err
		}
		if _, err := tx.UserAddresses("ann"); !errors.Is(err, ErrNotFound) {
			t.Errorf("addresses of a deleted user: %v; want ErrNotFound", err)
		}
		return nil
	})
}

// The addresses the store remembers follow a change made in a later
// transaction, and it remembers a bounded number of users.
func TestUserAddressesRemembered(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	update(t, db, func(tx *Tx) error {
		for i := range addressBookSize + 100 {
			if err := tx.PutUser(&User{ID: fmt.Sprintf("u%d", i), Addresses: []string{fmt.Sprintf("u%d@example.org", i)}}); err != nil {
				return err
			}
		}
		return nil
	})
	read := func(id string) []string {
		var a []string
		db.View(func(tx *Tx) error {
			var err error
			a, err = tx.UserAddresses(id)
			return err
		})
		return a
	}
	for i := range addressBookSize + 100 {
		if a := read(fmt.Sprintf("u%d", i)); len(a) != 1 || a[0] != fmt.Sprintf("u%d@example.org", i) {
			t.Fatalf("u%d: %v", i, a)
		}
	}
	if n := len(db.book.m); n > addressBookSize {
		t.Errorf("the store remembers %d users' addresses; want at most %d", n, addressBookSize)
	}
	update(t, db, func(tx *Tx) error {
		return tx.PutUser(&User{ID: "u1", Addresses: []string{"u1@new.example"}})
	})
	if a := read("u1"); len(a) != 1 || a[0] != "u1@new.example" {
		t.Errorf("after a change: %v", a)
	}
}

// A user's address entry lost from the index (a damaged file) comes back
// the next time the user is stored, though stored addresses are not
// written again.
func TestPutUserMendsAMissingAddress(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	alice := &User{ID: "alice", Addresses: []string{"alice@example.org", "home@example.org"}}
	update(t, db, func(tx *Tx) error { return tx.PutUser(alice) })
	update(t, db, func(tx *Tx) error {
		return tx.btx.bucket(bucketAddrs).Delete(addrKey("home@example.org", "alice"))
	})
	update(t, db, func(tx *Tx) error {
		if tx.KnownAddress("home@example.org") {
			t.Error("the deleted entry is still found")
		}
		alice.Name = "Alice"
		return tx.PutUser(alice)
	})
	db.View(func(tx *Tx) error {
		for _, a := range alice.Addresses {
			if !tx.KnownAddress(a) {
				t.Errorf("%s is not found after the user was stored again", a)
			}
		}
		return nil
	})
}
