package store

// PagesWritten returns how many pages the commits since Open have written
// (a record larger than a page counts all its pages), not counting the
// meta page each commit writes, for measuring the write amplification of
// a change.
func (db *DB) PagesWritten() int64 {
	st := db.bolt.Stats()
	return st.TxStats.GetPageCount()
}
