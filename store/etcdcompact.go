package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// ClusterCompactStats tells what CompactCluster did.
type ClusterCompactStats struct {
	Revision      int64 // the history before it is gone
	Before, After int64 // the members' database sizes added up, in bytes
	// Members are the members defragmented, in the order they were, one
	// after the other.
	Members []MemberDefrag
	Took    time.Duration
}

// MemberDefrag tells how the defragmentation of one member went.
type MemberDefrag struct {
	Endpoint      string
	Before, After int64 // its database size, in bytes
	Began, Ended  time.Time
}

// CompactCluster is "pbemd compact" of a store in etcd: it drops the
// cluster's history of old revisions (etcd keeps every version of every
// key until compacted) and then defragments each member, one at a time,
// so that the freed space is given back and the database stays below its
// --quota-backend-bytes. A member blocks its requests while it
// defragments: the others answer meanwhile. The daemon's leader runs it
// on a schedule, keeping some history (CompactClusterTo); the cluster's
// own --auto-compaction-retention does the first half too.
func (db *DB) CompactCluster() (ClusterCompactStats, error) { return db.CompactClusterTo(0) }

// Revision returns the store's cluster's present revision, which
// CompactClusterTo may later be given to keep the history since.
func (db *DB) Revision() (int64, error) {
	e, err := db.etcd("Revision")
	if err != nil {
		return 0, err
	}
	ctx, cancel := e.ctx()
	defer cancel()
	resp, err := e.cli.Get(ctx, e.marker(string(bucketMeta)))
	if err != nil {
		return 0, e.etcdErr("revision", err)
	}
	return resp.Header.Revision, nil
}

// CompactClusterTo is CompactCluster keeping the history since rev (a
// Revision read earlier; 0 keeps none). A rev the cluster has compacted
// already is no error: the history before it is gone either way.
func (db *DB) CompactClusterTo(rev int64) (ClusterCompactStats, error) {
	var st ClusterCompactStats
	e, err := db.etcd("CompactCluster")
	if err != nil {
		return st, err
	}
	began := time.Now()
	if st.Before, _, err = e.dbSizes(); err != nil {
		return st, err
	}
	if rev <= 0 {
		if rev, err = db.Revision(); err != nil {
			return st, err
		}
	}
	st.Revision = rev
	ctx, cancel := e.ctx()
	_, err = e.cli.Compact(ctx, st.Revision, clientv3.WithCompactPhysical())
	cancel()
	if err != nil && !errors.Is(err, rpctypes.ErrCompacted) {
		return st, e.etcdErr("compact", err)
	}
	for _, ep := range e.cli.Endpoints() {
		m := MemberDefrag{Endpoint: ep}
		s, err := e.status(ep)
		if err != nil {
			return st, err
		}
		m.Before, m.Began = s.DbSize, time.Now()
		// Defragmenting copies the member's database: more than a request.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute+4*e.timeout)
		_, err = e.cli.Defragment(ctx, ep)
		cancel()
		if err != nil {
			return st, fmt.Errorf("store: etcd: defragmenting %s: %w", ep, err)
		}
		m.Ended = time.Now()
		if s, err = e.status(ep); err != nil {
			return st, err
		}
		m.After = s.DbSize
		st.Members = append(st.Members, m)
	}
	if st.After, _, err = e.dbSizes(); err != nil {
		return st, err
	}
	st.Took = time.Since(began)
	return st, nil
}

// etcd returns the store's etcd engine, or an error saying that what
// was asked (op) is for a store in etcd.
func (db *DB) etcd(op string) (*etcdEngine, error) {
	e, ok := db.eng.(*etcdEngine)
	if !ok {
		return nil, fmt.Errorf("store: %s is for a store in etcd; %s is a bbolt file (compacted with Compact, the daemon stopped)", op, db.path)
	}
	return e, nil
}
