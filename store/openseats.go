package store

import (
	"bytes"
	"strings"
)

// SeekingBoards returns up to most of the boards of kind, not over and
// with a seat open, where the user holds a seat (the seeks he waits on),
// by board number. It walks the user's keys of the playing index (his
// boards in play, which his limit bounds) and seeks each in the
// open-boards index: its cost does not follow his finished games, as a
// walk of the seat index with a filter would.
func (tx *Tx) SeekingBoards(user, kind string, most int) []GameRef {
	playing, open := tx.index(bucketPlaying), tx.index(bucketOpen)
	if playing == nil || open == nil || user == "" {
		return nil
	}
	prefix := []byte(strings.ToLower(user) + "\x00" + kind + "\x00")
	// Seek, not Get: the keys have empty values, and Get reports an empty
	// value written in this transaction as no key.
	find := open.Cursor()
	var refs []GameRef
	walk(playing, prefix, false, Page{Size: most}, func(k, _ []byte) bool {
		key := k[len(prefix)-len(kind)-1:] // kind \0 board, the open-boards key
		found, _ := find.Seek(key)
		return bytes.Equal(found, key)
	}, func(k, _ []byte) {
		if ref, ok := refOfGameKey(k[len(prefix)-len(kind)-1:]); ok {
			refs = append(refs, ref)
		}
	})
	return refs
}
