package store

import bolt "go.etcd.io/bbolt"

// A readAhead bucket reads many keys in one request, so that the Gets of
// them after cost nothing: the etcd engine, where each Get is a round
// trip to the cluster. bbolt reads its own file and has no need of it.
type readAhead interface {
	readAhead(keys [][]byte)
}

// ReadAheadProcessed reads at once what Processed will ask of each key:
// a batch of mails checks them all in one request instead of two each.
// Errors are those of the reads that follow.
func (tx *Tx) ReadAheadProcessed(keys []string) {
	b, ok := tx.bucket(bucketProcessed).(readAhead)
	if !ok {
		return
	}
	var ks [][]byte
	for _, key := range keys {
		ks = append(ks, processedKey(key))
		if key != "" && len(key) <= bolt.MaxKeySize {
			ks = append(ks, []byte(key)) // the form of earlier versions
		}
	}
	b.readAhead(ks)
}
