package pbem

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	model "github.com/pbemd/pbemd/pbem/board"
	"github.com/pbemd/pbemd/pbem/tournament"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

// The tournament commands: "tournament VERB NAME ... USERID PASSWORD".
// A tournament is one store record (store.Tournament) holding the pure
// state of pbem/tournament; its boards are ordinary boards that carry
// its name and round in their Extra (tournamentplay.go).

// tournamentVerbs are the words after "tournament", each with its handler.
var tournamentVerbs = map[string]func(*cmd, []string) error{
	"create":    (*cmd).tournamentCreate,
	"join":      (*cmd).tournamentJoin,
	"leave":     (*cmd).tournamentLeave,
	"start":     (*cmd).tournamentStart,
	"show":      (*cmd).tournamentShow,
	"list":      (*cmd).tournamentList,
	"withdraw":  (*cmd).tournamentWithdraw,
	"challenge": (*cmd).tournamentChallenge,
	"cancel":    (*cmd).tournamentCancel,
}

// tournament dispatches on the word after "tournament".
func (c *cmd) tournament(args []string) error {
	if len(args) == 0 {
		return c.tusage("")
	}
	run, ok := tournamentVerbs[strings.ToLower(args[0])]
	if !ok {
		c.r.guessSecrets(c.words)
		verbs := slices.Sorted(maps.Keys(tournamentVerbs))
		return c.tfail("", "%q is not a tournament command; they are %s and %s", args[0], strings.Join(verbs[:len(verbs)-1], ", "), verbs[len(verbs)-1])
	}
	return run(c, args[1:])
}

// tfail is a refusal of a tournament command that ends in the forms of
// its verb (all of them for verb "").
func (c *cmd) tfail(verb, format string, args ...any) error {
	f := fail(format, args...)
	f.forms = verbForms(verb)
	return f
}

// tusage is the refusal of a tournament command with the wrong words.
func (c *cmd) tusage(verb string) error { return c.usage(verbForms(verb)...) }

// verbForms are the forms of the tournament command of the verb, all of
// them for verb "".
func verbForms(verb string) []string {
	var forms []string
	for _, fm := range globalCommands["tournament"].forms {
		if verb == "" || strings.HasPrefix(fm.words, "tournament "+verb+" ") || fm.words == "tournament "+verb {
			forms = append(forms, fm.words)
		}
	}
	return forms
}

// Tournament options that need no value, and those that take one.
var (
	tournamentFlags  = []string{"double", "unrated", "novacation"}
	tournamentValues = []string{"rounds", "group", "draws", "reach", "division", "promote", "seasons", "start", "limit"}
)

// maxTournamentName bounds a tournament's name.
const maxTournamentName = 24

// validName checks a tournament's name: a letter, then letters, digits,
// "-" and "_", so that it reads in a Subject line and a web address.
func validName(name string) bool {
	if name == "" || len(name) > maxTournamentName {
		return false
	}
	for i, r := range name {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || !(r >= '0' && r <= '9' || r == '-' || r == '_')) {
			return false
		}
	}
	return true
}

// tournament create NAME GAME KIND [option ...] USERID PASSWORD
func (c *cmd) tournamentCreate(args []string) error {
	if len(args) < 5 {
		return c.tusage("create")
	}
	id, password := args[len(args)-2], args[len(args)-1]
	c.r.secret(password)
	name, gameWord, kindWord := args[0], args[1], args[2]
	if !validName(name) {
		return c.tfail("create", "%q is no tournament name: write 1 to %d letters, digits, - or _, starting with a letter", name, maxTournamentName)
	}
	g, ok := catalog.Lookup(gameWord)
	if !ok {
		return c.tfail("create", "%q is not a game of this server; the games are %s", gameWord, strings.Join(catalog.Names(), ", "))
	}
	kind, err := tournament.ParseKind(kindWord)
	if err != nil {
		return c.tfail("create", "%s", asSentence(err))
	}
	u, err := c.r.auth(id, password)
	if err != nil {
		return err
	}
	if isRobot(u) {
		return c.tfail("create", "A robot organises no tournament; write your own user id")
	}
	rec := &store.Tournament{Name: name, Game: g.Name(), Kind: kind.String(), Organiser: u.ID,
		Phase: store.TournamentOpen, Created: c.r.now, Updated: c.r.now, Limit: c.r.s.limits.TournamentEntrants}
	set, err := c.tournamentOptions(rec, g, kind, args[3:len(args)-2])
	if err != nil {
		return err
	}
	if _, err := c.r.tx.Tournament(name); err == nil {
		return c.tfail("create", "There is a tournament %s already; choose another name", name)
	} else if !errNotFound(err) {
		return err
	}
	most := c.r.s.limits.Tournaments
	if n := c.r.tx.OrganisedTournaments(u.ID, most); n >= most {
		return c.tfail("create", "%s organises %d tournaments not over, the most one player may; wait until one ends", u.ID, n)
	}
	st, err := tournament.New(set)
	if err != nil {
		return c.tfail("create", "%s", asSentence(err))
	}
	t := &tourney{rec: rec, st: st}
	if err := c.r.saveTournament(t); err != nil {
		return err
	}
	c.r.replyText(c.r.sender(), "Tournament "+name+" created", fmt.Sprintf(
		"%s created the tournament %s: %s.\n\nPlayers enter with:\n  tournament join %s USERID PASSWORD\n%s\n",
		u.ID, name, t.describe(), name, t.startText()))
	return nil
}

// tournamentOptions reads the options of a tournament: its own (rounds=5,
// double, ...), the boards' game options (-size=13) and their clock
// (-clock=..., --nagtime=D, --forfeittime=D), into rec and the settings.
func (c *cmd) tournamentOptions(rec *store.Tournament, g rules.Game, kind tournament.Kind, words []string) (tournament.Settings, error) {
	set := tournament.Settings{Kind: kind, Rounds: 5, Reach: 3, DivisionSize: 8, Promote: 2}
	own, params, server := splitOptions(words)
	if _, err := rules.ParseOptions(g, params); err != nil {
		return set, c.tfail("create", "%s", err.Error())
	}
	opts, _ := rules.ParseOptions(g, params)
	rec.Options = opts.Words()
	extra, err := c.timeOptions(server)
	if err != nil {
		return set, err
	}
	if extra == nil {
		extra = map[string]string{}
	}
	for _, w := range own {
		name, value, hasValue := strings.Cut(strings.ToLower(w), "=")
		switch {
		case !hasValue && slices.Contains(tournamentFlags, name):
			extra[name] = "1"
			set.Double = set.Double || name == "double"
			continue
		case !hasValue || !slices.Contains(tournamentValues, name):
			return set, c.tfail("create", "%q is no tournament option; they are %s=N, %s", w,
				strings.Join(tournamentValues, "=N, "), strings.Join(tournamentFlags, ", "))
		case name == "start":
			at, err := parseStart(value)
			if err != nil || !at.After(c.r.now) {
				return set, c.tfail("create", "%q is no start date to come; write start=YYYY-MM-DD or start=YYYY-MM-DDTHH:MM (UTC) after now", w)
			}
			rec.StartAt = at
			continue
		case name == "draws":
			switch value {
			case "replay":
				set.DrawRule = tournament.Replay
			case "seed":
				set.DrawRule = tournament.HigherSeed
			default:
				return set, c.tfail("create", "%q: a knockout's drawn game is decided by draws=replay or draws=seed", w)
			}
			continue
		}
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 || n > tournament.MaxEntrants {
			return set, c.tfail("create", "%q needs a number from 0 to %d", w, tournament.MaxEntrants)
		}
		switch name {
		case "rounds":
			set.Rounds = n
		case "group":
			set.GroupSize = n
		case "reach":
			set.Reach = n
		case "division":
			set.DivisionSize = n
		case "promote":
			set.Promote = n
		case "seasons":
			set.Seasons = n
		case "limit":
			if n < 2 || n > c.r.s.limits.TournamentEntrants {
				return set, c.tfail("create", "%q: a tournament takes from 2 to %d players", w, c.r.s.limits.TournamentEntrants)
			}
			rec.Limit = n
		}
	}
	if len(extra) > 0 {
		rec.Extra = extra
	}
	if err := set.Check(); err != nil {
		return set, c.tfail("create", "%s", asSentence(err))
	}
	return set, nil
}

// parseStart reads a start date, a day (at midnight UTC) or a minute.
func parseStart(s string) (time.Time, error) {
	if t, err := time.Parse("2006-01-02t15:04", s); err == nil {
		return t, nil
	}
	return time.Parse("2006-01-02", s)
}

// asSentence makes an error of pbem/tournament, a clause, a sentence, but
// one that begins with a user id of ids, which keeps its case.
func asSentence(err error, ids ...string) string {
	msg := err.Error()
	for _, id := range ids {
		if strings.HasPrefix(msg, id+" ") {
			return msg
		}
	}
	return strings.ToUpper(msg[:1]) + msg[1:]
}

// tournament join NAME USERID PASSWORD; with a robot's id, the organiser's
// password enters the robot.
func (c *cmd) tournamentJoin(args []string) error {
	if len(args) != 3 {
		return c.tusage("join")
	}
	c.r.secret(args[2])
	t, err := c.r.loadTournament(args[0])
	if err != nil {
		return err
	}
	var u *store.User
	if game, _, robot := ParseRobotID(args[1]); robot {
		if game != t.rec.Game {
			return c.tfail("join", "%s plays only %s; tournament %s plays %s", strings.ToLower(args[1]), game, t.rec.Name, t.rec.Game)
		}
		if _, err := c.r.auth(t.rec.Organiser, args[2]); err != nil {
			return c.tfail("join", "Only the organiser of %s, %s, enters a robot, with his own password", t.rec.Name, t.rec.Organiser)
		}
		if u, err = c.r.tx.User(args[1]); err != nil || !isRobot(u) {
			return c.tfail("join", "There is no robot %s on this server", strings.ToLower(args[1]))
		}
	} else if u, err = c.r.auth(args[1], args[2]); err != nil {
		return err
	}
	if t.rec.Phase == store.TournamentOver {
		return c.tfail("join", "Tournament %s is over; \"tournament list\" names those open", t.rec.Name)
	}
	if t.rec.Entrants >= t.rec.Limit {
		return c.tfail("join", "Tournament %s is full: it takes %d players", t.rec.Name, t.rec.Limit)
	}
	e := tournament.Entrant{ID: u.ID, Rating: int(ratingOf(u, t.rec.Game).Rating)}
	if err := t.st.Join(e); err != nil {
		return c.tfail("show", "%s", asSentence(err, u.ID))
	}
	t.rec.Entrants = len(t.st.Entrants)
	if err := c.r.saveTournament(t); err != nil {
		return err
	}
	c.r.replyText(c.r.sender(), fmt.Sprintf("Tournament %s: %s joined", t.rec.Name, u.ID), fmt.Sprintf(
		"%s is in the tournament %s (%s); %d players have joined so far.\n%s\n", u.ID, t.rec.Name, t.describe(), t.rec.Entrants, t.startText()))
	return nil
}

// tournament leave NAME USERID PASSWORD: out again before the start.
func (c *cmd) tournamentLeave(args []string) error {
	if len(args) != 3 {
		return c.tusage("leave")
	}
	t, u, err := c.entrant(args)
	if err != nil {
		return err
	}
	if t.st.Started {
		return c.tfail("withdraw", "Tournament %s has started, so %s cannot leave it; withdrawing forfeits the games left", t.rec.Name, u.ID)
	}
	if err := t.st.Leave(u.ID); err != nil {
		return c.tfail("show", "%s", asSentence(err, u.ID))
	}
	t.rec.Entrants = len(t.st.Entrants)
	if err := c.r.saveTournament(t); err != nil {
		return err
	}
	c.r.replyText(c.r.sender(), fmt.Sprintf("Tournament %s: %s left", t.rec.Name, u.ID),
		fmt.Sprintf("%s has left the tournament %s before its start.\n", u.ID, t.rec.Name))
	return nil
}

// tournament cancel NAME USERID PASSWORD: the organiser calls it off
// before its start; the players who joined are told.
func (c *cmd) tournamentCancel(args []string) error {
	if len(args) != 3 {
		return c.tusage("cancel")
	}
	t, u, err := c.organiser("cancel", args)
	if err != nil {
		return err
	}
	if t.rec.Phase != store.TournamentOpen || t.st.Started {
		return c.tfail("show", "Tournament %s has started or is over; only one not started yet is cancelled", t.rec.Name)
	}
	t.rec.Phase = store.TournamentOver
	if err := c.r.saveTournament(t); err != nil {
		return err
	}
	subject := "Tournament " + t.rec.Name + " cancelled"
	body := model.WrapText(fmt.Sprintf("%s, its organiser, has cancelled the tournament %s (%s) before its start; no game of it is played.\n",
		u.ID, t.rec.Name, t.describe()))
	var others []string
	for _, e := range t.st.Entrants {
		if e.ID != u.ID {
			others = append(others, e.ID)
		}
	}
	c.r.replyText(c.r.sender(), subject, body)
	return c.r.mailPlayers(others, subject, body)
}

// speaker loads the tournament args[0] and proves args[1] by his
// password args[2].
func (c *cmd) speaker(args []string) (*tourney, *store.User, error) {
	c.r.secret(args[2])
	t, err := c.r.loadTournament(args[0])
	if err != nil {
		return nil, nil, err
	}
	u, err := c.r.auth(args[1], args[2])
	if err != nil {
		return nil, nil, err
	}
	return t, u, nil
}

// entrant is speaker that refuses one who has not joined the tournament.
func (c *cmd) entrant(args []string) (*tourney, *store.User, error) {
	t, u, err := c.speaker(args)
	if err != nil {
		return nil, nil, err
	}
	if !slices.ContainsFunc(t.st.Entrants, func(e tournament.Entrant) bool { return e.ID == u.ID }) {
		return nil, nil, c.tfail("join", "%s is not in the tournament %s", u.ID, t.rec.Name)
	}
	return t, u, nil
}

// organiser is speaker that refuses one who does not organise the
// tournament, for the command of the verb.
func (c *cmd) organiser(verb string, args []string) (*tourney, *store.User, error) {
	t, u, err := c.speaker(args)
	if err != nil {
		return nil, nil, err
	}
	if u.ID != t.rec.Organiser {
		return nil, nil, c.tfail(verb, "Only the organiser of %s, %s, may send \"tournament %s\"", t.rec.Name, t.rec.Organiser, verb)
	}
	return t, u, nil
}

// tournament start NAME USERID PASSWORD: the organiser starts it.
func (c *cmd) tournamentStart(args []string) error {
	if len(args) != 3 {
		return c.tusage("start")
	}
	t, _, err := c.organiser("start", args)
	if err != nil {
		return err
	}
	if t.st.Started {
		return c.tfail("show", "Tournament %s has started already", t.rec.Name)
	}
	if len(t.st.Entrants) < 2 {
		return c.tfail("join", "Tournament %s has %d players; it needs 2 to start", t.rec.Name, len(t.st.Entrants))
	}
	return c.r.startTournament(t)
}

// tournament withdraw NAME USERID PASSWORD: out of a tournament in play,
// the games left forfeited.
func (c *cmd) tournamentWithdraw(args []string) error {
	if len(args) != 3 {
		return c.tusage("withdraw")
	}
	t, u, err := c.entrant(args)
	if err != nil {
		return err
	}
	if !t.st.Started {
		return c.tfail("leave", "Tournament %s has not started; leave it instead", t.rec.Name)
	}
	if t.rec.Phase == store.TournamentOver {
		return c.tfail("show", "Tournament %s is over", t.rec.Name)
	}
	if err := t.st.Withdraw(u.ID); err != nil {
		return c.tfail("show", "%s", asSentence(err, u.ID))
	}
	c.r.replyText(c.r.sender(), fmt.Sprintf("Tournament %s: %s withdrew", t.rec.Name, u.ID),
		fmt.Sprintf("%s has withdrawn from the tournament %s; the games left are forfeited.\n", u.ID, t.rec.Name))
	return c.r.withdrawBoards(t, u.ID)
}

// tournament challenge NAME USERID PASSWORD DEFENDER: a ladder's
// challenge. The password follows its user id, as in the other commands
// that name a second player after it (subscribe), so that it is the one
// checked ahead (prelock.go).
func (c *cmd) tournamentChallenge(args []string) error {
	if len(args) != 4 {
		return c.tusage("challenge")
	}
	t, u, err := c.entrant(args[:3])
	if err != nil {
		return err
	}
	if t.st.Settings.Kind != tournament.Ladder {
		return c.tfail("show", "Tournament %s is a %s, not a ladder: its games are paired", t.rec.Name, t.rec.Kind)
	}
	if !t.st.Started {
		return c.tfail("show", "Tournament %s has not started", t.rec.Name)
	}
	defender := strings.ToLower(args[3])
	if d, err := c.r.tx.User(args[3]); err == nil {
		defender = d.ID
	}
	if _, err := t.st.Challenge(u.ID, defender); err != nil {
		return c.tfail("challenge", "%s", asSentence(err, u.ID, defender))
	}
	return c.r.advance(t)
}

// tournament show NAME
func (c *cmd) tournamentShow(args []string) error {
	if len(args) != 1 {
		return c.tusage("show")
	}
	t, err := c.r.loadTournament(args[0])
	if err != nil {
		return err
	}
	body, err := t.standingsText(c.r.s.limits.TournamentShown, c.r.s.tournamentLink(t.rec.Name))
	if err != nil {
		return err
	}
	c.r.reply(c.r.sender(), "Tournament "+t.rec.Name, body, "auto-replied", "")
	return nil
}

// tournamentPage is how many tournaments "tournament list" names a mail.
const tournamentPage = 50

// tournament list [page N]
func (c *cmd) tournamentList(args []string) error {
	page := 1
	if len(args) == 2 && strings.EqualFold(args[0], "page") {
		n, err := strconv.Atoi(args[1])
		if err != nil || n < 1 || n > 1000 {
			return c.tfail("list", "%q is no page number; write a number from 1 to 1000", args[1])
		}
		page = n
	} else if len(args) != 0 {
		return c.tusage("list")
	}
	ts, err := c.r.tx.Tournaments((page-1)*tournamentPage, tournamentPage)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, t := range ts {
		fmt.Fprintf(&b, "%-*s %-8s %-10s %-7s %4d players", maxTournamentName, t.Name, t.Game, t.Kind, t.Phase, t.Entrants)
		if t.Round > 0 {
			fmt.Fprintf(&b, ", round %d", t.Round)
		}
		b.WriteString("\n")
	}
	shown := len(ts)
	text := "Tournaments, page " + strconv.Itoa(page) + ":\n\n" + b.String()
	if shown == 0 {
		text = "No tournaments on this page.\n"
	}
	if shown == tournamentPage {
		text += fmt.Sprintf("\nThe next page: tournament list page %d\n", page+1)
	}
	c.r.reply(c.r.sender(), "Tournaments", text+"\nOne in full: tournament show NAME\n", "auto-replied", "")
	return nil
}
