package store

import (
	"os"
	"testing"

	"github.com/pbemd/pbemd/store/etcdtest"
)

// TestMain lets this test binary be the members of an
// etcdtest.StartCluster.
func TestMain(m *testing.M) {
	etcdtest.MemberMain()
	os.Exit(m.Run())
}
