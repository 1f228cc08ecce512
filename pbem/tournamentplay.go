package pbem

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/clock"
	"github.com/pbemd/pbemd/pbem/tournament"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// Keys of a tournament board's Extra: the tournament, its round (and a
// league's season), and the policies it was made with. The tournament's
// Extra holds the policies and the clock, copied into each board's.
const (
	tournamentKey = "tournament"
	roundKey      = "round"
	seasonKey     = "season"
	unratedKey    = "unrated"    // the board is not rated
	noVacationKey = "novacation" // vacations do not stop the board's clock
)

// A tourney is a tournament as the service works on it: its record and
// its pairing state, decoded.
type tourney struct {
	rec *store.Tournament
	st  *tournament.State
}

// loadTournament reads a tournament by its name, refusing a name that
// names none.
func (r *request) loadTournament(name string) (*tourney, error) {
	rec, err := r.tx.Tournament(name)
	if errNotFound(err) {
		f := fail("There is no tournament %q; \"tournament list\" names them", name)
		f.forms = []string{"tournament list [page N]"}
		return nil, f
	}
	var t *tourney
	if err == nil {
		t, err = decodeTourney(rec)
	}
	if errors.Is(err, store.ErrCorrupt) {
		r.s.log.Error("tournament: its record does not decode", "tournament", name, "err", err)
		f := fail("Tournament %s cannot be read at present (its record is damaged; the operator sees it in the log); \"tournament list\" names the others", name)
		f.forms = []string{"tournament list [page N]"}
		return nil, f
	}
	return t, err
}

// decodeTourney decodes the pairing state of a tournament's record.
func decodeTourney(rec *store.Tournament) (*tourney, error) {
	st := &tournament.State{}
	if err := json.Unmarshal(rec.State, st); err != nil {
		return nil, fmt.Errorf("tournament %s: %w: %w", rec.Name, store.ErrCorrupt, err)
	}
	return &tourney{rec: rec, st: st}, nil
}

// A TournamentView is a tournament as the web view shows it: its record,
// its pairing state and the line that describes it, as "tournament show"
// has them.
type TournamentView struct {
	Rec   *store.Tournament
	State *tournament.State
	About string
}

// ReadTournament reads the tournament of the name, one record; an error
// wrapping store.ErrNotFound when there is none.
func ReadTournament(tx *store.Tx, name string) (*TournamentView, error) {
	rec, err := tx.Tournament(name)
	if err != nil {
		return nil, err
	}
	t, err := decodeTourney(rec)
	if err != nil {
		return nil, err
	}
	return &TournamentView{Rec: rec, State: t.st, About: t.describe()}, nil
}

// saveTournament stores the tournament with its state.
func (r *request) saveTournament(t *tourney) error {
	data, err := json.Marshal(t.st)
	if err != nil {
		return err
	}
	t.rec.State = data
	t.rec.Updated = r.now
	t.rec.Round = t.st.Round
	t.rec.Entrants = len(t.st.Entrants)
	return r.tx.PutTournament(t.rec)
}

// describe is the tournament in a line: game, kind, options, policies.
func (t *tourney) describe() string {
	s := t.st.Settings
	parts := []string{t.rec.Game, kindTitle(s.Kind)}
	if g, ok := catalog.Lookup(t.rec.Game); ok {
		parts[0] = g.Title()
	}
	switch s.Kind {
	case tournament.RoundRobin:
		if s.GroupSize > 0 {
			parts = append(parts, fmt.Sprintf("groups of %d", s.GroupSize))
		}
	case tournament.Swiss:
		parts = append(parts, fmt.Sprintf("%d rounds", s.Rounds))
	case tournament.Knockout:
		parts = append(parts, "a draw decided by "+map[tournament.DrawRule]string{tournament.Replay: "a replay", tournament.HigherSeed: "the higher seed"}[s.DrawRule])
	case tournament.Ladder:
		parts = append(parts, fmt.Sprintf("challenges up to %d places above", s.Reach))
	case tournament.League:
		seasons := "seasons without end"
		if s.Seasons > 0 {
			seasons = fmt.Sprintf("%d seasons", s.Seasons)
		}
		parts = append(parts, fmt.Sprintf("divisions of %d, %d promoted and relegated, %s", s.DivisionSize, s.Promote, seasons))
	}
	if s.Double && (s.Kind == tournament.RoundRobin || s.Kind == tournament.League) {
		parts = append(parts, "each pair twice")
	}
	if len(t.rec.Options) > 0 {
		parts = append(parts, "options "+strings.Join(t.rec.Options, " "))
	}
	if c := boardClock(&store.Game{Extra: t.rec.Extra}); c != (clock.Clock{}) {
		parts = append(parts, "clock "+c.Describe())
	} else {
		d := model.ParseDays(t.rec.Extra)
		parts = append(parts, fmt.Sprintf("a reminder after %d days, forfeit after %d", d.Nag, d.Forfeit))
	}
	if t.rec.Extra[unratedKey] != "" {
		parts = append(parts, "not rated")
	} else {
		parts = append(parts, "rated")
	}
	if t.rec.Extra[noVacationKey] != "" {
		parts = append(parts, "vacations do not stop its clocks")
	} else {
		parts = append(parts, "vacations stop its clocks")
	}
	return strings.Join(parts, ", ")
}

// kindTitle is a kind as a sentence names it.
func kindTitle(k tournament.Kind) string {
	return map[tournament.Kind]string{tournament.RoundRobin: "round robin", tournament.Swiss: "Swiss",
		tournament.Knockout: "knockout", tournament.Ladder: "ladder", tournament.League: "league"}[k]
}

// startText says when an open tournament starts.
func (t *tourney) startText() string {
	if !t.rec.StartAt.IsZero() {
		return "It starts by itself at " + t.rec.StartAt.UTC().Format(timeFormat) + "."
	}
	return fmt.Sprintf("Its organiser %s starts it with:\n  tournament start %s %s PASSWORD", t.rec.Organiser, t.rec.Name, t.rec.Organiser)
}

// startTournament seats the players and pairs the first round (a
// ladder waits for its first challenge).
func (r *request) startTournament(t *tourney) error {
	if err := t.st.Start(); err != nil {
		return fail("%s", asSentence(err))
	}
	t.rec.Phase = store.TournamentRunning
	if err := r.mailEntrants(t, fmt.Sprintf("Tournament %s started", t.rec.Name),
		fmt.Sprintf("The tournament %s (%s) has started with %d players. Each game comes in a board mail of its own.\n", t.rec.Name, t.describe(), len(t.st.Entrants))); err != nil {
		return err
	}
	return r.advance(t)
}

// advance makes the boards of the games paired and not yet made, pairs
// the next round when the one in play is over (after mailing the
// standings), and ends the tournament when it is done. It saves the
// tournament: its change commits with its boards.
func (r *request) advance(t *tourney) error {
	// Each pass pairs a round; a round may come all decided (byes, the
	// forfeits of withdrawn players), so a few may pass at once, never
	// more than the rounds a tournament has.
	for range tournament.MaxRounds * 2 {
		if err := r.withdrawGone(t); err != nil {
			return err
		}
		if err := r.makeBoards(t); err != nil {
			return err
		}
		if len(t.st.Pending()) > 0 || t.st.Settings.Kind == tournament.Ladder {
			break
		}
		if t.st.Round > 0 {
			if err := r.mailStandings(t); err != nil {
				return err
			}
		}
		if t.st.Done() {
			t.rec.Phase = store.TournamentOver
			break
		}
		if _, err := t.st.NextRound(); err != nil {
			// A Swiss that cannot be paired without a repeat: the
			// game that ended it stands, the organiser is told, and
			// the tournament waits.
			if err := r.mailUser(t.rec.Organiser, fmt.Sprintf("Tournament %s: round %d not paired", t.rec.Name, t.st.Round+1),
				model.WrapText(fmt.Sprintf("The next round of the tournament %s could not be paired: %s.\n", t.rec.Name, err)), ""); err != nil {
				return err
			}
			break
		}
	}
	return r.saveTournament(t)
}

// withdrawGone withdraws the players paired in games not yet on a board
// whose accounts are gone (signed off): no board waits on nobody.
func (r *request) withdrawGone(t *tourney) error {
	for _, g := range t.st.Pending() {
		if g.Board != 0 || g.Black == "" {
			continue
		}
		for _, id := range []string{g.White, g.Black} {
			if _, err := r.tx.User(id); errNotFound(err) {
				if err := t.st.Withdraw(id); err != nil {
					return fmt.Errorf("tournament %s: withdrawing %s, who has gone: %w", t.rec.Name, id, err)
				}
			} else if err != nil {
				return err
			}
		}
	}
	return nil
}

// makeBoards makes a board for each game paired that has none.
func (r *request) makeBoards(t *tourney) error {
	g, ok := catalog.Lookup(t.rec.Game)
	if !ok {
		return fmt.Errorf("tournament %s: no game %q", t.rec.Name, t.rec.Game)
	}
	opts, err := rules.ParseOptions(g, t.rec.Options)
	if err != nil {
		return fmt.Errorf("tournament %s: %w", t.rec.Name, err)
	}
	for i := range t.st.Games {
		tg := &t.st.Games[i]
		if tg.Board != 0 || tg.Result != tournament.Pending || tg.Black == "" {
			continue
		}
		extra := map[string]string{tournamentKey: t.rec.Name, roundKey: strconv.Itoa(tg.Round)}
		if tg.Season > 0 {
			extra[seasonKey] = strconv.Itoa(tg.Season)
		}
		for k, v := range t.rec.Extra {
			extra[k] = v
		}
		b, err := r.makeBoard(g, opts, []string{tg.White, tg.Black}, extra)
		if err != nil {
			return err
		}
		if err := r.subscribeWatchers(b.rec); err != nil {
			return err
		}
		b.rec.TurnSince = r.now
		tg.Board = b.rec.Board
		sides := g.Sides()
		notice := fmt.Sprintf("A new game: %s (%s) against %s (%s).", tg.White, sides[0], tg.Black, sides[1])
		if err := r.saveAndAnnounce(b, nil, notice); err != nil {
			return err
		}
	}
	return nil
}

// tournamentNotice is the line every mail of a tournament board begins
// with: "Tournament NAME, round R".
func tournamentNotice(rec *store.Game) []string {
	name := rec.Extra[tournamentKey]
	if name == "" {
		return nil
	}
	line := "Tournament " + name + ", round " + rec.Extra[roundKey]
	if s := rec.Extra[seasonKey]; s != "" {
		line = "Tournament " + name + ", season " + s + ", round " + rec.Extra[roundKey]
	}
	return []string{line}
}

// tournamentGameEnded records the result of a tournament board that has
// just ended in its tournament, in the same transaction, and pairs what
// comes next. A result the tournament has already (a withdrawal's
// forfeits) is left as it is.
func (r *request) tournamentGameEnded(b *board) error {
	name := b.rec.Extra[tournamentKey]
	if name == "" {
		return nil
	}
	rec, err := r.tx.Tournament(name)
	var t *tourney
	if err == nil {
		t, err = decodeTourney(rec)
	}
	if errNotFound(err) || errors.Is(err, store.ErrCorrupt) {
		// The game's end stands: a damaged tournament record must not
		// stop its players from finishing their games.
		r.s.log.Error("tournament: a game's result not recorded", "tournament", name, "game", b.rec.Kind, "board", b.rec.Board, "err", err)
		return nil
	}
	if err != nil {
		return err
	}
	round, _ := strconv.Atoi(b.rec.Extra[roundKey])
	season, _ := strconv.Atoi(b.rec.Extra[seasonKey])
	for _, g := range t.st.Games {
		if g.Board == b.rec.Board && g.Round == round && g.Season == season && g.Result != tournament.Pending {
			return nil
		}
	}
	white, black := b.rec.Seats[0], b.rec.Seats[1]
	if err := t.st.Record(round, white, black, boardResult(b.rec)); err != nil {
		// A board the tournament does not know as a game in play: the
		// game's end stands all the same.
		r.s.log.Error("tournament: a game's result not recorded", "tournament", name, "game", b.rec.Kind, "board", b.rec.Board, "err", err)
		return nil
	}
	if err := r.advance(t); err != nil {
		return err
	}
	if t.st.Settings.Kind == tournament.Ladder {
		// A ladder has no round whose end mails the standings: the two
		// players of the challenge are told the ladder it left.
		return r.mailStandings(t, white, black)
	}
	return nil
}

// boardResult is a finished board's result as a tournament counts it: a
// player who withdrew from the board, or ran out of time, forfeits.
func boardResult(rec *store.Game) tournament.Result {
	forfeit := rec.Withdrawn != "" || strings.Contains(rec.EndReason, " did not move for ") || strings.Contains(rec.EndReason, " ran out of time")
	switch {
	case rec.Withdrawn != "" && strings.EqualFold(rec.Withdrawn, rec.Seats[0]):
		return tournament.WhiteForfeits
	case rec.Withdrawn != "":
		return tournament.BlackForfeits
	case rec.Winner == rules.Draw:
		return tournament.Draw
	case rec.Winner == 0 && forfeit:
		return tournament.BlackForfeits
	case rec.Winner == 0:
		return tournament.WhiteWins
	case forfeit:
		return tournament.WhiteForfeits
	}
	return tournament.BlackWins
}

// withdrawBoards ends the boards in play of a player who has withdrawn
// (his games already forfeits in the state), then goes on with the
// tournament.
func (r *request) withdrawBoards(t *tourney, id string) error {
	if err := r.saveTournament(t); err != nil {
		return err
	}
	for _, g := range t.st.Games {
		if g.Board == 0 || g.White != id && g.Black != id {
			continue
		}
		b, err := r.loadBoard(t.rec.Game, g.Board)
		if err != nil {
			return err
		}
		if b.rec.Over {
			continue
		}
		seat := b.seatOf(id)
		b.end(r.now, rules.Win(1-seat, id+" withdrew from the tournament"))
		if err := r.saveAndAnnounce(b, nil, fmt.Sprintf("%s withdrew from the tournament %s and forfeits this game.", id, t.rec.Name)); err != nil {
			return err
		}
	}
	return r.advance(t)
}

// mailEntrants mails every entrant (but robots, who read no mail).
func (r *request) mailEntrants(t *tourney, subject, body string) error {
	for _, e := range t.st.Entrants {
		if _, _, robot := ParseRobotID(e.ID); robot {
			continue
		}
		if err := r.mailUser(e.ID, subject, model.WrapText(body), ""); err != nil {
			return err
		}
	}
	return nil
}

// mailStandings mails the standings after a round to every entrant.
func (r *request) mailStandings(t *tourney, to ...string) error {
	body, err := t.standingsText(r.s.limits.TournamentShown, r.s.tournamentLink(t.rec.Name))
	if err != nil {
		return err
	}
	subject := fmt.Sprintf("Tournament %s standings after round %d", t.rec.Name, t.st.Round)
	if t.st.Season > 0 {
		subject = fmt.Sprintf("Tournament %s standings after season %d, round %d", t.rec.Name, t.st.Season, t.st.Round)
	}
	switch {
	case t.st.Done():
		subject = fmt.Sprintf("Tournament %s final standings", t.rec.Name)
	case t.st.Settings.Kind == tournament.Ladder:
		subject = fmt.Sprintf("Tournament %s ladder after a challenge", t.rec.Name)
	}
	if len(to) == 0 {
		for _, e := range t.st.Entrants {
			to = append(to, e.ID)
		}
	}
	return r.mailPlayers(to, subject, body)
}

// mailPlayers mails the players of the ids, but robots, which read no
// mail.
func (r *request) mailPlayers(ids []string, subject, body string) error {
	for _, id := range ids {
		if _, _, robot := ParseRobotID(id); robot {
			continue
		}
		if err := r.mailUser(id, subject, body, ""); err != nil {
			return err
		}
	}
	return nil
}

// A standingsView is what the standings mail and "tournament show" print.
type standingsView struct {
	Name, About, Phase string
	Winner             string
	Groups             []standingsGroup
	RoundTitle         string
	Rounds             []string // the games of the round in play
	More               int      // players left out of the tables
	Link               string   // the tournament's web page, if the server has one
}

type standingsGroup struct {
	group     int
	Title     string
	TieBreaks string // their names
	Columns   string // their columns' heads
	Rows      []string
}

// tieBreakHeads are the short heads of the tie-breaks' columns.
var tieBreakHeads = map[string]string{
	tournament.SonnebornBerger: "SB",
	tournament.Buchholz:        "Buch",
	tournament.MedianBuchholz:  "MBuch",
	tournament.RoundReached:    "Round",
}

// standingsText renders the tournament's standings, at most most players.
func (t *tourney) standingsText(most int, link string) (string, error) {
	v := standingsView{Name: t.rec.Name, About: t.describe(), Link: link}
	switch {
	case t.rec.Phase == store.TournamentOpen:
		names := make([]string, 0, len(t.st.Entrants))
		for _, e := range t.st.Entrants {
			names = append(names, e.ID)
		}
		v.Phase = fmt.Sprintf("Open for entries, %d players: %s. %s", len(names), strings.Join(names, " "), t.startText())
	case !t.st.Started:
		v.Phase = "The tournament ended before its start."
	case t.st.Done():
		v.Phase = "The tournament is over."
		v.Winner = t.st.Winner()
	case t.st.Settings.Kind == tournament.Ladder:
		v.Phase = fmt.Sprintf("In play: %d challenges so far.", len(t.st.Games))
	default:
		round := fmt.Sprintf("round %d", t.st.Round)
		if t.st.Season > 0 {
			round = fmt.Sprintf("season %d, round %d", t.st.Season, t.st.Round)
		}
		v.Phase = "In play: " + round + "."
		if len(t.st.Pending()) == 0 {
			// The standings mail of a round that has just ended.
			v.Phase = "In play: " + round + " is over, and the next is paired now."
		}
	}
	shown := 0
	var standings []tournament.Standing
	if t.st.Started {
		standings = t.st.Standings()
	}
	for _, s := range standings {
		if shown == most {
			v.More++
			continue
		}
		shown++
		if len(v.Groups) == 0 || v.Groups[len(v.Groups)-1].group != s.Group {
			var names []string
			heads := ""
			for _, tb := range s.TieBreaks {
				names = append(names, tb.Name)
				heads += fmt.Sprintf(" %6s", tieBreakHeads[tb.Name])
			}
			v.Groups = append(v.Groups, standingsGroup{group: s.Group, Title: GroupTitle(t.st, s.Group), TieBreaks: strings.Join(names, ", "), Columns: heads})
		}
		gr := &v.Groups[len(v.Groups)-1]
		id := s.ID
		if s.Withdrawn {
			id += " (w)"
		}
		line := fmt.Sprintf("%4d  %-18.18s %6.1f %6d %4d %5d %4d", s.Rank, id, s.Points, s.Played, s.Wins, s.Draws, s.Losses)
		for _, tb := range s.TieBreaks {
			line += fmt.Sprintf(" %6.2f", tb.Value)
		}
		gr.Rows = append(gr.Rows, line)
	}
	for _, g := range t.st.Games {
		ladder := t.st.Settings.Kind == tournament.Ladder
		if ladder && g.Result != tournament.Pending || !ladder && (g.Round != t.st.Round || g.Season != t.st.Season) {
			continue
		}
		if len(v.Rounds) == most {
			break
		}
		v.Rounds = append(v.Rounds, gameLine(t.rec.Game, g))
	}
	v.RoundTitle = fmt.Sprintf("Round %d:", t.st.Round)
	if t.st.Settings.Kind == tournament.Ladder {
		v.RoundTitle = "Challenges in play:"
	}
	v.About = model.WrapText(v.About)
	v.Phase = model.WrapText(v.Phase)
	return render("tournament", v)
}

// tournamentLink is the address of a tournament's web page, or "" when
// the server has no web view.
func (s *Service) tournamentLink(name string) string {
	if s.cfg.PublicURL == "" {
		return ""
	}
	return strings.TrimRight(s.cfg.PublicURL, "/") + "/tournaments/" + name
}

// GroupTitle names a group of a tournament's standings, as the mails and
// the web page head it.
func GroupTitle(st *tournament.State, group int) string {
	switch {
	case st.Settings.Kind == tournament.League:
		return fmt.Sprintf("Division %d", group)
	case st.Groups > 1:
		return fmt.Sprintf("Group %d", group)
	}
	return "Standings"
}

// gameLine is a game of a round in a line: its players, its board, its
// result.
func gameLine(game string, g tournament.Game) string {
	if g.Black == "" {
		return fmt.Sprintf("  %s: a bye", g.White)
	}
	board := ""
	if g.Board > 0 {
		board = fmt.Sprintf(" (%s board %d)", game, g.Board)
	}
	result := "in play"
	if g.Result != tournament.Pending {
		result = g.Result.String()
	}
	return fmt.Sprintf("  %s - %s%s: %s", g.White, g.Black, board, result)
}

// tournamentStartsDue is how many tournaments one sweep starts at most:
// each pairs a round and makes its boards, in a step of its own.
const tournamentStartsDue = 20

// sweepTournaments starts the tournaments whose start date has come; one
// with fewer than 2 players then ends, and its organiser is told. A
// tournament that cannot be started (a damaged record, a bug) is logged
// and left for the next sweep: it stops no other, nor the reminders and
// forfeits of the boards.
func (s *Service) sweepTournaments(now time.Time, ids *[]uint64) {
	var names []string
	s.db.View(func(tx *store.Tx) error {
		names = tx.TournamentsDue(now, tournamentStartsDue)
		return nil
	})
	for _, name := range names {
		_, err := s.sweepStep(now, ids, func(tx *store.Tx, r *request) (int, error) {
			return 0, safely(func() error { return r.startDue(name) })
		})
		if err != nil {
			s.log.Error("sweep: tournament not started; tried again at the next sweep", "tournament", name, "err", err)
		}
	}
}

// startDue starts a tournament whose date has come, or ends it when it
// has fewer than 2 players.
func (r *request) startDue(name string) error {
	t, err := r.loadTournament(name)
	if err != nil {
		return err
	}
	if t.rec.Phase != store.TournamentOpen {
		return nil
	}
	if len(t.st.Entrants) >= 2 {
		return r.startTournament(t)
	}
	t.rec.Phase = store.TournamentOver
	if err := r.mailUser(t.rec.Organiser, "Tournament "+t.rec.Name+" did not start",
		model.WrapText(fmt.Sprintf("The tournament %s was to start at %s, but had %d players, fewer than 2: it is over.\n",
			t.rec.Name, t.rec.StartAt.UTC().Format(timeFormat), len(t.st.Entrants))), ""); err != nil {
		return err
	}
	return r.saveTournament(t)
}
