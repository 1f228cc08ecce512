package tobit

// A searcher counts move sequences on its own board with make and unmake,
// one preallocated move buffer per ply, so that counting allocates nothing
// once it has started.
type searcher struct {
	b     board
	moves [][]move
	keys  []key // positions since the last irreversible move of the game, then one a ply
	since []int // since[ply]: keys from this index may repeat at ply
}

func newSearcher(p *position, depth int) *searcher {
	s := &searcher{
		b:     p.b,
		moves: make([][]move, depth),
		keys:  make([]key, 0, len(p.history)-p.since+depth),
		since: make([]int, depth+1),
	}
	for i := range s.moves {
		s.moves[i] = make([]move, 0, 64)
	}
	s.keys = append(s.keys, p.history[p.since:]...)
	return s
}

// perft counts the sequences of depth moves (depth >= 1) from the board,
// which is not a drawn position. The last ply's moves are counted, not made.
func (s *searcher) perft(ply, depth int) uint64 {
	ms := s.b.generate(s.moves[ply][:0])
	s.moves[ply] = ms
	if depth == 1 {
		return uint64(len(ms))
	}
	var n uint64
	for i := range ms {
		m := &ms[i]
		since := s.since[ply]
		if !s.b.isReversible(m) {
			since = len(s.keys)
		}
		s.b.makeMove(m)
		s.keys = append(s.keys, s.b.key)
		s.since[ply+1] = since
		if !s.repeated(since) {
			n += s.perft(ply+1, depth-1)
		}
		s.keys = s.keys[:len(s.keys)-1]
		s.b.unmakeMove(m)
	}
	return n
}

// repeated reports whether the last key stands for the third time since
// index since. Only positions with the same side to move can match, so
// every other key is skipped.
func (s *searcher) repeated(since int) bool {
	last := len(s.keys) - 1
	k := s.keys[last]
	n := 1
	for i := last - 2; i >= since; i -= 2 {
		if s.keys[i] == k {
			n++
			if n == 3 {
				return true
			}
		}
	}
	return false
}
