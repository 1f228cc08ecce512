// Package admin is pbemd admin: the operator's look at accounts, games and
// mail, and the few fixes that need no editing of the store. The daemon
// runs it for a client on its control socket; without a daemon, pbemd
// admin runs it on the store itself. Every action is logged.
package admin

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/store"
)

// Usage lists the actions, for pbemd admin -h and for a wrong action.
const Usage = `actions:
  users                          every account: id, addresses, games, last mail
  user NAME                      one account: addresses, games, limits, vacation, ratings
  password NAME                  set a random password and mail it to the account
  ban ADDRESS|USER               drop the mail of an address, or of every address of a user
  unban ADDRESS|USER
  bans                           what is banned
  resume ADDRESS                 send board mail again to an address paused
                                 after its bounces; the address is told
  end GAME BOARD draw|win USER|void
                                 end a running game; its players are told
  outbox [list]                  the replies waiting to be sent and those given up
  outbox retry ID                send a waiting or given-up reply now
  outbox drop ID                 remove a reply unsent
  quarantine [list]              mails the daemon or pbemd deliver could not
                                 handle, and the headers of those too large
                                 to read (the daemon's also stay in the IMAP
                                 quarantine folder)
  quarantine release ID          handle one again, once what failed is mended
  quarantine drop ID             remove one unhandled
  stats                          counts of users, games and mail`

// An Env is what the actions work on.
type Env struct {
	Service *pbem.Service
	DB      *store.DB
	Log     *slog.Logger
	// Kick, when set, wakes the daemon's sender after a change of the
	// outbox.
	Kick func()
	Now  func() time.Time // nil means time.Now
}

// A UsageError is a wrong action or wrong arguments.
type UsageError string

func (e UsageError) Error() string { return string(e) }

// Run runs the action args[0] with its arguments and writes its answer to
// w. Actions that change something are logged, with their outcome.
func Run(env Env, args []string, w io.Writer) error {
	if env.Now == nil {
		env.Now = time.Now
	}
	if env.Log == nil {
		env.Log = slog.Default()
	}
	if len(args) == 0 {
		return UsageError("name an action")
	}
	a, ok := actions[args[0]]
	if !ok {
		return UsageError(fmt.Sprintf("no action %q", args[0]))
	}
	if len(args)-1 < a.min || len(args)-1 > a.max {
		return UsageError(fmt.Sprintf("wrong number of arguments; write: %s", a.form))
	}
	err := a.run(env, args[1:], w)
	if a.changes {
		if err != nil {
			env.Log.Warn("admin action failed", "action", strings.Join(args, " "), "err", err)
		} else {
			env.Log.Info("admin action", "action", strings.Join(args, " "))
		}
	}
	return err
}

type action struct {
	form     string
	min, max int // arguments
	changes  bool
	run      func(env Env, args []string, w io.Writer) error
}

var actions map[string]action

func init() {
	actions = map[string]action{
		"users":      {form: "users", run: users},
		"user":       {form: "user NAME", min: 1, max: 1, run: user},
		"password":   {form: "password NAME", min: 1, max: 1, changes: true, run: password},
		"ban":        {form: "ban ADDRESS|USER", min: 1, max: 1, changes: true, run: ban(true)},
		"unban":      {form: "unban ADDRESS|USER", min: 1, max: 1, changes: true, run: ban(false)},
		"bans":       {form: "bans", run: bans},
		"resume":     {form: "resume ADDRESS", min: 1, max: 1, changes: true, run: resume},
		"end":        {form: "end GAME BOARD draw|win USER|void", min: 3, max: 4, changes: true, run: end},
		"outbox":     {form: "outbox [list | retry ID | drop ID]", max: 2, run: outbox},
		"quarantine": {form: "quarantine [list | release ID | drop ID]", max: 2, run: quarantine},
		"stats":      {form: "stats", run: stats},
	}
}

const day = "2006-01-02 15:04"

func when(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(day)
}

func users(env Env, _ []string, w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "USER\tADDRESSES\tGAMES\tLAST MAIL\tBANNED")
	err := env.DB.View(func(tx *store.Tx) error {
		return tx.Users(func(u *store.User) error {
			refs, err := tx.GamesOf(u.ID)
			if err != nil {
				return err
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", u.ID, strings.Join(u.Addresses, ","), len(refs),
				when(pbem.LastMail(tx, u.ID)), yes(pbem.IsBanned(tx, u.ID)))
			return nil
		})
	})
	if err != nil {
		return err
	}
	return tw.Flush()
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "-"
}

func user(env Env, args []string, w io.Writer) error {
	return env.DB.View(func(tx *store.Tx) error {
		u, err := tx.User(args[0])
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no user %q", args[0])
		}
		if err != nil {
			return err // its record does not decode: the error says so
		}
		fmt.Fprintf(w, "user       %s (%s)\ncreated    %s\nlast mail  %s\nbanned     %s\n",
			u.ID, u.Name, when(u.Created), when(pbem.LastMail(tx, u.ID)), yes(pbem.IsBanned(tx, u.ID)))
		for _, a := range u.Addresses {
			fmt.Fprintf(w, "address    %s%s%s\n", a, banMark(tx, a), pausedMark(tx, a, env.Now()))
		}
		for _, a := range u.Unconfirmed {
			fmt.Fprintf(w, "address    %s (not confirmed; code sent %s)\n", a.Address, when(a.Sent))
		}
		refs, err := tx.GamesOf(u.ID)
		if err != nil {
			return err
		}
		for _, ref := range refs {
			g, err := tx.Game(ref.Kind, ref.Board)
			if tx.PassOver(err) {
				fmt.Fprintf(w, "game       %s %d: its record does not decode\n", ref.Kind, ref.Board)
				continue
			}
			if err != nil {
				return err
			}
			state := "running"
			if g.Over {
				state = "over"
			}
			fmt.Fprintf(w, "game       %s %d %s (%s), %d moves\n", g.Kind, g.Board, state, strings.Join(g.Seats, " vs "), len(g.Moves))
		}
		for _, kind := range sortedKeys(u.Limits) {
			fmt.Fprintf(w, "limit      %s %d\n", kind, u.Limits[kind])
		}
		for _, kind := range sortedKeys(u.Ratings) {
			r := u.Ratings[kind]
			fmt.Fprintf(w, "rating     %s %.0f (%d games: %d won, %d lost, %d drawn)\n", kind, r.Rating, r.Games, r.Won, r.Lost, r.Drawn)
		}
		for _, v := range u.Vacations {
			fmt.Fprintf(w, "vacation   %s to %s\n", when(v.From), when(v.Until))
		}
		if len(u.Refuses) > 0 {
			fmt.Fprintf(w, "refuses    %s\n", strings.Join(u.Refuses, ", "))
		}
		return nil
	})
}

func banMark(tx *store.Tx, addr string) string {
	if pbem.IsBanned(tx, addr) {
		return " (banned)"
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func password(env Env, args []string, w io.Writer) error {
	mails, err := env.Service.NewPassword(args[0])
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("no user %q", args[0])
	}
	if err != nil {
		return err
	}
	env.kick()
	fmt.Fprintf(w, "a new password for %s is mailed to its %d addresses\n", strings.ToLower(args[0]), mails)
	return nil
}

func (env Env) kick() {
	if env.Kick != nil {
		env.Kick()
	}
}

func ban(on bool) func(env Env, args []string, w io.Writer) error {
	return func(env Env, args []string, w io.Writer) error {
		done, err := env.Service.Ban(args[0], on, env.Now())
		if err != nil {
			return err
		}
		fmt.Fprintln(w, done)
		return nil
	}
}

func bans(env Env, _ []string, w io.Writer) error {
	list, err := env.Service.Banned()
	if err != nil {
		return err
	}
	for _, b := range list {
		fmt.Fprintln(w, b)
	}
	return nil
}

func resume(env Env, args []string, w io.Writer) error {
	since, paused, err := env.Service.Resume(args[0])
	if err != nil {
		return err
	}
	if !paused {
		return fmt.Errorf("board mail to %s is not paused", args[0])
	}
	env.kick()
	fmt.Fprintf(w, "board mail to %s resumed (paused since %s); the address is told\n", args[0], when(since))
	return nil
}

func end(env Env, args []string, w io.Writer) error {
	board, err := strconv.Atoi(args[1])
	if err != nil {
		return UsageError(fmt.Sprintf("%q is not a board number", args[1]))
	}
	how, winner := args[2], ""
	switch {
	case how == "win" && len(args) == 4:
		winner = args[3]
	case how == "win":
		return UsageError("win needs the winner's user id: end GAME BOARD win USER")
	case len(args) == 4:
		return UsageError("only win takes a user id: end GAME BOARD draw|win USER|void")
	}
	mails, err := env.Service.EndBoard(args[0], board, how, winner)
	if err != nil {
		return err
	}
	env.kick()
	fmt.Fprintf(w, "%s board %d ended (%s); %d mails queued to its players and watchers\n", args[0], board, how, mails)
	return nil
}

func outbox(env Env, args []string, w io.Writer) error {
	if len(args) == 0 || args[0] == "list" && len(args) == 1 {
		return outboxList(env, w)
	}
	if len(args) != 2 {
		return UsageError("write: outbox [list | retry ID | drop ID]")
	}
	id, err := strconv.ParseUint(args[1], 10, 64)
	if err != nil {
		return UsageError(fmt.Sprintf("%q is not a mail id; outbox list shows them", args[1]))
	}
	var did string
	switch args[0] {
	case "retry":
		err, did = env.DB.RetryNow(id), "will be sent now"
	case "drop":
		err, did = env.DB.Drop(id), "dropped unsent"
	default:
		return UsageError(fmt.Sprintf("no outbox action %q; want list, retry or drop", args[0]))
	}
	if errors.Is(err, store.ErrNotFound) {
		err = fmt.Errorf("no mail %d in the outbox or the failed mail; outbox list shows them", id)
	}
	if err != nil {
		env.Log.Warn("admin action failed", "action", "outbox "+args[0]+" "+args[1], "err", err)
		return err
	}
	env.Log.Info("admin action", "action", "outbox "+args[0]+" "+args[1])
	env.kick()
	fmt.Fprintf(w, "mail %d %s\n", id, did)
	return nil
}

// listMost bounds the mails outbox list shows of each kind.
const listMost = 1000

func outboxList(env Env, w io.Writer) error {
	queued, err := env.DB.Queue(listMost)
	if err != nil {
		return err
	}
	failed, err := env.DB.Failed(listMost)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATE\tTO\tQUEUED\tATTEMPTS\tLAST ERROR")
	for _, m := range queued {
		state := "waiting"
		if m.NextTry.After(env.Now()) {
			state = "retry " + when(m.NextTry)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%s\n", m.ID, state, recipients(m.To), when(m.Queued), m.Attempts, OneLine(m.LastError, cellBytes))
	}
	for _, m := range failed {
		fmt.Fprintf(tw, "%d\tfailed %s\t%s\t%s\t%d\t%s\n", m.ID, when(m.GaveUp), recipients(m.To), when(m.Queued), m.Attempts, OneLine(m.LastError, cellBytes))
	}
	return tw.Flush()
}

// recipients names a mail's recipients in a line: a mail in copies to
// many (a game's end to its notifiers) by its first and how many more.
func recipients(to []string) string {
	if len(to) > 2 {
		return fmt.Sprintf("%s and %d more", to[0], len(to)-1)
	}
	return strings.Join(to, ",")
}

func stats(env Env, _ []string, w io.Writer) error {
	c, err := env.DB.Count()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "users      %d\ngames      %d\n", c.Users, c.Games)
	for _, kind := range sortedKeys(c.Running) {
		fmt.Fprintf(w, "running    %s %d\n", kind, c.Running[kind])
	}
	fmt.Fprintf(w, "mail keys  %d\noutbox     %d\nfailed     %d\n", c.Processed, c.Outbox, c.Failed)
	return nil
}

func quarantine(env Env, args []string, w io.Writer) error {
	if len(args) == 0 || args[0] == "list" && len(args) == 1 {
		list, err := env.DB.Quarantined()
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tAT\tFROM\tKIND\tBYTES\tWHY")
		for _, q := range list {
			kind, size := q.Kind, int64(len(q.Data))
			if kind == "" {
				kind = "not handled"
			}
			if q.Size > 0 {
				size = q.Size // only the header is kept
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%s\n", q.ID, when(q.At), q.From, kind, size, OneLine(q.Why, cellBytes))
		}
		return tw.Flush()
	}
	if len(args) != 2 {
		return UsageError("write: quarantine [list | release ID | drop ID]")
	}
	id, err := strconv.ParseUint(args[1], 10, 64)
	if err != nil {
		return UsageError(fmt.Sprintf("%q is not a mail id; quarantine list shows them", args[1]))
	}
	var did string
	switch args[0] {
	case "release":
		var ids []uint64
		ids, err = env.Service.Release(id)
		did = fmt.Sprintf("handled again; %d replies queued", len(ids))
	case "drop":
		err, did = env.Service.DropQuarantined(id), "dropped unhandled"
	default:
		return UsageError(fmt.Sprintf("no quarantine action %q; want list, release or drop", args[0]))
	}
	if errors.Is(err, store.ErrNotFound) {
		err = fmt.Errorf("no mail %d in quarantine; quarantine list shows them", id)
	}
	action := "quarantine " + args[0] + " " + args[1]
	if err != nil {
		env.Log.Warn("admin action failed", "action", action, "err", err)
		return err
	}
	env.Log.Info("admin action", "action", action)
	env.kick()
	fmt.Fprintf(w, "mail %d %s\n", id, did)
	return nil
}
