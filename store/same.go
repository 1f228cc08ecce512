package store

// Same says where db and other first differ in their buckets, keys,
// values and sequences, or returns nil when they hold the same: what
// "pbemd populate" promises of two stores made with one seed, and what a
// copy must keep.
func (db *DB) Same(other *DB) error { return sameAll(db.eng, other.eng) }
