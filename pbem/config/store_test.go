package config

import (
	"strings"
	"testing"
	"time"
)

// The schedule of the leader's etcd compaction: the defaults, off, and
// the settings refused with what would be right.
func TestEtcdCompaction(t *testing.T) {
	t.Parallel()
	const etcd = "store: etcd://127.0.0.1:2379/pbemd\n"
	for _, c := range []struct {
		name, yaml  string
		every, keep time.Duration
		wantErr     string
	}{
		{"defaults", etcd, 24 * time.Hour, time.Hour, ""},
		{"zeros are the defaults", etcd + "etcd:\n  compact_every: 0s\n  keep_history: 0s\n", 24 * time.Hour, time.Hour, ""},
		{"hourly keeping ten minutes", etcd + "etcd:\n  compact_every: 1h\n  keep_history: 10m\n", time.Hour, 10 * time.Minute, ""},
		{"off", etcd + "etcd:\n  compact_every: -1s\n", -time.Second, time.Hour, ""},
		{"too often", etcd + "etcd:\n  compact_every: 10s\n", 0, 0, "etcd.compact_every is 10s; want at least 1m"},
		{"keeps more than the interval", etcd + "etcd:\n  compact_every: 1h\n  keep_history: 2h\n", 0, 0, "etcd.keep_history is 2h0m0s; want at least 1m and at most etcd.compact_every (1h0m0s)"},
		{"keeps too little", etcd + "etcd:\n  keep_history: 1s\n", 0, 0, "etcd.keep_history is 1s"},
		{"bbolt does not check it", "etcd:\n  compact_every: 1s\n", time.Second, time.Hour, ""},
	} {
		cfg, err := Parse([]byte(minimal+c.yaml), secrets)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s: %v; want an error saying %q", c.name, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if every, keep := cfg.Etcd.Compaction(); every != c.every || keep != c.keep {
			t.Errorf("%s: every %v keeping %v; want %v keeping %v", c.name, every, keep, c.every, c.keep)
		}
	}
}
