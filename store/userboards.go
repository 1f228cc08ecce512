package store

import (
	"math"
	"strings"
)

// CountUserBoards counts the boards where the user, in any case, holds a
// seat, finished ones included. It counts the seat index's keys and
// reads no record: a player's page tells how many boards he has and
// reads only the page of them it shows.
func (tx *Tx) CountUserBoards(user string) int {
	if user == "" {
		return 0
	}
	return countPrefix(tx.bucket(bucketSeats), []byte(strings.ToLower(user)+"\x00"))
}

// countPrefix counts the keys of b that begin with prefix, reading no
// value.
func countPrefix(b bucket, prefix []byte) int {
	n := 0
	walk(b, prefix, false, Page{Size: math.MaxInt}, nil, func(_, _ []byte) { n++ })
	return n
}
