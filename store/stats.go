package store

// PagesWritten returns how many pages the commits since Open have written,
// for measuring the write amplification of a change.
func (db *DB) PagesWritten() int64 {
	st := db.bolt.Stats()
	return st.TxStats.GetWrite()
}
