package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// The etcd engine keeps each bucket under a key prefix of one etcd
// cluster:
//
//	PREFIX/m/BUCKET       the bucket's marker: it exists; its value is the
//	                      bucket's sequence in decimal
//	PREFIX/d/BUCKET/KEY   a key of the bucket and its value
//
// A read-write transaction reads at one revision of the cluster (that of
// its first read) and buffers its writes. Its commit is one etcd
// transaction: if the marker of every bucket it read or wrote is as it
// read it, write the keys and rewrite the marker of every bucket written.
// Every commit that changes a bucket rewrites its marker, so a marker
// unchanged proves that nothing the transaction read in that bucket,
// point or range, has changed: the transactions are serializable. The
// compares are one per bucket touched (some 25), not one per key read, so
// they fit etcd's bound on a transaction's operations whatever the
// transaction reads. When a marker has changed the transaction is run
// again on the new state (see engine).

// EtcdConfig says how to reach the etcd cluster of a store.
type EtcdConfig struct {
	Endpoints []string // host:port of each member
	Prefix    string   // of every key; "" means "pbemd"

	// CA, Cert and Key are PEM files: the cluster's certificate
	// authority, and this client's certificate and key when the cluster
	// asks for one. With none, the connection is plain: loopback only.
	CA, Cert, Key string
	// Username and Password log in when the cluster has auth enabled.
	Username, Password string

	// Timeout bounds each request to the cluster; 0 means 5s. A cluster
	// that does not answer in time fails the transaction: the mail stays
	// with the MTA and comes again.
	Timeout time.Duration

	// MaxTxnOps and MaxRequestBytes are the cluster's --max-txn-ops and
	// --max-request-bytes; 0 means 4096 and 16 MiB, the settings
	// docs/scaling.md asks of a cluster (etcd's own defaults, 128 and
	// 1.5 MiB, are too small for the sweep's batches and a 10 MiB mail).
	// A commit larger than either fails whole with ErrTooLarge instead of
	// being split; a cluster set lower refuses it whole.
	MaxTxnOps       int
	MaxRequestBytes int

	// CacheBytes bounds the memory of the values and pages this process
	// keeps from the cluster between transactions (etcdcache.go); 0 means
	// 32 MiB, less than 0 no cache.
	CacheBytes int
}

// ErrTooLarge reports a transaction larger than the cluster takes in one
// commit. Nothing of it was written.
var ErrTooLarge = errors.New("the transaction is larger than the etcd cluster takes at once")

// ErrUnreachable reports that the store's cluster did not answer in time.
// Nothing was written; trying again later is the remedy.
var ErrUnreachable = errors.New("the etcd cluster did not answer")

// What a cluster must take (server flags --max-txn-ops and
// --max-request-bytes): the sweep prunes 1,000 records a transaction, two
// keys each, and a mail of largest_mail (10 MiB) may be kept whole.
const (
	etcdMaxTxnOps       = 4096
	etcdMaxRequestBytes = 16 << 20
	etcdCacheBytes      = 32 << 20
)

// etcdPage is how many keys a cursor reads from the cluster at a time.
const etcdPage = 256

// etcdTries is how often an update is run when other writers keep
// changing what it read.
const etcdTries = 20

type etcdEngine struct {
	cli     *clientv3.Client
	prefix  string // with its final "/"
	timeout time.Duration
	maxOps  int
	maxSize int
	// readOnly refuses updates, as bbolt opened read-only does: a tool
	// that only reads ("pbemd backup") writes nothing by mistake.
	readOnly bool
	cache    *etcdCache // nil: none
	page     int64      // keys a cursor reads at a time: etcdPage
	// requests counts the requests sent to the cluster, to tell in tests
	// what the cache saved.
	requests atomic.Int64
	// One writer of this process at a time, as bbolt: the writers of one
	// pbemd never fail each other's compares.
	mu sync.Mutex
	// known is the markers after this process's last commit, when it
	// knows them (etcdknown.go); guarded by mu.
	known *etcdKnown
}

func newEtcdEngine(cli *clientv3.Client, c *EtcdConfig) *etcdEngine {
	e := &etcdEngine{cli: cli, prefix: c.Prefix, timeout: c.Timeout, maxOps: c.MaxTxnOps, maxSize: c.MaxRequestBytes, page: etcdPage}
	if e.prefix == "" {
		e.prefix = "pbemd"
	}
	e.prefix = strings.TrimSuffix(e.prefix, "/") + "/"
	if e.timeout <= 0 {
		e.timeout = 5 * time.Second
	}
	if e.maxOps <= 0 {
		e.maxOps = etcdMaxTxnOps
	}
	if e.maxSize <= 0 {
		e.maxSize = etcdMaxRequestBytes
	}
	switch {
	case c.CacheBytes == 0:
		e.cache = newEtcdCache(etcdCacheBytes)
	case c.CacheBytes > 0:
		e.cache = newEtcdCache(c.CacheBytes)
	}
	return e
}

func (e *etcdEngine) close() error { return e.cli.Close() }

func (e *etcdEngine) markers() string            { return e.prefix + "m/" }
func (e *etcdEngine) marker(name string) string  { return e.prefix + "m/" + name }
func (e *etcdEngine) data(name string) string    { return e.prefix + "d/" + name + "/" }
func (e *etcdEngine) key(name, k string) string  { return e.prefix + "d/" + name + "/" + k }
func (e *etcdEngine) dataEnd(name string) string { return clientv3.GetPrefixRangeEnd(e.data(name)) }
func (e *etcdEngine) ctx() (context.Context, func()) {
	return context.WithTimeout(context.Background(), e.timeout)
}

func (e *etcdEngine) view(fn func(etx) error) error {
	t := &etcdTx{e: e}
	err := fn(t)
	if t.err != nil {
		return t.err // what fn decided rests on reads that failed
	}
	return err
}

// errConflict is the commit of a transaction whose reads another writer
// changed meanwhile.
var errConflict = errors.New("store: etcd: changed by another writer")

func (e *etcdEngine) update(fn func(etx) error) error {
	if e.readOnly {
		return fmt.Errorf("%w: the store was opened read-only", errReadOnly)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for try := 1; ; try++ {
		t := &etcdTx{e: e, write: true}
		if try == 1 && e.known != nil {
			t.start(e.known)
		}
		e.known = nil // until a commit or a read says again
		err := fn(t)
		wrote := false
		if t.err == nil && err == nil {
			wrote = t.changed()
			err = t.commit()
		} else if t.err != nil {
			err = t.err
		}
		if t.assumed && (err != nil || !wrote) && !errors.Is(err, errConflict) {
			// No commit checked the markers this outcome rests on.
			ok, cerr := t.current()
			switch {
			case cerr != nil:
				return cerr
			case !ok:
				err = errConflict
			}
		}
		if !errors.Is(err, errConflict) {
			return err
		}
		if try == etcdTries {
			return fmt.Errorf("%w %d times running; try again later", err, try)
		}
		if !t.assumed {
			// Apart from the other writers, a little at random.
			time.Sleep(time.Duration(rand.IntN(try*5)+1) * time.Millisecond)
		}
	}
}

// etcdErr says what failed in a request to the cluster.
func (e *etcdEngine) etcdErr(what string, err error) error {
	switch {
	case errors.Is(err, rpctypes.ErrCompacted):
		// The revision read was compacted away under a long transaction:
		// run it again on the present one.
		return fmt.Errorf("%w (%s: %v)", errConflict, what, err)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return fmt.Errorf("store: etcd %s: %w within %s: %v", what, ErrUnreachable, e.timeout, err)
	}
	return fmt.Errorf("store: etcd %s: %w", what, err)
}

// An etcdTx is a transaction of the etcd engine. Reads that fail keep the
// first error in err, return nothing, and make the transaction fail.
type etcdTx struct {
	e       *etcdEngine
	write   bool
	rev     int64 // of every read; 0 before the first
	err     error
	buckets map[string]*etcdBucket // every bucket that exists or was asked for
	listed  bool                   // eachBucket ran: a bucket made since fails the commit
	assumed bool                   // started on the known markers, not read (etcdknown.go)
}

// load reads the markers of the buckets, the transaction's first read,
// which fixes its revision.
func (t *etcdTx) load() {
	if t.buckets != nil {
		return
	}
	t.buckets = map[string]*etcdBucket{}
	ctx, cancel := t.e.ctx()
	defer cancel()
	t.e.requests.Add(1)
	resp, err := t.e.cli.Get(ctx, t.e.markers(), clientv3.WithPrefix())
	if err != nil {
		t.fail(t.e.etcdErr("reading the buckets", err))
		return
	}
	t.rev = resp.Header.Revision
	for _, kv := range resp.Kvs {
		name := string(kv.Key[len(t.e.markers()):])
		seq, err := strconv.ParseUint(string(kv.Value), 10, 64)
		if err != nil {
			t.fail(fmt.Errorf("store: etcd: the marker of bucket %q holds %q, not a sequence number: %w", name, kv.Value, ErrCorrupt))
			return
		}
		t.buckets[name] = &etcdBucket{t: t, name: name, existed: true, exists: true, modRev: kv.ModRevision, seq: seq}
	}
}

func (t *etcdTx) fail(err error) {
	if t.err == nil {
		t.err = err
	}
}

// get returns the bucket's record, made (as not existing) when none is.
func (t *etcdTx) get(name []byte) *etcdBucket {
	t.load()
	b := t.buckets[string(name)]
	if b == nil {
		b = &etcdBucket{t: t, name: string(name)}
		t.buckets[string(name)] = b
	}
	b.touched = true
	return b
}

func (t *etcdTx) bucket(name []byte) bucket {
	// After a failed read, every bucket is there and empty: the caller
	// that counts on one finds none of its keys, and the transaction
	// fails with that read's error.
	if b := t.get(name); b.exists || t.err != nil {
		return b
	}
	return nil
}

func (t *etcdTx) createBucket(name []byte) (bucket, error) {
	if !t.write {
		return nil, errReadOnly
	}
	if len(name) == 0 || strings.Contains(string(name), "/") {
		return nil, fmt.Errorf("store: bucket name %q: want a name without '/'", name)
	}
	b := t.get(name)
	if !b.exists {
		b.exists, b.wrote = true, true
	}
	return b, t.err
}

func (t *etcdTx) deleteBucket(name []byte) error {
	if !t.write {
		return errReadOnly
	}
	b := t.get(name)
	if b.exists {
		b.exists, b.wrote, b.cleared = false, true, true
		b.pending, b.order, b.seq = nil, nil, 0
	}
	return t.err
}

func (t *etcdTx) eachBucket(fn func(name []byte, b bucket) error) error {
	t.load()
	t.listed = true
	names := make([]string, 0, len(t.buckets))
	for name, b := range t.buckets {
		if b.exists {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		b := t.buckets[name]
		b.touched = true
		if err := fn([]byte(name), b); err != nil {
			return err
		}
	}
	return t.err
}

func (t *etcdTx) changed() bool {
	for _, b := range t.buckets {
		if b.wrote {
			return true
		}
	}
	return false
}

func (t *etcdTx) writable() bool { return t.write }

var errReadOnly = errors.New("store: the transaction is read-only")

// commit writes what the transaction buffered in one etcd transaction, if
// nothing it read has changed, or fails with errConflict.
func (t *etcdTx) commit() error {
	if !t.changed() {
		return nil // it read one consistent state: nothing to check
	}
	var cmps []clientv3.Cmp
	var ops []clientv3.Op
	size := 0
	names := make([]string, 0, len(t.buckets))
	for name := range t.buckets {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		b := t.buckets[name]
		if !b.touched {
			continue
		}
		m := t.e.marker(name)
		if b.existed {
			cmps = append(cmps, clientv3.Compare(clientv3.ModRevision(m), "=", b.modRev))
		} else {
			cmps = append(cmps, clientv3.Compare(clientv3.Version(m), "=", 0))
		}
		size += len(m) + 16
		if !b.wrote {
			continue
		}
		bops, err := b.ops()
		if err != nil {
			return err
		}
		ops = append(ops, bops...)
		if b.exists {
			ops = append(ops, clientv3.OpPut(m, strconv.FormatUint(b.seq, 10)))
		} else {
			ops = append(ops, clientv3.OpDelete(m))
		}
	}
	if t.listed {
		// No bucket made since the list was read.
		cmps = append(cmps, clientv3.Compare(clientv3.CreateRevision(t.e.markers()), "<", t.rev+1).WithPrefix())
	}
	for _, op := range ops {
		size += len(op.KeyBytes()) + len(op.ValueBytes()) + len(op.RangeBytes()) + 8
	}
	if n := max(len(cmps), len(ops)); n > t.e.maxOps {
		return fmt.Errorf("store: etcd: %w: %d operations, the cluster's --max-txn-ops is %d (raise it and the store's max_txn_ops together)", ErrTooLarge, n, t.e.maxOps)
	}
	// A margin for the request's own framing.
	if size > t.e.maxSize-4096 {
		return fmt.Errorf("store: etcd: %w: some %d bytes, the cluster's --max-request-bytes is %d (raise it and the store's max_request_bytes together)", ErrTooLarge, size, t.e.maxSize)
	}
	commitSizes.note(len(ops), size)
	ctx, cancel := t.e.ctx()
	defer cancel()
	t.e.requests.Add(1)
	resp, err := t.e.cli.Txn(ctx).If(cmps...).Then(ops...).Commit()
	if err != nil {
		return t.e.etcdErr("commit", err)
	}
	if !resp.Succeeded {
		return errConflict
	}
	t.e.known = t.known(resp.Header.Revision)
	for _, b := range t.buckets {
		if b.wrote {
			read := b.modRev // the state the writes apply to
			if !b.existed || b.cleared {
				read = 0
			}
			t.e.cache.committed(b, read, resp.Header.Revision)
		}
	}
	return nil
}

// commitSizes keeps the largest commit of this process: the tests of the
// service measure with it what a cluster must take.
var commitSizes commitStats

type commitStats struct {
	sync.Mutex
	ops, bytes int
}

func (s *commitStats) note(ops, bytes int) {
	s.Lock()
	s.ops, s.bytes = max(s.ops, ops), max(s.bytes, bytes)
	s.Unlock()
}

// LargestEtcdCommit returns the most operations and bytes one commit of
// this process has sent to an etcd cluster.
func LargestEtcdCommit() (ops, bytes int) {
	commitSizes.Lock()
	defer commitSizes.Unlock()
	return commitSizes.ops, commitSizes.bytes
}
