package tournament

func (s *State) nextLeague() ([]Game, error) { return s.nextRoundRobin() }
