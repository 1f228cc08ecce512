package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/pbemd/pbemd/store"
)

// quotaWarn is the share of its quota a member's database may fill
// before the doctor warns: at the quota the cluster takes no write.
const quotaWarn = 0.8

// etcdChecks are the doctor's checks of a store in etcd, in place of the
// file's: the cluster (every member answers, one leads), its room (no
// alarm, each database below its quota) and the prefix (a pbemd store of
// a schema this pbemd reads, and the node serving it). The cluster is
// asked once, by the first.
func (d *doctor) etcdChecks() []func(context.Context) Finding {
	var st store.ClusterStatus
	var err error
	asked := false
	status := func() (store.ClusterStatus, error) {
		if !asked {
			asked = true
			var c *store.EtcdConfig
			if c, err = d.cfg.EtcdStore(); err == nil {
				st, err = store.EtcdStatus(c)
			}
		}
		return st, err
	}
	return []func(context.Context) Finding{
		func(context.Context) Finding { return etcdCluster(status()) },
		func(context.Context) Finding { return etcdRoom(status()) },
		func(context.Context) Finding { return d.etcdStore(status()) },
	}
}

// etcdCluster checks that the cluster answers, that each member does and
// knows a leader, and that the store's address names every member.
func etcdCluster(st store.ClusterStatus, err error) Finding {
	if err != nil {
		return Finding{Fail, "etcd", fmt.Sprintf("%v; pbemd serve would not start, and mail would stay with the MTA (451, exit 75) until the cluster answers", err)}
	}
	var down, leaderless, troubled []string
	leader, version := "", ""
	for _, m := range st.Members {
		switch {
		case m.Err != nil:
			down = append(down, fmt.Sprintf("%s (%s): %v", m.Name, m.Endpoint, m.Err))
			continue
		case m.NoLeader:
			leaderless = append(leaderless, m.Name)
		case len(m.Errors) > 0:
			troubled = append(troubled, fmt.Sprintf("%s: %s", m.Name, strings.Join(m.Errors, "; ")))
		}
		if m.Leads {
			leader = m.Name
		}
		version = m.Version
	}
	n := len(st.Members)
	switch {
	case leader == "" || 2*len(down) >= n:
		return Finding{Fail, "etcd", fmt.Sprintf("no leader among the %d members (down: %s; without a leader: %s): the cluster takes no write; bring a majority of the members back",
			n, list(down), list(leaderless))}
	case len(down) > 0 || len(leaderless) > 0:
		return Finding{Warn, "etcd", fmt.Sprintf("%d of %d members down (%s), without a leader: %s; the cluster works while a majority answers, one more loss stops it",
			len(down), n, list(down), list(leaderless))}
	case len(troubled) > 0:
		return Finding{Warn, "etcd", "members report errors: " + strings.Join(troubled, "; ")}
	case len(st.Unnamed) > 0:
		return Finding{Warn, "etcd", fmt.Sprintf("%d of %d members answer, but store: does not name %s: name every member, so that the nodes fail over to it and the compaction defragments it",
			n, n, strings.Join(st.Unnamed, ", "))}
	}
	return Finding{OK, "etcd", fmt.Sprintf("%d of %d members answer, %s leads; etcd %s", n, n, leader, version)}
}

// etcdRoom checks the cluster's alarms and each member's database
// against its quota.
func etcdRoom(st store.ClusterStatus, err error) Finding {
	if err != nil {
		return Finding{Skip, "etcd room", "the cluster does not answer"}
	}
	if len(st.Alarms) > 0 {
		return Finding{Fail, "etcd room", fmt.Sprintf("alarm %s: the cluster takes no write (mail waits with the MTA); free room with pbemd compact, raise --quota-backend-bytes if need be, then etcdctl alarm disarm",
			strings.Join(st.Alarms, ", "))}
	}
	var fullest store.MemberStatus
	share := -1.0
	for _, m := range st.Members {
		if m.Err == nil && m.Quota > 0 && float64(m.DbSize)/float64(m.Quota) > share {
			fullest, share = m, float64(m.DbSize)/float64(m.Quota)
		}
	}
	if share < 0 {
		return Finding{Skip, "etcd room", "no member tells its quota"}
	}
	line := fmt.Sprintf("the fullest member, %s, has %.1f MB of its %.1f MB quota (%.0f%%), %.1f MB of it in use",
		fullest.Name, float64(fullest.DbSize)/1e6, float64(fullest.Quota)/1e6, 100*share, float64(fullest.DbSizeInUse)/1e6)
	if share >= quotaWarn {
		return Finding{Warn, "etcd room", line + "; at the quota the cluster takes no write: run pbemd compact, or raise --quota-backend-bytes"}
	}
	return Finding{OK, "etcd room", line}
}

// etcdStore checks that the prefix holds a pbemd store this pbemd
// reads, opening it read-only, and tells which node serves it.
func (d *doctor) etcdStore(st store.ClusterStatus, err error) Finding {
	if err != nil {
		return Finding{Skip, "store", "the cluster does not answer"}
	}
	where := d.cfg.Store
	if st.Buckets == 0 {
		return Finding{Warn, "store", "nothing under " + where + " yet; pbemd serve makes an empty store, pbemd migrate or restore fills it"}
	}
	db, err := d.cfg.OpenStore(&store.Options{ReadOnly: true})
	if err != nil {
		if errors.Is(err, store.ErrNotStore) {
			err = fmt.Errorf("%w; is the prefix another program's? name a prefix of pbemd's own", err)
		}
		return Finding{Fail, "store", err.Error()}
	}
	db.Close()
	serving := "no node serves it (pbemd serve is stopped)"
	if st.Leader != "" {
		serving = "node " + st.Leader + " serves it"
	}
	return Finding{OK, "store", fmt.Sprintf("%s: a pbemd store this pbemd reads; %s", db.Path(), serving)}
}

// list is the items joined, or "none".
func list(items []string) string {
	if len(items) == 0 {
		return "none"
	}
	return strings.Join(items, ", ")
}
