package store

// PagesWritten returns how many pages the commits since Open have written
// (a record larger than a page counts all its pages), not counting the
// meta page each commit writes, for measuring the write amplification of
// a change. A store that is no file has none.
func (db *DB) PagesWritten() int64 {
	if db.bolt == nil {
		return 0 // no pages of ours: etcd's
	}
	st := db.bolt.Stats()
	return st.TxStats.GetPageCount()
}
