package board

import "github.com/pbemd/pbemd/store"

// Seeker is the one seated player of a board waiting for anyone to take
// its open seat (a seek, a challenge's "?"): its first seat taken; "" when
// none is.
func Seeker(rec *store.Game) string {
	for _, id := range rec.Seats {
		if id != "" {
			return id
		}
	}
	return ""
}
