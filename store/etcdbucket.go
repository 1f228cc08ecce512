package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// An etcdBucket is a bucket in an etcd transaction: the keys of the
// cluster at the transaction's revision, under the writes it buffered.
type etcdBucket struct {
	t       *etcdTx
	name    string
	existed bool  // at the revision read
	modRev  int64 // of its marker then
	exists  bool  // now
	seq     uint64
	touched bool // read or written: its marker is compared at commit
	wrote   bool
	cleared bool // deleted in this transaction: the keys read are gone

	pending map[string]pendingValue // buffered writes
	order   []string                // keys of pending, sorted when sorted
	sorted  bool
	read    map[string][]byte // point reads of the cluster; nil value: no key
}

type pendingValue struct {
	v   []byte
	del bool
}

// base reports whether the bucket's keys in the cluster are still part of
// it.
func (b *etcdBucket) base() bool { return b.existed && !b.cleared && b.t.err == nil }

func (b *etcdBucket) Get(key []byte) []byte {
	if p, ok := b.pending[string(key)]; ok {
		if p.del {
			return nil
		}
		return p.v
	}
	return b.baseGet(string(key))
}

// baseGet reads the key's value in the cluster, at the transaction's
// revision.
func (b *etcdBucket) baseGet(key string) []byte {
	if !b.base() {
		return nil
	}
	if v, ok := b.read[key]; ok {
		return v
	}
	e := b.t.e
	v, ok := e.cache.value(b.name, b.modRev, key)
	if !ok {
		resp, err := e.getAt("read", e.key(b.name, key), b.t.rev)
		if err != nil {
			b.t.fail(err)
			return nil
		}
		if len(resp.Kvs) == 1 {
			v = value(resp.Kvs[0].Value)
		}
		e.cache.keepValue(b.name, b.modRev, key, v)
	}
	b.remember(key, v)
	return v
}

// etcdReadAhead is the most keys one request reads ahead: well within
// the cluster's --max-txn-ops.
const etcdReadAhead = 512

// readAhead reads the keys not known yet in one etcd transaction of Gets
// at the transaction's revision (a few, when they are many), for Get to
// find them.
func (b *etcdBucket) readAhead(keys [][]byte) {
	if !b.base() {
		return
	}
	e := b.t.e
	var want []string
	asked := map[string]bool{}
	for _, k := range keys {
		key := string(k)
		if _, ok := b.read[key]; ok || b.has(key) || asked[key] {
			continue
		}
		asked[key] = true
		if v, ok := e.cache.value(b.name, b.modRev, key); ok {
			b.remember(key, v)
			continue
		}
		want = append(want, key)
	}
	for len(want) > 0 && b.t.err == nil {
		n := min(len(want), etcdReadAhead)
		b.readMany(want[:n])
		want = want[n:]
	}
}

// readMany reads keys in one request.
func (b *etcdBucket) readMany(keys []string) {
	e := b.t.e
	var resp *clientv3.TxnResponse
	err := e.readAt("read", func(ctx context.Context, opts ...clientv3.OpOption) (err error) {
		ops := make([]clientv3.Op, len(keys))
		for i, k := range keys {
			ops[i] = clientv3.OpGet(e.key(b.name, k), append(opts, clientv3.WithRev(b.t.rev))...)
		}
		resp, err = e.cli.Txn(ctx).Then(ops...).Commit()
		return err
	})
	if err != nil {
		b.t.fail(err)
		return
	}
	for i, r := range resp.Responses {
		var v []byte
		if kvs := r.GetResponseRange().GetKvs(); len(kvs) == 1 {
			v = value(kvs[0].Value)
		}
		b.remember(keys[i], v)
		e.cache.keepValue(b.name, b.modRev, keys[i], v)
	}
}

// remember keeps a value read for the rest of the transaction.
func (b *etcdBucket) remember(key string, v []byte) {
	if b.read == nil {
		b.read = map[string][]byte{}
	}
	b.read[key] = v
}

// getAt reads at a revision already read.
func (e *etcdEngine) getAt(what, key string, rev int64, opts ...clientv3.OpOption) (*clientv3.GetResponse, error) {
	var resp *clientv3.GetResponse
	err := e.readAt(what, func(ctx context.Context, more ...clientv3.OpOption) (err error) {
		resp, err = e.cli.Get(ctx, key, append(append(more, clientv3.WithRev(rev)), opts...)...)
		return err
	})
	return resp, err
}

// readAt makes a read at a revision already read. That revision is the
// same on every member, so read is asked first to read from the member's
// own copy (opts holds WithSerializable: no round through the cluster's
// leader); only when that member has not applied the revision yet is it
// asked again without, to read through the leader.
func (e *etcdEngine) readAt(what string, read func(ctx context.Context, opts ...clientv3.OpOption) error) error {
	ctx, cancel := e.ctx()
	defer cancel()
	e.requests.Add(1)
	err := read(ctx, clientv3.WithSerializable())
	if errors.Is(err, rpctypes.ErrFutureRev) {
		e.requests.Add(1)
		err = read(ctx)
	}
	if err != nil {
		return e.etcdErr(what, err)
	}
	return nil
}

// value is a value read: an empty one is still there, not nil. Its
// capacity is its length, so that a caller's append never writes into the
// memory the cache shares.
func value(v []byte) []byte {
	if v == nil {
		return []byte{}
	}
	return slices.Clip(v)
}

func (b *etcdBucket) writing(key []byte) error {
	switch {
	case !b.t.write:
		return errReadOnly
	case !b.exists:
		return fmt.Errorf("store: bucket %q was deleted in this transaction", b.name)
	case len(key) == 0:
		return errors.New("store: a key must not be empty")
	}
	return nil
}

func (b *etcdBucket) set(key []byte, p pendingValue) {
	if b.pending == nil {
		b.pending = map[string]pendingValue{}
	}
	if _, ok := b.pending[string(key)]; !ok {
		b.order = append(b.order, string(key))
		b.sorted = false
	}
	b.pending[string(key)] = p
	b.wrote = true
}

func (b *etcdBucket) Put(key, v []byte) error {
	if err := b.writing(key); err != nil {
		return err
	}
	b.set(key, pendingValue{v: append([]byte{}, v...)})
	return nil
}

func (b *etcdBucket) Delete(key []byte) error {
	if err := b.writing(key); err != nil {
		return err
	}
	b.set(key, pendingValue{del: true})
	return nil
}

func (b *etcdBucket) NextSequence() (uint64, error) {
	if err := b.writing([]byte("-")); err != nil {
		return 0, err
	}
	b.seq++
	b.wrote = true
	return b.seq, nil
}

func (b *etcdBucket) Sequence() uint64 { return b.seq }

func (b *etcdBucket) SetSequence(n uint64) error {
	if err := b.writing([]byte("-")); err != nil {
		return err
	}
	b.seq, b.wrote = n, true
	return nil
}

func (b *etcdBucket) ForEach(fn func(k, v []byte) error) error {
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if err := fn(k, v); err != nil {
			return err
		}
	}
	return b.t.err
}

func (b *etcdBucket) KeyN() int {
	n := 0
	if b.base() {
		resp, err := b.t.e.getAt("count", b.t.e.data(b.name), b.t.rev, clientv3.WithRange(b.t.e.dataEnd(b.name)),
			clientv3.WithCountOnly())
		if err != nil {
			b.t.fail(err)
			return 0
		}
		n = int(resp.Count)
	}
	for k, p := range b.pending {
		had := b.baseGet(k) != nil
		switch {
		case p.del && had:
			n--
		case !p.del && !had:
			n++
		}
	}
	return n
}

// ops returns the operations that write the bucket's changes.
func (b *etcdBucket) ops() ([]clientv3.Op, error) {
	e := b.t.e
	var ops []clientv3.Op
	if b.existed && b.cleared {
		puts := false
		for _, p := range b.pending {
			puts = puts || !p.del
		}
		if !puts {
			// One range delete; etcd refuses a put inside a deleted range
			// in one transaction, hence the other way below.
			return []clientv3.Op{clientv3.OpDelete(e.data(b.name), clientv3.WithRange(e.dataEnd(b.name)))}, nil
		}
		keys, err := b.t.e.keysAt(b.name, b.t.rev)
		if err != nil {
			return nil, err
		}
		for _, k := range keys {
			if p, ok := b.pending[k]; !ok || p.del {
				ops = append(ops, clientv3.OpDelete(e.key(b.name, k)))
			}
		}
	}
	b.sort()
	for _, k := range b.order {
		p := b.pending[k]
		switch {
		case !p.del:
			ops = append(ops, clientv3.OpPut(e.key(b.name, k), string(p.v)))
		case !b.cleared:
			ops = append(ops, clientv3.OpDelete(e.key(b.name, k)))
		}
	}
	return ops, nil
}

// keysAt returns the keys of a bucket at a revision.
func (e *etcdEngine) keysAt(name string, rev int64) ([]string, error) {
	var keys []string
	from := e.data(name)
	for {
		resp, err := e.getAt("listing "+name, from, rev, clientv3.WithRange(e.dataEnd(name)), clientv3.WithKeysOnly(),
			clientv3.WithLimit(e.page))
		if err != nil {
			return nil, err
		}
		for _, kv := range resp.Kvs {
			keys = append(keys, string(kv.Key[len(e.data(name)):]))
		}
		if !resp.More || len(resp.Kvs) == 0 {
			return keys, nil
		}
		from = string(resp.Kvs[len(resp.Kvs)-1].Key) + "\x00"
	}
}

func (b *etcdBucket) sort() {
	if !b.sorted {
		slices.Sort(b.order)
		b.sorted = true
	}
}

func (b *etcdBucket) Cursor() cursor { return &etcdCursor{b: b} }

// An etcdCursor merges the bucket's keys in the cluster, read a page at a
// time, with the transaction's own writes.
type etcdCursor struct {
	b     *etcdBucket
	pos   string // the key it stands on, when valid
	valid bool
	page  *keyPage // the last read; nil before the first
}

type kv struct {
	k string
	v []byte
}

// fetch reads a page of the cluster's keys: forward from k, or backward
// from just before end (end "" with toEnd: from the last key); from the
// cache when it has that page of the bucket's state.
func (c *etcdCursor) fetch(k string, back bool, end string, toEnd bool) {
	b, e := c.b, c.b.t.e
	key := "f" + k // of the page in the cache
	if back {
		key = "b\x00" + end
		if toEnd {
			key = "b\x01"
		}
	}
	if c.page = e.cache.page(b.name, b.modRev, key); c.page != nil {
		return
	}
	opts := []clientv3.OpOption{clientv3.WithLimit(e.page)}
	from := e.key(b.name, k)
	if back {
		from = e.data(b.name)
		rangeEnd := e.key(b.name, end)
		if toEnd {
			rangeEnd = e.dataEnd(b.name)
		}
		opts = append(opts, clientv3.WithRange(rangeEnd), clientv3.WithSort(clientv3.SortByKey, clientv3.SortDescend))
	} else {
		opts = append(opts, clientv3.WithRange(e.dataEnd(b.name)))
	}
	resp, err := e.getAt("read", from, b.t.rev, opts...)
	if err != nil {
		b.t.fail(err)
		return
	}
	n := len(e.data(b.name))
	p := &keyPage{kvs: make([]kv, 0, len(resp.Kvs))}
	for _, x := range resp.Kvs {
		p.kvs = append(p.kvs, kv{string(x.Key[n:]), value(x.Value)})
	}
	if back {
		slices.Reverse(p.kvs)
		p.hi, p.toEnd = end, toEnd
		if resp.More && len(p.kvs) > 0 {
			p.lo = p.kvs[0].k
		}
	} else {
		p.lo, p.toEnd = k, true
		if resp.More && len(p.kvs) > 0 {
			p.hi, p.toEnd = p.kvs[len(p.kvs)-1].k+"\x00", false
		}
	}
	c.page = p
	e.cache.keepPage(b.name, b.modRev, key, p)
}

// baseFrom returns the cluster's first key at or after k.
func (c *etcdCursor) baseFrom(k string) (kv, bool) {
	for c.b.base() {
		p := c.page
		if p == nil || !p.covers(k) {
			c.fetch(k, false, "", false)
			continue
		}
		i := sort.Search(len(p.kvs), func(i int) bool { return p.kvs[i].k >= k })
		if i < len(p.kvs) {
			return p.kvs[i], true
		}
		if p.toEnd {
			break
		}
		k = p.hi
	}
	return kv{}, false
}

// baseBefore returns the cluster's last key before end (toEnd: the last).
func (c *etcdCursor) baseBefore(end string, toEnd bool) (kv, bool) {
	for c.b.base() {
		p := c.page
		if !(p != nil && (p.toEnd || !toEnd && end <= p.hi) && (toEnd || p.lo < end)) {
			c.fetch("", true, end, toEnd)
			continue
		}
		i := len(p.kvs)
		if !toEnd {
			i = sort.Search(len(p.kvs), func(i int) bool { return p.kvs[i].k >= end })
		}
		if i > 0 {
			return p.kvs[i-1], true
		}
		if p.lo == "" {
			break
		}
		end, toEnd = p.lo, false
	}
	return kv{}, false
}

// from moves to the first key at or after k.
func (c *etcdCursor) from(k string) ([]byte, []byte) {
	b := c.b
	base, ok := c.baseFrom(k)
	for ok && b.has(base.k) {
		base, ok = c.baseFrom(base.k + "\x00")
	}
	b.sort()
	i := sort.SearchStrings(b.order, k)
	for i < len(b.order) && b.pending[b.order[i]].del {
		i++
	}
	if i < len(b.order) && (!ok || b.order[i] < base.k) {
		return c.land(b.order[i], b.pending[b.order[i]].v)
	}
	if ok {
		return c.land(base.k, base.v)
	}
	c.valid = false
	return nil, nil
}

// before moves to the last key before end (toEnd: the last key).
func (c *etcdCursor) before(end string, toEnd bool) ([]byte, []byte) {
	b := c.b
	base, ok := c.baseBefore(end, toEnd)
	for ok && b.has(base.k) {
		base, ok = c.baseBefore(base.k, false)
	}
	b.sort()
	i := len(b.order)
	if !toEnd {
		i = sort.SearchStrings(b.order, end)
	}
	for i > 0 && b.pending[b.order[i-1]].del {
		i--
	}
	if i > 0 && (!ok || b.order[i-1] > base.k) {
		return c.land(b.order[i-1], b.pending[b.order[i-1]].v)
	}
	if ok {
		return c.land(base.k, base.v)
	}
	c.valid = false
	return nil, nil
}

// has reports whether the transaction wrote or deleted the key.
func (b *etcdBucket) has(k string) bool {
	_, ok := b.pending[k]
	return ok
}

func (c *etcdCursor) land(k string, v []byte) ([]byte, []byte) {
	c.pos, c.valid = k, true
	return []byte(k), v
}

func (c *etcdCursor) First() ([]byte, []byte)        { return c.from("") }
func (c *etcdCursor) Last() ([]byte, []byte)         { return c.before("", true) }
func (c *etcdCursor) Seek(k []byte) ([]byte, []byte) { return c.from(string(k)) }

func (c *etcdCursor) Next() ([]byte, []byte) {
	if !c.valid {
		return nil, nil
	}
	return c.from(c.pos + "\x00")
}

func (c *etcdCursor) Prev() ([]byte, []byte) {
	if !c.valid {
		return nil, nil
	}
	return c.before(c.pos, false)
}
