package daemon

import (
	"context"
	"log/slog"
	"time"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/metrics"
	"github.com/pbemd/pbemd/store"
)

// compactOnSchedule runs the leader's compaction of a store in etcd as
// the configuration's etcd: section says, until ctx ends, logging and
// counting each; on bbolt, or with compact_every negative, it does
// nothing.
func compactOnSchedule(ctx context.Context, db *store.DB, cfg config.Etcd, m *metrics.Metrics, log *slog.Logger) {
	every, keep := cfg.Compaction()
	if every < 0 {
		return
	}
	log = log.With("part", "compaction")
	db.CompactOnSchedule(ctx, store.CompactSchedule{Every: every, Keep: keep, Done: func(st store.ClusterCompactStats, err error) {
		if err != nil {
			m.Errors.Inc()
			log.Warn("compacting the etcd cluster failed; trying again later", "err", err, "in", keep)
			return
		}
		m.Compactions.Inc()
		for _, d := range st.Members {
			log.Info("etcd member defragmented", "member", d.Endpoint, "bytes_before", d.Before, "bytes_after", d.After,
				"took", d.Ended.Sub(d.Began).Round(time.Millisecond))
		}
		log.Info("etcd cluster compacted", "history_before_revision", st.Revision, "bytes_before", st.Before,
			"bytes_after", st.After, "members", len(st.Members), "took", st.Took.Round(time.Millisecond))
	}})
}
