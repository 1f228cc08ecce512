package store

import (
	"container/list"
	"sort"
	"sync"
)

// The etcd engine's cache keeps what transactions read from the cluster,
// so that the next transaction need not ask again: a round trip a key is
// what bounds the engine's rate (BENCHMARKS.md, "stores: bbolt and
// etcd").
//
// It needs no watch to stay correct. Every commit that changes a bucket
// rewrites the bucket's marker (etcd.go), and every transaction reads the
// markers first, at the revision of all its reads. So what was read in a
// bucket whose marker had ModRevision m is what the bucket holds at any
// revision where the marker still has ModRevision m: the cache serves a
// bucket's keys only to a transaction that read the same ModRevision, and
// forgets them when it sees a newer one. A value another node changed is
// therefore never read from the cache, and a transaction that read one
// anyway (its marker changed after its first read) fails its commit's
// compare and runs again, as without the cache.
//
// This process's own commits are applied to the cache at their revision:
// the commit's compare proved that nobody else changed the buckets in
// between, so the values read plus the values written are the bucket at
// that revision.
//
// Memory is bounded by maxBytes, the least recently used entries going
// first; the cache starts empty and fills as keys are read, so opening a
// large store costs nothing.
type etcdCache struct {
	mu       sync.Mutex
	maxBytes int
	bytes    int
	lru      list.List // of *cacheEntry, the most recently used first
	buckets  map[string]*cachedBucket
}

// A cachedBucket is what the cache knows of one bucket at its marker's
// ModRevision modRev.
type cachedBucket struct {
	modRev  int64
	entries map[string]*list.Element // by entry key: "v"+KEY or a page's key
}

// A cacheEntry is a value (nil: no such key) or a page of a cursor.
type cacheEntry struct {
	bucket, key string // key as in cachedBucket.entries
	value       []byte
	page        *keyPage
	size        int
}

// A keyPage is what one range read of a cursor found: every key of the
// bucket in [lo, hi), or from lo on when toEnd, in order. It is never
// changed once made, so cursors and the cache share it.
type keyPage struct {
	kvs    []kv
	lo, hi string
	toEnd  bool
}

func (p *keyPage) covers(k string) bool { return p.lo <= k && (p.toEnd || k < p.hi) }

// changedBy reports whether the writes of b change the page: a key put in
// its range, or one of its keys deleted. (The outbox's sender deletes
// keys that are mostly not there.)
func (p *keyPage) changedBy(b *etcdBucket) bool {
	for i := sort.SearchStrings(b.order, p.lo); i < len(b.order) && p.covers(b.order[i]); i++ {
		k := b.order[i]
		if !b.pending[k].del {
			return true
		}
		if j := sort.Search(len(p.kvs), func(j int) bool { return p.kvs[j].k >= k }); j < len(p.kvs) && p.kvs[j].k == k {
			return true
		}
	}
	return false
}

// cacheOverhead is a rough count of the bytes an entry costs beyond its
// key and value: the list element, the map slot, the entry itself.
const cacheOverhead = 160

func newEtcdCache(maxBytes int) *etcdCache {
	return &etcdCache{maxBytes: maxBytes, buckets: map[string]*cachedBucket{}}
}

func valueKey(k string) string { return "v" + k }

// get returns the entry under key of the bucket as it is at marker
// ModRevision modRev.
func (c *etcdCache) get(bucket string, modRev int64, key string) (*cacheEntry, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.buckets[bucket]
	if b == nil || b.modRev != modRev {
		return nil, false
	}
	el := b.entries[key]
	if el == nil {
		return nil, false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*cacheEntry), true
}

// value returns the cached value of a key (nil: the key does not exist).
func (c *etcdCache) value(bucket string, modRev int64, k string) ([]byte, bool) {
	e, ok := c.get(bucket, modRev, valueKey(k))
	if !ok {
		return nil, false
	}
	return e.value, true
}

// page returns a cached page of a cursor.
func (c *etcdCache) page(bucket string, modRev int64, key string) *keyPage {
	if e, ok := c.get(bucket, modRev, key); ok {
		return e.page
	}
	return nil
}

// at returns the bucket's record at modRev, made or emptied when the
// cache knew an older state; nil when the cache knows a newer one (the
// reader's revision is behind another transaction's). Called with mu
// held.
func (c *etcdCache) at(bucket string, modRev int64) *cachedBucket {
	b := c.buckets[bucket]
	switch {
	case b == nil:
		b = &cachedBucket{modRev: modRev, entries: map[string]*list.Element{}}
		c.buckets[bucket] = b
	case b.modRev > modRev:
		return nil
	case b.modRev < modRev:
		c.forget(b)
		b.modRev = modRev
	}
	return b
}

// forget drops every entry of a bucket. Called with mu held.
func (c *etcdCache) forget(b *cachedBucket) {
	for key, el := range b.entries {
		c.remove(b, key, el)
	}
}

func (c *etcdCache) remove(b *cachedBucket, key string, el *list.Element) {
	c.bytes -= el.Value.(*cacheEntry).size
	c.lru.Remove(el)
	delete(b.entries, key)
}

// put keeps an entry of the bucket at modRev. Called with mu held.
func (c *etcdCache) put(b *cachedBucket, e *cacheEntry) {
	if old := b.entries[e.key]; old != nil {
		c.remove(b, e.key, old)
	}
	if e.size > c.maxBytes/8 {
		return // one large mail would push out everything else
	}
	b.entries[e.key] = c.lru.PushFront(e)
	c.bytes += e.size
	for c.bytes > c.maxBytes {
		last := c.lru.Back().Value.(*cacheEntry)
		lb := c.buckets[last.bucket]
		c.remove(lb, last.key, lb.entries[last.key])
		if len(lb.entries) == 0 && lb != b {
			delete(c.buckets, last.bucket)
		}
	}
}

// keepValue keeps a value read at marker ModRevision modRev.
func (c *etcdCache) keepValue(bucket string, modRev int64, k string, v []byte) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if b := c.at(bucket, modRev); b != nil {
		c.put(b, c.valueEntry(bucket, k, v))
	}
}

func (c *etcdCache) valueEntry(bucket, k string, v []byte) *cacheEntry {
	return &cacheEntry{bucket: bucket, key: valueKey(k), value: v, size: len(bucket) + 2*len(k) + len(v) + cacheOverhead}
}

// keepPage keeps a page read at marker ModRevision modRev.
func (c *etcdCache) keepPage(bucket string, modRev int64, key string, p *keyPage) {
	if c == nil {
		return
	}
	size := len(bucket) + len(key) + len(p.lo) + len(p.hi) + cacheOverhead
	for _, x := range p.kvs {
		size += len(x.k) + len(x.v) + 40
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if b := c.at(bucket, modRev); b != nil {
		c.put(b, &cacheEntry{bucket: bucket, key: key, page: p, size: size})
	}
}

// committed applies the writes of a bucket committed at revision rev,
// where the commit found the bucket's marker at ModRevision read (0: the
// bucket did not exist, or was cleared).
func (c *etcdCache) committed(b *etcdBucket, read, rev int64) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	cb := c.buckets[b.name]
	switch {
	case !b.exists:
		if cb != nil {
			c.forget(cb)
			delete(c.buckets, b.name)
		}
		return
	case cb != nil && cb.modRev == read && read != 0:
		cb.modRev = rev // what it holds, under the writes below
	default:
		// What the cache holds is of another state than the commit's:
		// keep only what the commit wrote.
		if cb = c.at(b.name, rev); cb == nil {
			return
		}
		c.forget(cb)
	}
	b.sort()
	for key, el := range cb.entries {
		if p := el.Value.(*cacheEntry).page; p != nil && p.changedBy(b) {
			c.remove(cb, key, el)
		}
	}
	for _, k := range b.order {
		v := b.pending[k]
		var val []byte // nil: deleted
		if !v.del {
			val = value(v.v)
		}
		c.put(cb, c.valueEntry(b.name, k, val))
	}
}
