package store

// Unsynced runs fill with commits that skip the disk sync, then syncs the
// file once: for a job that writes a new store in many commits, such as
// "pbemd populate", where a sync a commit costs more than the writes.
// A crash during fill can leave the file torn, not merely behind: such a
// job must start again on a new store. Other writers meanwhile lose their
// sync too, so it is for stores no daemon serves. On etcd, whose commits
// are the cluster's, it only runs fill.
func (db *DB) Unsynced(fill func() error) error {
	if db.bolt == nil || db.bolt.NoSync {
		return fill()
	}
	db.bolt.NoSync = true
	err := fill()
	db.bolt.NoSync = false
	if serr := db.bolt.Sync(); err == nil {
		err = serr
	}
	return err
}
