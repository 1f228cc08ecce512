package pbem

import (
	"fmt"

	"github.com/pbemd/pbemd/store"
)

// Release takes the mail with the id out of the store's quarantine and
// handles it again, as if it had just arrived (pbemd admin quarantine
// release, once what failed on it is mended). When it fails again it goes
// back into quarantine. It returns the outbox ids of its replies.
func (s *Service) Release(id uint64) ([]uint64, error) {
	var q *store.Quarantined
	err := s.db.Update(func(tx *store.Tx) error {
		var err error
		if q, err = tx.Unquarantine(id); err != nil {
			return err
		}
		if q.Kind == store.TooLarge {
			return fmt.Errorf("quarantined mail %d had %d bytes, more than the largest read, and only its header was kept; it cannot be handled again: drop it", id, q.Size)
		}
		if len(q.Data) == 0 {
			return fmt.Errorf("quarantined mail %d was kept without its text; it cannot be handled again", id)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	ids, err := s.Handle(q.Data)
	if err != nil {
		q.Why = "released, and failed again: " + err.Error()
		if qerr := s.db.Update(func(tx *store.Tx) error { return tx.Quarantine(q) }); qerr != nil {
			return nil, fmt.Errorf("%v; putting it back into quarantine failed: %w", err, qerr)
		}
		return nil, fmt.Errorf("it failed again and is back in quarantine as mail %d: %w", q.ID, err)
	}
	return ids, nil
}

// DropQuarantined removes the mail with the id from quarantine unhandled.
func (s *Service) DropQuarantined(id uint64) error {
	return s.db.Update(func(tx *store.Tx) error {
		_, err := tx.Unquarantine(id)
		return err
	})
}
