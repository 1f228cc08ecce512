// Package store keeps the state of pbemd in one bbolt file: users, games,
// the keys of mail already handled, the outbox of mail to send, and a few
// named notes. A change of state and the mail it causes are written in one
// transaction, so a crash never loses one without the other.
//
// Records are stored so that later versions can add fields without a
// migration: games, users and reply tokens in a binary form of numbered
// fields (record.go), read and written on every move; the rest as JSON.
// Only this package knows about bbolt.
package store

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// FileName is the name of the database file inside the data directory.
const FileName = "pbem.db"

// PathIn returns the path of the database file in the data directory dir.
func PathIn(dir string) string {
	return filepath.Join(dir, FileName)
}

// schemaVersion is the layout of the buckets and records this code reads
// and writes. Raise it, and add a migration from the previous version in
// Open, when a change would be misread by an older pbemd.
//
// Version 2 writes games, users and reply tokens in a binary form
// (record.go) that a pbemd of version 1 cannot read. Version 1 records,
// all JSON, still read, so a version 1 file is upgraded by raising its
// number alone.
const schemaVersion = 2

// oldestSchema is the oldest version this code reads and upgrades.
const oldestSchema = 1

var (
	// ErrLocked reports that another process holds the database open.
	ErrLocked = errors.New("the data is in use by another pbemd process")
	// ErrNotFound reports that no record has the key asked for.
	ErrNotFound = errors.New("not found")
	// ErrSchema reports data written by a schema version this code does
	// not know, usually by a newer pbemd.
	ErrSchema = errors.New("unknown schema version")
	// ErrCorrupt reports a stored record that does not decode: a bad
	// page, a bug, a hand edit. Reading it again gives the same error, so
	// a worker that reads many records logs and passes over such a one
	// instead of stopping at it; the listings of the store do so
	// themselves (see Options.Log).
	ErrCorrupt = errors.New("the stored record does not decode")
)

// Bucket names. Keys are described where each bucket is used.
var (
	bucketMeta      = []byte("meta")
	bucketUsers     = []byte("users")
	bucketAddrs     = []byte("addresses")
	bucketGames     = []byte("games")
	bucketBoards    = []byte("boards")
	bucketSeats     = []byte("seats")
	bucketProcessed = []byte("processed")
	bucketOutbox    = []byte("outbox")
	bucketNotes     = []byte("notes")
	bucketRunning   = []byte("running") // kind + board of every game not over

	allBuckets = [][]byte{bucketMeta, bucketUsers, bucketAddrs, bucketGames,
		bucketBoards, bucketSeats, bucketProcessed, bucketOutbox, bucketNotes, bucketRunning}
)

var keySchema = []byte("schema")

// Options change how Open opens the database. A nil *Options means the
// defaults.
type Options struct {
	LockTimeout time.Duration // how long Open waits for another process's lock; 0 means 2s
	NoSync      bool          // tests only: commits skip fsync and a crash can lose them

	// ReadOnly opens an existing database for reading only, sharing the
	// file with other readers (but not with a running daemon). Update
	// fails. Used by tools such as pbemd backup that must not create a
	// database where none was.
	ReadOnly bool

	// Log is told, once a process, of each record a listing (the outbox
	// due, the users, a page of boards, the quarantine) passed over
	// because it does not decode; nil means slog.Default().
	Log *slog.Logger
}

// A DB is an open database. It is safe for concurrent use; bbolt allows
// one read-write transaction at a time and any number of readers.
type DB struct {
	eng      engine
	bolt     *bolt.DB // nil but on the bbolt engine: for what only a file has
	path     string
	readOnly bool
	due      func(*Game) time.Time // see SetDeadline; set before use
	book     addressBook
	skipped  skipped // records passed over, logged once
	soon     sentSoon
}

// lockedError is the error of Open when the file is locked.
type lockedError struct{ path string }

func (e *lockedError) Error() string {
	return e.path + " is in use by another pbemd process (is the daemon running?)"
}

func (e *lockedError) Unwrap() error { return ErrLocked }

// Open opens the database at path, creating the file, its directory and
// its buckets when they do not exist. It refuses data of an unknown schema
// version with ErrSchema, and gives up with ErrLocked when another process
// keeps the file locked for longer than opts.LockTimeout.
func Open(path string, opts *Options) (*DB, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.LockTimeout <= 0 {
		o.LockTimeout = 2 * time.Second
	}
	fi, statErr := os.Stat(path)
	switch {
	case statErr == nil && fi.Size() == 0:
		// bbolt would silently make a new store of an empty file.
		return nil, notStore(path, "the file is empty")
	case statErr == nil:
	case o.ReadOnly:
		// bbolt would create the file; a reader wants an error instead.
		return nil, fmt.Errorf("store: %w", statErr)
	default:
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
	}
	bopts := &bolt.Options{
		Timeout:  o.LockTimeout,
		NoSync:   o.NoSync,
		ReadOnly: o.ReadOnly,
	}
	bdb, err := openBolt(path, bopts, statErr == nil)
	// A file put in place of the one opened while this process waited for
	// its lock ("pbemd compact") is the store now: the old one is gone.
	for tries := 0; err == nil && statErr == nil; tries++ {
		now, serr := os.Stat(path)
		if serr != nil || os.SameFile(fi, now) {
			break
		}
		bdb.Close()
		if tries == 3 {
			return nil, fmt.Errorf("store: %s was replaced by another file each time it was opened", path)
		}
		fi = now
		bdb, err = openBolt(path, bopts, true)
	}
	if err != nil {
		return nil, err
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	db := &DB{eng: boltEngine{bdb}, bolt: bdb, path: path, readOnly: o.ReadOnly, skipped: skipped{log: o.Log}}
	if err := guard(path, db.prepare); err != nil {
		bdb.Close()
		return nil, err
	}
	return db, nil
}

// prepare checks the schema of a store just opened and, unless it is read
// only, makes what it lacks and upgrades it.
func (db *DB) prepare() error {
	// A store that is complete needs no write, and so no disk sync:
	// "pbemd deliver" opens the store once per mail.
	var current, complete bool
	err := db.eng.view(func(t etx) (err error) {
		current, err = db.checkSchema(t, false)
		complete = hasBuckets(t, laterBuckets) && hasBuckets(t, indexBuckets)
		return err
	})
	if db.readOnly || err == nil && current && complete {
		if err != nil || db.readOnly {
			return err
		}
		return db.upgrade() // one cut short before
	}
	if err := db.eng.update(func(t etx) error { _, err := db.checkSchema(t, true); return err }); err != nil {
		return err
	}
	return db.upgrade()
}

// upgrade brings the indexes of a file written by an older pbemd up to
// date, a part at a time.
func (db *DB) upgrade() error {
	if err := db.upgradeIndexes(); err != nil {
		return err
	}
	if err := db.countRunningBoards(); err != nil {
		return err
	}
	return db.indexCounters()
}

// ErrNotStore reports a data file that is not a pbemd store: empty, cut
// short, foreign bytes, or another program's bbolt file.
var ErrNotStore = errors.New("not a pbemd store")

// notStore is the error for the file at path that is not a store, and why.
func notStore(path, why string) error {
	return fmt.Errorf("store: %s is %w: %s; move it away and restore a backup, or remove it to start an empty store", path, ErrNotStore, why)
}

// openBolt opens the bbolt file. An existing file is first checked to be a
// whole bbolt file: bbolt trusts the page numbers it reads, and a file cut
// short would fault on the first page past its end; such a fault, or a
// panic of bbolt on bad bytes, becomes an error naming the file.
func openBolt(path string, opts *bolt.Options, existed bool) (bdb *bolt.DB, err error) {
	err = guard(path, func() error {
		bdb, err = openBoltUnguarded(path, opts, existed)
		return err
	})
	if err != nil && bdb != nil {
		bdb.Close()
		bdb = nil
	}
	return bdb, err
}

// guard runs fn, turning a panic or a memory fault (bbolt reading a page
// past the end of a damaged file) into an error naming the file.
func guard(path string, fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			err = notStore(path, fmt.Sprintf("reading it failed: %v", p))
		}
	}()
	return fn()
}

func openBoltUnguarded(path string, opts *bolt.Options, existed bool) (*bolt.DB, error) {
	if existed && !opts.ReadOnly {
		// Check read-only first, so that a bad file is not written to.
		ro := *opts
		ro.ReadOnly = true
		check, err := openBolt(path, &ro, true)
		if err != nil {
			return nil, err
		}
		check.Close()
	}
	bdb, err := bolt.Open(path, 0o600, opts)
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return nil, &lockedError{path}
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrVersionMismatch),
		errors.Is(err, berrors.ErrChecksum), err != nil && strings.Contains(err.Error(), "file size too small"):
		return nil, notStore(path, err.Error())
	case err != nil:
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if !existed {
		return bdb, nil
	}
	fi, err := os.Stat(path)
	if err == nil {
		err = bdb.View(func(btx *bolt.Tx) error {
			if btx.Size() > fi.Size() {
				return notStore(path, fmt.Sprintf("it is cut short: its pages reach byte %d, the file has %d, so it is not a whole pbemd store", btx.Size(), fi.Size()))
			}
			return nil
		})
	}
	if err != nil {
		bdb.Close()
		return nil, err
	}
	return bdb, nil
}

// checkSchema checks the stored schema version and, when create is set,
// creates the buckets and records the version in a new database, or
// raises that of an older one. It reports whether the stored version is
// this code's.
func (db *DB) checkSchema(btx etx, create bool) (current bool, err error) {
	meta := btx.bucket(bucketMeta)
	if meta == nil && (!create || hasBucket(btx)) {
		// A bbolt file with no bucket at all is a first Open cut short
		// before its first commit: nothing to lose, it becomes a store.
		return false, notStore(db.path, "it has no pbemd schema version")
	}
	if meta != nil {
		if v := meta.Get(keySchema); v != nil {
			n, err := strconv.Atoi(string(v))
			if err != nil || n < oldestSchema || n > schemaVersion {
				return false, fmt.Errorf("%w: %s was written with schema version %q, this pbemd reads version %d (use the pbemd that wrote it, or a newer one)",
					ErrSchema, db.path, v, schemaVersion)
			}
			current = n == schemaVersion
		} else if !create {
			return false, notStore(db.path, "it has no pbemd schema version")
		}
	}
	if !create {
		for _, name := range allBuckets {
			if btx.bucket(name) == nil {
				return false, fmt.Errorf("store: %s lacks the bucket %q of schema version %d", db.path, name, schemaVersion)
			}
		}
		return current, nil
	}
	for _, name := range append(allBuckets, laterBuckets...) {
		if _, err := btx.createBucket(name); err != nil {
			return false, fmt.Errorf("store: create bucket %s: %w", name, err)
		}
	}
	// A file written before the indexes has them built here, once.
	if err := (&Tx{btx: btx}).buildIndexes(); err != nil {
		return false, err
	}
	if !current {
		// New, or version 1: its JSON records read as they are.
		if err := btx.bucket(bucketMeta).Put(keySchema, []byte(strconv.Itoa(schemaVersion))); err != nil {
			return false, err
		}
	}
	return true, nil
}

// hasBuckets reports whether the store holds every one of the buckets.
func hasBuckets(t etx, names [][]byte) bool {
	for _, name := range names {
		if t.bucket(name) == nil {
			return false
		}
	}
	return true
}

// hasBucket reports whether the store holds any bucket.
func hasBucket(t etx) bool {
	errAny := errors.New("a bucket")
	return t.eachBucket(func([]byte, bucket) error { return errAny }) == errAny
}

// Close closes the database, waiting for running transactions to end.
func (db *DB) Close() error {
	db.soon.mu.Lock()
	db.soon.closed = true
	db.soon.mu.Unlock()
	var err error
	if !db.readOnly {
		err = db.flushSent()
	}
	if cerr := db.eng.close(); err == nil {
		err = cerr
	}
	return err
}

// Path returns the path of the database file.
func (db *DB) Path() string { return db.path }

// A Tx is a transaction. It is valid only inside the function given to
// Update or View, and only on that function's goroutine. Records returned
// by its methods are copies and stay valid after the transaction.
type Tx struct {
	btx etx
	due func(*Game) time.Time
	// indexed holds, in a read-write transaction, what PutGame needs to
	// know of the games as stored now (their index entries, seats, end),
	// by game key, for the games read or written in it: PutGame of a game
	// just read then need not decode its old record a second time.
	indexed map[string]storedGame
	book    *addressBook // see UserAddresses
	skipped *skipped     // see skip
}

// Changed reports whether the transaction has written anything so far.
// A read-write transaction that changed nothing can be rolled back
// instead of committed, sparing the commit's writes and disk sync.
func (tx *Tx) Changed() bool { return tx.btx.changed() }

// Update runs fn in a read-write transaction and commits it when fn
// returns nil, with an fsync unless the database was opened with NoSync.
// When fn returns an error nothing it did is kept.
//
// On a bbolt file it also takes out of the outbox the mails of SentSoon,
// some of them at least, sparing them a commit of their own.
func (db *DB) Update(fn func(*Tx) error) error {
	var sent []uint64
	if db.bolt != nil {
		// On etcd a transaction takes a bounded count of writes, which
		// these must not take from fn's.
		sent = db.soon.some(rideAlong)
	}
	err := db.eng.update(func(btx etx) error {
		tx := &Tx{btx: btx, due: db.due, book: &db.book, skipped: &db.skipped}
		if err := fn(tx); err != nil {
			return err
		}
		return tx.dropSent(sent)
	})
	if err == nil {
		db.soon.done(sent)
	}
	return err
}

// rideAlong is the most mails of SentSoon one transaction takes out.
const rideAlong = 512

// View runs fn in a read-only transaction that sees one consistent state.
// Do not call View or Update from inside fn.
func (db *DB) View(fn func(*Tx) error) error {
	return db.eng.view(func(btx etx) error {
		return fn(&Tx{btx: btx, due: db.due, book: &db.book, skipped: &db.skipped})
	})
}

func (tx *Tx) bucket(name []byte) bucket {
	// Open created every bucket, so a nil bucket is a bug, not bad data.
	return tx.btx.bucket(name)
}

// Backup writes a consistent copy of the database to w while other
// transactions go on, and returns the number of bytes written. The copy is
// itself a database Open can open.
func (db *DB) Backup(w io.Writer) (int64, error) { return db.BackupSized(w, nil) }

// BackupSized is Backup that first tells size how many bytes the copy will
// have, from within the same read transaction, so that a receiver can tell a
// whole copy from one cut short.
func (db *DB) BackupSized(w io.Writer, size func(int64) error) (int64, error) {
	if db.bolt == nil {
		return db.backupCopy(w, size)
	}
	var n int64
	err := db.bolt.View(func(btx *bolt.Tx) error {
		if size != nil {
			if err := size(btx.Size()); err != nil {
				return err
			}
		}
		var err error
		n, err = btx.WriteTo(w)
		return err
	})
	return n, err
}

// BackupFile writes a consistent copy of the database to path. The copy is
// written to path+".tmp", synced and then renamed, so path holds either
// the previous file or a complete copy, never a part.
func (db *DB) BackupFile(path string) error {
	if sameFile(path, db.path) {
		return fmt.Errorf("store: backup to %s would overwrite the database itself; name another file", path)
	}
	return writeFile(path, func(w io.Writer) error {
		_, err := db.Backup(w)
		return err
	})
}

// SaveCopy writes a database copy of size bytes read from r (as another
// process's BackupSized wrote it) to path, as BackupFile does, and then
// checks that the file opens as a pbemd database. A copy cut short is not
// kept.
func SaveCopy(path string, r io.Reader, size int64) error {
	err := writeFile(path, func(w io.Writer) error {
		n, err := io.CopyN(w, r, size)
		if err != nil {
			return fmt.Errorf("the copy was cut short after %d of %d bytes: %w", n, size, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	db, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("store: the copy written to %s is not a whole database, removed: %w", path, err)
	}
	return db.Close()
}

// writeFile writes path+".tmp" with write, syncs it and renames it to path,
// so path holds either what it held before or the whole new content.
func writeFile(path string, write func(io.Writer) error) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	err = write(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = putInPlace(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("store: backup to %s: %w", path, err)
	}
	return nil
}

// putInPlace renames the whole file tmp to path and makes the rename
// itself durable. Not every system can sync a directory; the file is
// complete either way.
func putInPlace(tmp, path string) error {
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
