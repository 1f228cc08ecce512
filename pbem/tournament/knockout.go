package tournament

func (s *State) nextKnockout() ([]Game, error) { return nil, errLater }

func (s *State) knockoutWinner() (string, bool) { return "", false }

func (s *State) knockoutDecided(i int) {}

func (s *State) roundsReached() map[string]int { return nil }
