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
	Took          time.Duration
}

// CompactCluster is "pbemd compact" of a store in etcd: it drops the
// cluster's history of old revisions (etcd keeps every version of every
// key until compacted) and then defragments each member, one at a time,
// so that the freed space is given back and the database stays below its
// --quota-backend-bytes. A member blocks its requests while it
// defragments: the others answer meanwhile. The daemon runs it daily
// (see docs/scaling.md); the cluster's own --auto-compaction-retention
// does the first half too.
func (db *DB) CompactCluster() (ClusterCompactStats, error) {
	var st ClusterCompactStats
	e, ok := db.eng.(*etcdEngine)
	if !ok {
		return st, errors.New("store: CompactCluster is for a store in etcd; a bbolt file is compacted with Compact, the daemon stopped")
	}
	began := time.Now()
	sizes := func() (int64, error) {
		var n int64
		for _, ep := range e.cli.Endpoints() {
			ctx, cancel := e.ctx()
			s, err := e.cli.Status(ctx, ep)
			cancel()
			if err != nil {
				return 0, e.etcdErr("status of "+ep, err)
			}
			n += s.DbSize
		}
		return n, nil
	}
	var err error
	if st.Before, err = sizes(); err != nil {
		return st, err
	}
	ctx, cancel := e.ctx()
	resp, err := e.cli.Get(ctx, e.marker(string(bucketMeta)))
	cancel()
	if err != nil {
		return st, e.etcdErr("revision", err)
	}
	st.Revision = resp.Header.Revision
	ctx, cancel = e.ctx()
	_, err = e.cli.Compact(ctx, st.Revision, clientv3.WithCompactPhysical())
	cancel()
	if err != nil && !errors.Is(err, rpctypes.ErrCompacted) {
		return st, e.etcdErr("compact", err)
	}
	for _, ep := range e.cli.Endpoints() {
		// Defragmenting copies the member's database: more than a request.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute+4*e.timeout)
		_, err := e.cli.Defragment(ctx, ep)
		cancel()
		if err != nil {
			return st, fmt.Errorf("store: etcd: defragmenting %s: %w", ep, err)
		}
	}
	if st.After, err = sizes(); err != nil {
		return st, err
	}
	st.Took = time.Since(began)
	return st, nil
}
