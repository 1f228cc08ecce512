package board

import (
	"slices"
	"strings"
)

// What a board's lists tell of it, from its seats and notes alone: a list
// reads the heads of its boards (store.GameHead), not their records.

// InvitedIn returns the players a board's notes (its record's Extra) name
// as invited who have not accepted yet.
func InvitedIn(extra map[string]string) []string { return strings.Fields(extra[PendingKey]) }

// OpenIn reports whether a board of these seats and notes still waits for
// a player to take a seat, or for an invited player to accept.
func OpenIn(seats []string, extra map[string]string) bool {
	return extra[PendingKey] != "" || slices.Contains(seats, "")
}

// NameAt is the user id of the seat, "?" when nobody holds it.
func NameAt(seats []string, seat int) string {
	if seat < 0 || seat >= len(seats) {
		return "?"
	}
	return Name(seats[seat])
}
