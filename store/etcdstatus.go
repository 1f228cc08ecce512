package store

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// status asks the member at ep how it is, within the store's timeout.
func (e *etcdEngine) status(ep string) (*clientv3.StatusResponse, error) {
	ctx, cancel := e.ctx()
	defer cancel()
	s, err := e.cli.Status(ctx, ep)
	if err != nil {
		return nil, e.etcdErr("status of "+ep, err)
	}
	return s, nil
}

// dbSizes returns the database sizes of the members the store connects
// to, added up and the largest.
func (e *etcdEngine) dbSizes() (total, largest int64, err error) {
	for _, ep := range e.cli.Endpoints() {
		s, err := e.status(ep)
		if err != nil {
			return 0, 0, err
		}
		total += s.DbSize
		largest = max(largest, s.DbSize)
	}
	return total, largest, nil
}

// A ClusterStatus is what the members of a store's etcd cluster say of
// themselves, for "pbemd doctor".
type ClusterStatus struct {
	// Members are every member of the cluster, whether the store's
	// address names it or not, in the cluster's order.
	Members []MemberStatus
	// Alarms are those raised, such as "NOSPACE on m1": while one is,
	// the cluster takes no write.
	Alarms []string
	// Unnamed are the members the store's address does not name: the
	// client cannot fail over to them, nor compaction defragment them.
	Unnamed []string
	// Buckets counts the store's buckets under its prefix: 0 when it
	// holds no store.
	Buckets int64
	// Leader is the pbemd node that serves the store, "" when none does.
	Leader string
}

// A MemberStatus is what one member says of itself.
type MemberStatus struct {
	Name     string
	Endpoint string // its client URL
	Err      error  // it did not answer; the rest is unknown
	Version  string // of etcd
	// DbSize is its database on disk, DbSizeInUse the part that holds
	// data (the rest a defragmentation gives back), Quota its
	// --quota-backend-bytes.
	DbSize, DbSizeInUse, Quota int64
	Leads                      bool     // it is the Raft leader
	NoLeader                   bool     // it knows of no leader
	Learner                    bool     // it does not vote yet
	Errors                     []string // what it reports wrong with itself
}

// EtcdStatus asks the cluster of the store c names about itself and the
// store: each member's health, room and leader, the alarms, and whether
// the prefix holds a store. The error is for a cluster that does not
// answer (ErrUnreachable) or refuses the client; a member that does not
// answer is told in its MemberStatus.
func EtcdStatus(c *EtcdConfig) (ClusterStatus, error) {
	var st ClusterStatus
	e, err := dialEtcd(c)
	if err != nil {
		return st, err
	}
	defer e.cli.Close()
	ctx, cancel := e.ctx()
	list, err := e.cli.MemberList(ctx)
	cancel()
	if err != nil {
		return st, e.etcdErr("listing the members", err)
	}
	named := map[string]bool{}
	for _, ep := range c.Endpoints {
		named[ep] = true
	}
	names := map[uint64]string{}
	for _, m := range list.Members {
		names[m.ID] = m.Name
		ms := MemberStatus{Name: m.Name, Learner: m.IsLearner}
		if len(m.ClientURLs) == 0 {
			ms.Err = errors.New("it has not started: it has no client address yet")
			st.Members = append(st.Members, ms)
			continue
		}
		ms.Endpoint = m.ClientURLs[0]
		if !slices.ContainsFunc(m.ClientURLs, func(u string) bool { _, host, _ := strings.Cut(u, "://"); return named[host] }) {
			st.Unnamed = append(st.Unnamed, m.Name+" ("+ms.Endpoint+")")
		}
		s, err := e.status(ms.Endpoint)
		if err != nil {
			ms.Err = err
		} else {
			ms.Version, ms.DbSize, ms.DbSizeInUse, ms.Quota = s.Version, s.DbSize, s.DbSizeInUse, s.DbSizeQuota
			ms.Leads, ms.NoLeader, ms.Errors = s.Leader == s.Header.MemberId, s.Leader == 0, s.Errors
		}
		st.Members = append(st.Members, ms)
	}
	ctx, cancel = e.ctx()
	alarms, err := e.cli.AlarmList(ctx)
	cancel()
	if err != nil {
		return st, e.etcdErr("listing the alarms", err)
	}
	for _, a := range alarms.Alarms {
		st.Alarms = append(st.Alarms, fmt.Sprintf("%s on %s", a.Alarm, names[a.MemberID]))
	}
	ctx, cancel = e.ctx()
	resp, err := e.cli.Get(ctx, e.markers(), clientv3.WithPrefix(), clientv3.WithCountOnly())
	cancel()
	if err != nil {
		return st, e.etcdErr("counting the buckets", err)
	}
	st.Buckets = resp.Count
	st.Leader, err = (&DB{eng: e, path: c.String()}).Leader()
	return st, err
}
