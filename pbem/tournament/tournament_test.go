package tournament

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func TestParseKind(t *testing.T) {
	for word, want := range map[string]Kind{"roundrobin": RoundRobin, "RR": RoundRobin, "swiss": Swiss,
		"Knockout": Knockout, "ko": Knockout, "ladder": Ladder, " league ": League} {
		if k, err := ParseKind(word); err != nil || k != want {
			t.Errorf("ParseKind(%q) = %v, %v; want %v", word, k, err, want)
		}
	}
	for _, word := range []string{"", "round robin", "cup", strings.Repeat("x", 500)} {
		k, err := ParseKind(word)
		if err == nil || !contains(err.Error(), "expected roundrobin (rr), swiss") || len(err.Error()) > 200 {
			t.Errorf("ParseKind(%q) = %v, %v", word, k, err)
		}
	}
}

func TestSettingsCheck(t *testing.T) {
	good := []Settings{{Kind: RoundRobin}, {Kind: RoundRobin, GroupSize: 2}, {Kind: Swiss, Rounds: 9},
		{Kind: Knockout, DrawRule: HigherSeed}, {Kind: Ladder, Reach: 3},
		{Kind: League, DivisionSize: 10, Promote: 2}, {Kind: League, DivisionSize: 2, Promote: 1, Seasons: 100}}
	for _, st := range good {
		if err := st.Check(); err != nil {
			t.Errorf("%+v: %v", st, err)
		}
	}
	bad := map[string]Settings{
		"none of roundrobin":               {},
		"round robin group is from 2 to":   {Kind: RoundRobin, GroupSize: 1},
		"a Swiss is from 1 to 64 rounds":   {Kind: Swiss, Rounds: 65},
		"replay or seed, not rule 7":       {Kind: Knockout, DrawRule: 7},
		"reach is from 1 to":               {Kind: Ladder},
		"division is from 2 to 64 players": {Kind: League, DivisionSize: 1000},
		"promotes from 0 to half":          {Kind: League, DivisionSize: 4, Promote: 3},
		"1 to 100 seasons":                 {Kind: League, DivisionSize: 4, Seasons: -1},
	}
	for want, st := range bad {
		if _, err := New(st); err == nil || !contains(err.Error(), want) {
			t.Errorf("New(%+v) = %v, want %q", st, err, want)
		}
	}
}

func TestJoinRefuses(t *testing.T) {
	s, _ := New(Settings{Kind: Swiss, Rounds: 3})
	for id, want := range map[string]string{"": "not a player", "a b": "not a player",
		strings.Repeat("x", 65): "without spaces"} {
		if err := s.Join(Entrant{ID: id}); err == nil || !contains(err.Error(), want) {
			t.Errorf("Join(%q) = %v", id, err)
		}
	}
	if err := s.Join(Entrant{ID: "ann"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Join(Entrant{ID: "ann", Rating: 3000}); err == nil || !contains(err.Error(), "already joined") {
		t.Errorf("a second join: %v", err)
	}
	if err := s.Start(); err == nil || !contains(err.Error(), "at least 2 players") {
		t.Errorf("Start with one: %v", err)
	}
	s.Join(Entrant{ID: "bob"})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if err := s.Join(Entrant{ID: "cy"}); err == nil || !contains(err.Error(), "takes no new players") {
		t.Errorf("join after the start: %v", err)
	}
	for range MaxEntrants {
		s.Entrants = append(s.Entrants, Entrant{ID: "x"})
	}
	s.Started = false
	if err := s.Join(Entrant{ID: "cy"}); err == nil || !contains(err.Error(), "at most 2048") {
		t.Errorf("join past the bound: %v", err)
	}
}

// TestStateJSON: a state stored as JSON and read back is the same state,
// and pairs the same next round.
func TestStateJSON(t *testing.T) {
	s, _ := New(Settings{Kind: RoundRobin, GroupSize: 5, Double: true})
	entrants(s, 9)
	s.Start()
	games, _ := s.NextRound()
	s.Record(1, games[0].White, games[0].Black, Draw)
	s.Withdraw(games[1].Black)
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !contains(string(b), `"Kind":"roundrobin"`) {
		t.Errorf("the kind is stored as %s", b)
	}
	var back State
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*s, back) {
		t.Fatalf("read back:\n%+v\nwant\n%+v", back, *s)
	}
	var bad State
	if err := json.Unmarshal([]byte(`{"Settings":{"Kind":"chess"}}`), &bad); err == nil {
		t.Error("an unknown kind was read")
	}
}

func TestSetBoard(t *testing.T) {
	s, _ := New(Settings{Kind: RoundRobin})
	entrants(s, 3)
	s.Start()
	g := must(s.NextRound())[0]
	if err := s.SetBoard(1, g.Black, g.White, 7); err == nil {
		t.Error("a board set for a game that is not there")
	}
	if err := s.SetBoard(1, g.White, g.Black, 7); err != nil {
		t.Fatal(err)
	}
	if got, ok := s.ByBoard(7); !ok || got.White != g.White || got.Board != 7 {
		t.Errorf("ByBoard(7) = %+v, %v", got, ok)
	}
	if _, ok := s.ByBoard(0); ok {
		t.Error("ByBoard(0) found a game without a board")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestSeedsByRating: seeds follow ratings, the extremes too, and equal
// ratings go by ID whatever the order of joining.
func TestSeedsByRating(t *testing.T) {
	s, _ := New(Settings{Kind: Knockout})
	for _, e := range []Entrant{{ID: "low", Rating: math.MinInt}, {ID: "zed", Rating: 1500},
		{ID: "high", Rating: math.MaxInt}, {ID: "amy", Rating: 1500}} {
		s.Join(e)
	}
	s.Start()
	want := map[string]int{"high": 1, "amy": 2, "zed": 3, "low": 4}
	for _, e := range s.Entrants {
		if e.Seed != want[e.ID] {
			t.Errorf("%s seeded %d, want %d", e.ID, e.Seed, want[e.ID])
		}
	}
}
