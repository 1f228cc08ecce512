package admin

import (
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/store"
)

// pausedMark says, after an address of "pbemd admin user", that board
// mail to it is paused after its bounces, and since when.
func pausedMark(tx *store.Tx, addr string, now time.Time) string {
	if since, ok := pbem.PausedSince(tx, addr, now); ok {
		return " (paused since " + when(since) + ": its mail bounced)"
	}
	return ""
}
