package intake

import (
	"errors"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/store/etcdtest"
)

// A mail that comes while the store's etcd cluster is down is tried again
// later (451 over LMTP, exit 75 from deliver), never answered nor set
// aside, however often it comes: the store is out, not the mail.
func TestEtcdDownMailWaits(t *testing.T) {
	t.Parallel()
	addr, stop := etcdtest.Start(t)
	db, err := store.OpenEtcd(&store.EtcdConfig{Endpoints: []string{addr}, Timeout: 500 * time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := pbem.New(db, pbem.Config{Address: "pbem@example.org", Log: quiet})
	stop()
	in := New(svc, Options{Logger: quiet, Tries: 2, RetryMin: time.Second, RetryMax: time.Minute})
	// A forged sender changes nothing.
	raw := []byte("From: admin@pbem.example.org\r\nTo: pbem@example.org\r\nSubject: help\r\nMessage-ID: <down@example.org>\r\n\r\n")
	for try := range 3 {
		v := in.Take([]Mail{{Raw: raw}}, Apart)[0]
		if v.Kind != Retry || !errors.Is(v.Err, store.ErrUnreachable) {
			t.Fatalf("try %d with etcd down: %s (%v); want retry for the unreachable store", try+1, v.Kind, v.Err)
		}
	}
}
