package rules

// A Move is one legal move as a Mover numbers it. It means something only
// to the position whose Moves listed it, or to a copy of that position.
type Move int32

// Mover is an optional interface of a Position, for searches and random
// playouts, which play millions of moves that no one reads: moves as
// numbers rather than notation, played in place, and copies into memory
// the caller keeps rather than new positions. Robots and benchmarks find it
// with a type assertion; a game without it is played through Legal, Play
// and Clone, which it must agree with move for move.
type Mover interface {
	Position
	// Moves appends the legal moves of the side to move to dst, in any
	// order, and returns the extended slice: the moves Legal lists,
	// numbered so that sorted by number they are in Legal's order. (A
	// random playout takes them as they come; a search that must see them
	// in Legal's order sorts them.)
	Moves(dst []Move) []Move
	// MoveText is m in the notation Legal lists it in.
	MoveText(m Move) string
	// Apply plays m, one of the moves Moves lists for the position as it
	// is, like Play of its text but without notation. It returns the number
	// of points or pieces the move captured, as Play's steps would name
	// them.
	Apply(m Move) (captured int)
	// CopyInto makes dst the same position as this one, reusing dst's
	// memory: a copy that allocates nothing once dst has grown to the size
	// it needs. dst must be a position of the same game, such as a Clone of
	// this one; any other is a programming error, and panics.
	CopyInto(dst Position)
}
