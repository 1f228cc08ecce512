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
	n := 0
	prefix := []byte(strings.ToLower(user) + "\x00")
	walk(tx.bucket(bucketSeats), prefix, false, Page{Size: math.MaxInt}, nil, func(_, _ []byte) { n++ })
	return n
}
