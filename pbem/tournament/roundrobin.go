package tournament

import (
	"errors"
	"slices"
)

// snake deals the players (best first) into groups of at most size, in
// serpentine order (1 2 3 3 2 1 ...), so that the groups are of equal
// strength and their sizes differ by at most one. It returns the number
// of groups.
func snake(s *State, order []int, size int) int {
	groups := (len(order) + size - 1) / size
	for i, k := range order {
		g := i % groups
		if (i/groups)%2 == 1 {
			g = groups - 1 - g
		}
		s.Entrants[k].Group = g + 1
	}
	return groups
}

// divide cuts the players, in order, into divisions of size from the
// top, the last taking the rest; when that would leave the last with
// fewer than half of size, the last two share their players equally
// (the larger first). It returns the number of divisions.
func divide(s *State, order []int, size int) int {
	sizes := make([]int, (len(order)+size-1)/size)
	for g := range sizes {
		sizes[g] = min(size, len(order)-g*size)
	}
	if n := len(sizes); n >= 2 && 2*sizes[n-1] < size {
		both := sizes[n-2] + sizes[n-1]
		sizes[n-2], sizes[n-1] = (both+1)/2, both/2
	}
	at := 0
	for g, n := range sizes {
		for _, k := range order[at : at+n] {
			s.Entrants[k].Group = g + 1
		}
		at += n
	}
	return len(sizes)
}

// members is the indexes of the entrants of the group, by seed.
func (s *State) members(group int) []int {
	var m []int
	for k, e := range s.Entrants {
		if e.Group == group {
			m = append(m, k)
		}
	}
	slices.SortFunc(m, func(a, b int) int { return s.Entrants[a].Seed - s.Entrants[b].Seed })
	return m
}

// cycle is the number of rounds in which n players each meet all others
// once.
func cycle(n int) int {
	if n%2 == 1 {
		return n
	}
	return n - 1
}

// roundRobinRounds is the number of rounds of the round robin (of the
// league's season): those of its largest group, twice when double.
func (s *State) roundRobinRounds() int {
	sizes := make(map[int]int)
	for _, e := range s.Entrants {
		if e.Group > 0 {
			sizes[e.Group]++
		}
	}
	most := 0
	for _, n := range sizes {
		most = max(most, cycle(n))
	}
	if s.Settings.Double {
		most *= 2
	}
	return most
}

func (s *State) nextRoundRobin() ([]Game, error) {
	if s.Round >= s.roundRobinRounds() {
		return nil, errors.New("every round of the round robin has been paired")
	}
	s.Round++
	var games []Game
	for g := 1; g <= s.Groups; g++ {
		m := s.members(g)
		for _, p := range berger(len(m), s.Round, s.Settings.Double) {
			games = append(games, Game{Season: s.Season, Round: s.Round, Group: g,
				White: s.Entrants[m[p[0]]].ID, Black: s.Entrants[m[p[1]]].ID})
		}
	}
	return games, nil
}

// berger is round r (from 1) of the round robin of n players by the
// circle method: pairs of places in the group's order, White first.
// Over a cycle each pair meets once, and each player's Whites and Blacks
// differ by at most one; a double round robin plays the cycle again with
// colours swapped. With n odd, the player who would meet place n sits
// out.
func berger(n, r int, double bool) [][2]int {
	m := n + n%2 // with a phantom place n-1 when odd
	rounds := m - 1
	if r < 1 || r > rounds*2 || r > rounds && !double {
		return nil
	}
	swap := r > rounds
	r = (r - 1) % rounds
	var pairs [][2]int
	// The last place stays; the others turn round it.
	a, b := r, m-1
	if r%2 == 1 {
		a, b = b, a
	}
	pairs = append(pairs, [2]int{a, b})
	for k := 1; k < m/2; k++ {
		a, b := (r+k)%rounds, (r-k+rounds)%rounds
		if k%2 == 1 {
			a, b = b, a
		}
		pairs = append(pairs, [2]int{a, b})
	}
	out := pairs[:0]
	for _, p := range pairs {
		if p[0] >= n || p[1] >= n {
			continue // the phantom: a rest
		}
		if swap {
			p[0], p[1] = p[1], p[0]
		}
		out = append(out, p)
	}
	return out
}
