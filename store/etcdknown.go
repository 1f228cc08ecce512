package store

// An update of the etcd engine need not read the markers of the buckets
// first when this process knows them already: after its own commit, if
// the commit's revision follows the revision its transaction read, nobody
// else wrote in between, so the markers after the commit are those read
// with the commit's writes. The next update's first run starts from them
// (a round trip less) and its commit compares them as always: if another
// node wrote meanwhile the compare fails and the update runs again on
// markers read afresh, so a stale start never commits. A run that ends
// without a commit (nothing written, or the function's error) has its
// markers checked before its outcome is believed.

// etcdKnown is the state of every bucket's marker at a revision.
type etcdKnown struct {
	rev     int64
	markers map[string]etcdMarker
}

type etcdMarker struct {
	modRev int64
	seq    uint64
}

// start begins a transaction on the known markers.
func (t *etcdTx) start(k *etcdKnown) {
	t.rev, t.assumed = k.rev, true
	t.buckets = make(map[string]*etcdBucket, len(k.markers))
	for name, m := range k.markers {
		t.buckets[name] = &etcdBucket{t: t, name: name, existed: true, exists: true, modRev: m.modRev, seq: m.seq}
	}
}

// known returns the markers of every bucket once t committed at rev, or
// nil when another writer may have written between t's revision and rev.
func (t *etcdTx) known(rev int64) *etcdKnown {
	if rev != t.rev+1 {
		return nil
	}
	return t.markersAt(rev)
}

// markersAt returns the markers of the buckets as t leaves them, its
// writes committed at rev.
func (t *etcdTx) markersAt(rev int64) *etcdKnown {
	k := &etcdKnown{rev: rev, markers: make(map[string]etcdMarker, len(t.buckets))}
	for name, b := range t.buckets {
		switch {
		case !b.exists:
		case b.wrote:
			k.markers[name] = etcdMarker{modRev: rev, seq: b.seq}
		default:
			k.markers[name] = etcdMarker{modRev: b.modRev, seq: b.seq}
		}
	}
	return k
}

// current reads the markers and reports whether every bucket t touched
// (and, when t listed them, the set of buckets) is as t took it; the
// markers read become the known ones.
func (t *etcdTx) current() (bool, error) {
	f := &etcdTx{e: t.e}
	f.load()
	if f.err != nil {
		return false, f.err
	}
	t.e.known = f.markersAt(f.rev)
	for name, b := range t.buckets {
		if !b.touched && !t.listed {
			continue
		}
		now, ok := f.buckets[name]
		if ok != b.existed || ok && now.modRev != b.modRev {
			return false, nil
		}
	}
	if t.listed {
		for name := range f.buckets {
			if b, ok := t.buckets[name]; !ok || !b.existed {
				return false, nil
			}
		}
	}
	return true, nil
}
