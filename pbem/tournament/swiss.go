package tournament

func (s *State) nextSwiss() ([]Game, error) { return nil, errLater }
