package config

import "testing"

// The tournaments' bounds come from the file to the service, and one
// over what a tournament can pair is refused.
func TestTournamentLimits(t *testing.T) {
	t.Parallel()
	c, err := Parse([]byte(minimal+"limits:\n  tournament_entrants: 64\n  tournaments: 2\n"), secrets)
	if err != nil {
		t.Fatal(err)
	}
	if l := c.Limits.Service(); l.TournamentEntrants != 64 || l.Tournaments != 2 {
		t.Errorf("limits %d entrants, %d tournaments; want 64 and 2", l.TournamentEntrants, l.Tournaments)
	}
	if l := Default().Limits.Service(); l.TournamentEntrants != 1000 || l.Tournaments != 5 {
		t.Errorf("default limits %d entrants, %d tournaments; want 1000 and 5", l.TournamentEntrants, l.Tournaments)
	}
	_, err = Parse([]byte(minimal+"limits:\n  tournament_entrants: 5000\n"), secrets)
	if err == nil || err.Error() != "limits.tournament_entrants is 5000; want at most 2048, the most a tournament pairs" {
		t.Errorf("5000 entrants: %v", err)
	}
}
