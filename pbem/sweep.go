package pbem

import (
	"time"

	"github.com/pbemd/pbemd/store"
)

// keepProcessed is how long the keys of handled mails are kept. A mail
// delivered again after that is handled again; moves are still safe from
// replays by their "#n" and by the turn order.
const keepProcessed = 90 * 24 * time.Hour

// Sweep does the periodic work due at now: it forgets the keys of mails
// handled long ago. The daemon runs it hourly; "pbemd sweep" runs it by hand.
func (s *Service) Sweep(now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.db.Update(func(tx *store.Tx) error {
		n, err := tx.PruneProcessed(now.Add(-keepProcessed))
		if n > 0 {
			s.log.Info("sweep: forgot old mail keys", "count", n)
		}
		return err
	})
}
