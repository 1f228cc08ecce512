package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Tournament records, in buckets made on their first write (as the
// counters'), so that a file written before them needs no migration:
//
//	tournaments            lower-case name -> the record, JSON
//	tournament-organisers  organiser \0 name, the tournaments not over
//	tournament-starts      start time \0 name, those not started that
//	                       start by themselves at a date
//
// A tournament is one record: its change (a result, a round paired) is one
// write that touches no other tournament's, in the transaction of the
// boards it is about.
var (
	bucketTournaments          = []byte("tournaments")
	bucketTournamentOrganisers = []byte("tournament-organisers")
	bucketTournamentStarts     = []byte("tournament-starts")
)

// A Tournament's phases.
const (
	TournamentOpen    = "open"    // taking entries
	TournamentRunning = "running" // started: its rounds are played
	TournamentOver    = "over"
)

// A Tournament is one tournament as the service keeps it. The pairing and
// the results are in State, which the store keeps but does not read.
type Tournament struct {
	Name      string // as the organiser wrote it; its key is the lower-case form
	Game      string // the kind of its boards, "tanbo"
	Kind      string // round robin, Swiss, ...: the service's word for it
	Organiser string
	Phase     string
	Created   time.Time
	Updated   time.Time
	StartAt   time.Time         `json:",omitempty"` // when it starts by itself; zero: when its organiser says
	Options   []string          `json:",omitempty"` // the boards' game options, "-size=13"
	Extra     map[string]string `json:",omitempty"` // the boards' clock and policies, copied into each board's Extra
	Limit     int               // the most entrants it takes
	Entrants  int               // how many it has, for lists that do not read State
	Round     int               // the round in play, for lists; 0 before the start
	State     json.RawMessage   `json:",omitempty"` // the pairing state, the service's
}

// TournamentKey is the key of a tournament's name: names are
// case-insensitive.
func TournamentKey(name string) string { return strings.ToLower(name) }

// Tournament reads the tournament of the name; ErrNotFound when there is none.
func (tx *Tx) Tournament(name string) (*Tournament, error) {
	b := tx.btx.bucket(bucketTournaments)
	var v []byte
	if b != nil {
		v = b.Get([]byte(TournamentKey(name)))
	}
	if v == nil {
		return nil, fmt.Errorf("tournament %q: %w", name, ErrNotFound)
	}
	return decodeTournament(v)
}

func decodeTournament(v []byte) (*Tournament, error) {
	var t Tournament
	if err := json.Unmarshal(v, &t); err != nil {
		return nil, fmt.Errorf("store: tournament: %w: %w", ErrCorrupt, err)
	}
	return &t, nil
}

// PutTournament stores t, and its entries in the indexes of organisers and
// start dates as its phase asks.
func (tx *Tx) PutTournament(t *Tournament) error {
	if t.Name == "" {
		return fmt.Errorf("store: a tournament needs a name")
	}
	key := []byte(TournamentKey(t.Name))
	b, err := tx.btx.createBucket(bucketTournaments)
	if err != nil {
		return fmt.Errorf("store: tournaments: %w", err)
	}
	orgs, err := tx.btx.createBucket(bucketTournamentOrganisers)
	if err != nil {
		return fmt.Errorf("store: tournaments: %w", err)
	}
	starts, err := tx.btx.createBucket(bucketTournamentStarts)
	if err != nil {
		return fmt.Errorf("store: tournaments: %w", err)
	}
	if v := b.Get(key); v != nil {
		old, err := decodeTournament(v)
		if err != nil && !errors.Is(err, ErrCorrupt) {
			return err
		}
		if old != nil {
			if err := orgs.Delete(organiserKey(old)); err != nil {
				return err
			}
			if err := starts.Delete(startKey(old)); err != nil {
				return err
			}
		}
	}
	data, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("store: tournament %q: %w", t.Name, err)
	}
	if err := b.Put(key, data); err != nil {
		return err
	}
	if t.Phase != TournamentOver {
		if err := orgs.Put(organiserKey(t), nil); err != nil {
			return err
		}
	}
	if t.Phase == TournamentOpen && !t.StartAt.IsZero() {
		return starts.Put(startKey(t), nil)
	}
	return nil
}

func organiserKey(t *Tournament) []byte {
	return []byte(strings.ToLower(t.Organiser) + "\x00" + TournamentKey(t.Name))
}

func startKey(t *Tournament) []byte {
	return append(append(timeBytes(t.StartAt), 0), TournamentKey(t.Name)...)
}

// OrganisedTournaments counts the tournaments not over that the user
// organises, reading their index entries only, and at most most of them.
func (tx *Tx) OrganisedTournaments(user string, most int) int {
	b := tx.btx.bucket(bucketTournamentOrganisers)
	if b == nil {
		return 0
	}
	prefix := []byte(strings.ToLower(user) + "\x00")
	n := 0
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && n < most; k, _ = c.Next() {
		n++
	}
	return n
}

// TournamentsDue returns the names of at most n open tournaments whose
// start date is at or before now, the earliest first.
func (tx *Tx) TournamentsDue(now time.Time, n int) []string {
	b := tx.btx.bucket(bucketTournamentStarts)
	if b == nil {
		return nil
	}
	end := timeBytes(now)
	var names []string
	c := b.Cursor()
	for k, _ := c.First(); k != nil && len(names) < n && len(k) > len(end); k, _ = c.Next() {
		if bytes.Compare(k[:len(end)], end) > 0 {
			break
		}
		names = append(names, string(k[len(end)+1:]))
	}
	return names
}

// Tournaments returns at most n tournaments after the first skip, in the
// order of their names, for lists a page at a time: the skipped ones are
// passed by their keys, not read. A record that does not decode is passed
// over.
func (tx *Tx) Tournaments(skip, n int) ([]*Tournament, error) {
	b := tx.btx.bucket(bucketTournaments)
	if b == nil || n <= 0 {
		return nil, nil
	}
	var out []*Tournament
	c := b.Cursor()
	k, v := c.First()
	for ; k != nil && skip > 0; k, v = c.Next() {
		skip--
	}
	for ; k != nil && len(out) < n; k, v = c.Next() {
		t, err := decodeTournament(v)
		if errors.Is(err, ErrCorrupt) {
			tx.skip("tournament", k, err)
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}
