package pbem

// The command table: every mail command is one row of it, naming its
// handler. The parser, the usage errors, the masking of passwords, the
// limits' reading commands, "help commands" and docs/commands.md all come
// from these rows, so a command is written once.

//go:generate go run ./internal/gendoc ../docs/commands.md

// A commandRow is one command, a row of the table.
type commandRow struct {
	name    string   // the word that names it, lower case
	game    bool     // it follows a game's name ("tanbo move"), else it stands first
	aliases []string // other words for it, as on pbmserv
	prefix  int      // any start of name at least this long names it; 0: none
	run     handler  // nil for multiple, which is split into commands before dispatch
	reads   bool     // it only reads: the limits count it as such (readOnly)
	// noPassword: its user ids are not followed by an account's password
	// (signup's is a new one), so none is checked ahead (preverify).
	noPassword bool
	section    string // the help's section
	forms      []form
	// readWords are the words after the name that make a command that
	// only reads ("tournament show"), for a row whose other forms change
	// state.
	readWords []string
}

// A form is one way of writing a command, as the help and the usage
// errors show it.
type form struct {
	words string // as "GAME join board userid password"; see passwordSlot
	// text says what it does: one paragraph, a text/template of the help's
	// data (so "{{.Limits.Addresses}}"), wrapped where it is shown.
	text string
	// more is what docs/commands.md says beyond text, which the help
	// mail leaves out to stay short; a template as text is.
	more     string
	examples []string
	section  string // the section it is listed in, when not its command's
}

// passwordSlot are the words of forms that stand for a password (or a code
// that serves as one): a usage error masks what stands in their place.
var passwordSlot = map[string]bool{"password": true, "old": true, "new": true, "newpassword": true, "code": true}

// The help's sections, in order.
const (
	accountsSection    = "Accounts"
	informationSection = "Information"
	startingSection    = "Starting a game"
	robotsSection      = "Robots"
	playingSection     = "Playing"
	watchingSection    = "Watching"
	tournamentsSection = "Tournaments"
)

// commands is the table. Its order is the help's order within a section.
var commands []*commandRow

// init fills the table, breaking the cycle between it and help, which
// lists it.
func init() {
	commands = []*commandRow{
		// Accounts
		{name: "signup", run: (*cmd).signup, noPassword: true, section: accountsSection, forms: []form{{
			words:    "signup userid password [address ...] [language]",
			text:     "Make an account. Mail goes to the sender, or to the addresses given (at most {{.Limits.Addresses}}). An address other than the sender's is mailed a code and gets nothing else until it is confirmed; so is the sender's own when nothing vouched for the mail (its domain does not sign it). A language last (de) makes the account's mails, its welcome first, in that language (as \"set language\" does).",
			examples: []string{"signup alice secret", "signup alice secret de"},
		}}},
		{name: "confirm", run: (*cmd).confirm, section: accountsSection, forms: []form{{
			words:    "confirm userid code",
			text:     "Confirm an address with the code mailed to it (valid 7 days); from then on it gets the account's mail.",
			examples: []string{"confirm alice k7qxm2pa9d"},
		}}},
		{name: "change", run: (*cmd).change, section: accountsSection, forms: []form{{
			words:    "change password userid old new",
			text:     "Set a new password.",
			examples: []string{"change password alice secret s3cret"},
		}, {
			words:    "change address userid password [address ...]",
			text:     "The account's addresses become the ones given (at most {{.Limits.Addresses}}); a new one other than the sender's must confirm first, as for signup.",
			examples: []string{"change address alice secret alice@example.org"},
		}}},
		{name: "reset", run: (*cmd).reset, section: accountsSection, forms: []form{{
			words:    "reset userid",
			text:     "Forgot the password? A code comes to the account's addresses (not to the sender's, unless it is one of them); the sender is told only that a code was sent. One code lives at a time, a day at most, and a new one is mailed at most once an hour.",
			more:     "A From line is easily forged, so the code never goes to the sender as such, and the sender is not told whether the account exists. The code is stored hashed.",
			examples: []string{"reset alice"},
		}, {
			words:    "reset userid code newpassword",
			text:     "Set the password with that code; every address of the account is told. It works even while forged guesses lock the account's password checks, and ends the lock; a wrong code does not end it.",
			examples: []string{"reset alice k7qxm2pa9d n3wpass"},
		}}},
		{name: "signoff", aliases: []string{"delete"}, run: (*cmd).signoff, section: accountsSection, forms: []form{{
			words:    "signoff userid password",
			text:     "Delete the account. Its running games are forfeited, its open seats withdrawn, and boards where you have not moved yet withdrawn unrated.",
			examples: []string{"signoff alice secret"},
		}}},
		{name: "vacation", run: (*cmd).vacation, section: accountsSection, forms: []form{{
			words:    "vacation userid password days",
			text:     "Away for that many days: no reminders, no forfeits, your clock stops, and your boards say so. At most 30 days a year; 0 ends it early.",
			more:     "A reminder or forfeit that falls due within the hour after an early end may then go up to an hour late.",
			examples: []string{"vacation alice secret 10"},
		}}},

		// Information
		{name: "help", run: (*cmd).help, reads: true, noPassword: true, section: informationSection, forms: []form{{
			words:    "help [commands | tutorial | clocks | GAME | COMMAND]",
			text:     "The help index, every command (this list), a first game step by step, clocks and vacations, a game's rules, or one command's forms (\"help move\").",
			examples: []string{"help tutorial"},
		}}},
		{name: "help", game: true, run: (*cmd).gameHelp, reads: true, noPassword: true, section: informationSection, forms: []form{{
			words:    "GAME help",
			text:     "A game's rules, notation and options.",
			examples: []string{"tanbo help"},
		}}},
		{name: "list", run: (*cmd).list, reads: true, noPassword: true, section: informationSection, forms: []form{{
			words:    "list [GAME ...]",
			text:     "The games offered and up to 20 of each one's boards in play (\"GAME games\" for them all, a page at a time).",
			examples: []string{"list tanbo"},
		}}},
		{name: "multiple", section: informationSection, forms: []form{{
			words:    "multiple",
			text:     "The body holds one command per line, run in order, at most {{.Limits.Commands}}; the rest are answered once. Quoted lines are skipped; the lines end at the signature (\"-- \"). The answers to the sender come in one reply, but each board shown in a mail of its own (at most 20); board mails to the players go as usual.",
			more:     "One mail sets at most 2 new passwords (signup, change password, reset): each costs a bcrypt hash.",
			examples: []string{"multiple (body: \"tanbo show 101\", \"tanbo show 102\")"},
		}}},
		{name: "message", run: (*cmd).message, section: informationSection, forms: []form{{
			words:    "message userid password to-userid ...",
			text:     "The mail body (at most {{.Limits.MessageBytes}} bytes) goes to the users named (at most {{.Limits.Recipients}}), at their confirmed addresses.",
			examples: []string{"message alice secret bob (body: \"Rematch on Sunday?\")"},
		}}},
		{name: "all", run: (*cmd).all, reads: true, noPassword: true, section: informationSection, forms: []form{{
			words:    "all show userid [all|active|inactive|next] [page N]",
			text:     "A player's boards in every game, 10 a page (one mail each); a last short mail names the next page.",
			examples: []string{"all show alice next"},
		}}},

		// Starting a game
		{name: "challenge", game: true, prefix: 5, run: (*cmd).challenge, noPassword: true, section: startingSection, forms: []form{{
			words:    "GAME challenge userid1 userid2 [-option ...] [--nagtime=D --forfeittime=D] [-clock=CLOCK]",
			text:     "Start a board. userid1 moves first. Options are the game's, see \"GAME help\"; each may be shortened to a unique start (-si=9 for -size=9); an unknown or ambiguous one is refused. -swap (Tanbo) is the pie rule: after the first move the second player may answer \"swap\" and take the first player's side. A reminder comes after D days without a move (default 7), the game is forfeited after D days (default 21). -clock=fischer:10d+1d/20d gives each player a bank instead (10 days to start, a day more after each move, 20 at most), forfeited when spent; \",weekends\" and \",nights=23-07\" after the clock stop it then, in the mover's zone (\"set timezone\"). See \"help clocks\". From your own address, when its domain signs your mail, the game starts at once; any other challenge only invites the players it names, each of whom accepts with \"GAME join\" within 3 days.",
			more:     "The options of each game are in [games.md](games.md). Who may start a game for whom is in [trust.md](trust.md).",
			examples: []string{"tanbo challenge alice bob -size=9 --nagtime=3 --forfeittime=10", "tanbo challenge alice bob -clock=fischer:10d+1d/20d,weekends"},
		}, {
			words:    "GAME challenge userid ? [-option ...]",
			text:     "An open seat: the board waits until anyone joins.",
			examples: []string{"tanbo challenge alice ?"},
		}}},
		{name: "join", game: true, run: (*cmd).join, section: startingSection, forms: []form{{
			words:    "GAME join board userid password",
			text:     "Take the open seat of a board, or accept a challenge that invited you; the game starts.",
			examples: []string{"tanbo join 101 bob secret"},
		}, {
			words:    "GAME join board ROBOT password",
			text:     "Where the server allows it, the player waiting on an open seat asks a robot to take it, with his own password. A robot takes no seat unasked.",
			more:     "The operator allows it with `robots.join: true`.",
			examples: []string{"tanbo join 101 tanbo-robot1 secret"},
			section:  robotsSection,
		}}},
		{name: "decline", game: true, run: (*cmd).decline, section: startingSection, forms: []form{{
			words:    "GAME decline board userid password",
			text:     "Before your first move on a board: you do not play it. Nothing is rated, the board ends as withdrawn and everyone is told; a seat you took on an open seat board opens again instead. resign, signoff, and a forfeit for silence, before your first move do the same, as on pbmserv; decline itself and the reopened seat are pbemd's own.",
			more:     "The board mail says \"X has decided not to play\"; a reopened seat waits for another player.",
			examples: []string{"tanbo decline 101 bob secret"},
		}}},
		{name: "accept", game: true, run: (*cmd).acceptChallenges, section: startingSection, forms: []form{{
			words:    "GAME accept userid password",
			text:     "Accept every challenge of this game (the default).",
			examples: []string{"ultima accept alice secret"},
		}, {
			words:    "GAME accept board userid password",
			text:     "Take the open seat of a seek (the same as join).",
			examples: []string{"ultima accept 101 bob secret"},
		}}},
		{name: "reject", game: true, run: (*cmd).rejectChallenges, section: startingSection, forms: []form{{
			words:    "GAME reject userid password",
			text:     "Refuse every challenge of this game.",
			examples: []string{"ultima reject alice secret"},
		}}},
		{name: "limit", game: true, run: (*cmd).limit, section: startingSection, forms: []form{{
			words:    "GAME limit userid password [n|0|reject|accept|all|inf]",
			text:     "As on pbmserv: be challenged into at most n active games of this game; 0 or reject refuses every challenge (as GAME reject); accept, all or inf: no limit. Without a value: tells your setting. Your own challenges and open seats you join are not refused; \"GAME standings\" shows the limit.",
			examples: []string{"ultima limit alice secret 5"},
		}}},

		// Playing
		{name: "move", game: true, aliases: []string{"board", "mvoe"}, run: (*cmd).move, section: playingSection, forms: []form{{
			words:    "GAME move board userid password move[#n]",
			text:     "Play a move. \"#n\" is the number the move must get, as the board mail's move list numbers the moves, so a mail sent twice, or a stale one, is refused instead of played twice.",
			examples: []string{"ultima move 101 alice secret e2-e5#1"},
		}, {
			words:    "GAME move board userid password propose",
			text:     "Propose a draw (\"draw\" says the same).",
			examples: []string{"tanbo move 101 alice secret propose"},
		}, {
			words:    "GAME move board userid password undo",
			text:     "Ask to take back your last turn and every move after it.",
			examples: []string{"tanbo move 101 alice secret undo"},
		}, {
			words:    "GAME move board userid password accept|reject",
			text:     "Answer the other player's draw or undo proposal. Playing a move instead declines it. Unanswered, it is reminded like a move after the board's reminder time, and at its forfeit time silence accepts it, as on pbmserv; both players are told. The proposer's clock stands while it is open.",
			examples: []string{"tanbo move 101 bob secret accept"},
		}, {
			words:    "GAME move board userid password swap",
			text:     "On a board made with -swap (the pie rule), the second player's answer to the first turn: he takes the first player's side and the first player plays the other from there; the result and the ratings follow who played which side.",
			examples: []string{"tanbo move 101 bob secret swap"},
		}}},
		{name: "queue", game: true, aliases: []string{"qmove", "qboard", "moveq", "boardq"}, run: (*cmd).queue, section: playingSection, forms: []form{{
			words:    "GAME queue board userid password [add] move[#n]|clear",
			text:     "Play a move when your turn comes, marked (Auto). As in pbmserv, a new queue replaces what you had queued, so a corrected move is the only one played; \"add\" puts it after those queued already, and they are played in order, one a turn. One that is illegal by then is dropped, with those queued after it, and you are told. \"clear\" empties your queue; without a move (pbemd's own) you get your queue as it stands. Every reply lists it.",
			examples: []string{"tanbo queue 101 bob secret b7", "tanbo queue 101 bob secret add b9", "tanbo queue 101 bob secret clear"},
		}, {
			words:    "GAME queue board userid password [add] if ANSWER then MOVE ...",
			text:     "A plan, for every game: \"if ANSWER then MOVE\" plays MOVE when your opponent's turn was ANSWER; a plan after MOVE (\"if ...\", or \"then MOVE2\" for any answer) is nested in it; \"else if ...\" adds another answer, \"else MOVE\" takes any other; an \"else\" belongs to the innermost \"if\", and \"end\" closes it. Write it in the Subject or, after the password, in the body, one line or many. Every answer and move is checked when you queue it and again when it is played; a move after any answer, when it is played. At most 64 moves, 20 deep. While your plan plays for you, you get no board mail: the next comes when an answer leaves the plan, or the game ends. \"add\" puts the plan after each last move of yours.",
			examples: []string{"tanbo queue 101 bob secret if h7 then b7 if b3 then h3"},
		}}},
		{name: "swap", game: true, run: (*cmd).swapCommand, section: playingSection, forms: []form{{
			words:    "GAME swap board userid password",
			text:     "The same as \"GAME move board userid password swap\", as pbmserv writes it; \"swap#2\" as a move checks its number as any move does.",
			examples: []string{"tanbo swap 101 bob secret"},
		}}},
		{name: "resign", game: true, run: (*cmd).resign, section: playingSection, forms: []form{{
			words:    "GAME resign board userid password",
			text:     "Give up the game (also: GAME move board userid password resign). Sent when it is not your turn, it waits for your turn like a queued move; a second resign takes a waiting one back. Before your first move it withdraws you, unrated (see decline).",
			examples: []string{"tanbo resign 101 bob secret"},
		}}},
		{name: "chat", game: true, run: (*cmd).chat, section: playingSection, forms: []form{{
			words:    "GAME chat board userid password",
			text:     "The mail body goes to the players and subscribers of a board, as a short mail \"GAME chat board userid\" in the board's thread. Anyone signed up may chat on any board (pbmserv too); one who neither plays nor subscribes gets his chat back.",
			more:     "Its body is \"Chat at Game Board N\" and the text.",
			examples: []string{"tanbo chat 101 alice secret (body: \"Nice move!\")"},
		}}},
		{name: "preview", game: true, prefix: 4, run: (*cmd).preview, reads: true, noPassword: true, section: playingSection, forms: []form{{
			words:    "GAME preview board|new [-option ...] move ...",
			text:     "Try moves on a copy of a board, or on a new game; nothing is saved.",
			examples: []string{"tanbo preview 101 h7 b7", "tanbo preview new -size=9 h7"},
		}}},

		// Watching
		{name: "show", game: true, run: (*cmd).show, reads: true, noPassword: true, section: watchingSection, forms: []form{{
			words:    "GAME show board[#n] ...",
			text:     "A board, or the board as it stood after move n; at most 10 boards a mail, with the user ids' boards, each in a mail of its own whose subject names it. \"show board 101\" is \"show 101\".",
			examples: []string{"ultima show 101", "ultima show 101#10"},
		}, {
			words:    "GAME show userid ... [all|active|inactive|next]",
			text:     "A player's boards (default: active; next: where it is his turn).",
			examples: []string{"ultima show alice next"},
		}}},
		{name: "games", game: true, run: (*cmd).games, reads: true, noPassword: true, section: watchingSection, forms: []form{{
			words:    "GAME games [userid ...] [all|active|inactive|next|open] [page N]",
			text:     "A list of boards, 50 a page, the command for the next page at the end; open: boards waiting for a player; inactive of all players: the last ended first.",
			examples: []string{"tanbo games open"},
		}}},
		{name: "subscribe", game: true, prefix: 3, run: (*cmd).subscribe, section: watchingSection, forms: []form{{
			words:    "GAME subscribe board userid password",
			text:     "Receive every mail of a board you do not play on.",
			examples: []string{"tanbo subscribe 101 carol secret"},
		}, {
			words:    "GAME subscribe all userid password",
			text:     "Subscribe to every board of the game: those in play (as on pbmserv; the first 50 of them) and every new one from now on.",
			examples: []string{"tanbo subscribe all carol secret"},
		}, {
			words:    "GAME subscribe userid password board|userid ...",
			text:     "As pbmserv writes it: the boards named, and the boards in play of the players named, at most 10 in all.",
			examples: []string{"tanbo subscribe carol secret 101 102", "tanbo subscribe carol secret bob"},
		}}},
		{name: "unsubscribe", game: true, prefix: 5, run: (*cmd).unsubscribe, section: watchingSection, forms: []form{{
			words:    "GAME unsubscribe board|all userid password",
			text:     "Stop either.",
			examples: []string{"tanbo unsubscribe 101 carol secret"},
		}, {
			words:    "GAME unsubscribe userid password board|userid ...",
			text:     "As pbmserv writes it: stop the boards named, and those in play of the players named.",
			examples: []string{"tanbo unsubscribe carol secret 101"},
		}}},
		{name: "notify", game: true, run: (*cmd).notify, section: watchingSection, forms: []form{{
			words:    "GAME notify userid password [off] [board ...]",
			text:     "Receive only the final mail of the boards named, or without boards of every board of the game; \"off\" stops it, and without boards the bare form turns it on and off, as on pbmserv.",
			examples: []string{"tanbo notify carol secret 101"},
		}}},
		{name: "standings", game: true, aliases: []string{"ratings"}, run: (*cmd).standings, reads: true, noPassword: true, section: watchingSection, forms: []form{{
			words:    "GAME standings [page N]",
			text:     "50 rated players a page, the best first, in sections Established, Provisional (fewer than 20 rated games) and Inactive (no board in play and none ended for 90 days): rank, user, rating, won, lost, drawn, active games/limit and the open seats the player waits on.",
			examples: []string{"tanbo standings"},
		}}},
		{name: "history", game: true, run: (*cmd).history, reads: true, noPassword: true, section: watchingSection, forms: []form{{
			words:    "GAME history [userid] [page N]",
			text:     "The finished boards (not those withdrawn unplayed), the last ended first (a player's: the highest board first); 50 a page.",
			examples: []string{"tanbo history alice"},
		}}},
		{name: "todo", run: (*cmd).todo, reads: true, noPassword: true, section: playingSection, forms: []form{{
			words:    "todo",
			text:     "The boards of every game where it is your move (the account of the address you write from), the most urgent first: the nearest end of your clock, then the oldest turn; each with the last move and the command that answers it.",
			examples: []string{"todo"},
		}}},
		{name: "todo", game: true, run: (*cmd).todo, reads: true, noPassword: true, section: playingSection, forms: []form{{
			words:    "GAME todo",
			text:     "The same for the boards of one game.",
			examples: []string{"tanbo todo"},
		}}},
		{name: "set", run: (*cmd).set, section: accountsSection, forms: []form{{
			words:    "set timezone userid password [zone]",
			text:     "The time zone in which the off-time of your clocks (-clock=...,weekends or ,nights=23-07) is counted, by its IANA name such as Europe/Berlin; UTC until you set one. Without a zone, the reply says the one you have.",
			more:     "How clocks, off-time and the vacation pool are counted is in [clocks.md](clocks.md).",
			examples: []string{"set timezone alice secret Europe/Berlin"},
		}, {
			words:    "set mail userid password [each|digest HH:MM[,HH:MM]]",
			text:     "How the mails of your boards in play come: \"each\", a mail at each move (the default), or \"digest\" and up to 4 times of day in your zone: at those times one mail lists every board at your move, the most urgent first, with its last move and its board. Reply to it with one line a board, GAME BOARD MOVE (or BOARD MOVE); one mail answers them all. Reminders and the end of a game still come at once.",
			more:     "How the digest is made and answered is in [digest.md](digest.md).",
			examples: []string{"set mail alice secret digest 08:00,20:00", "set mail alice secret each"},
		}, {
			words:    "set language userid password [en|de]",
			text:     "The language of the mails you get: \"en\", English (the default), or \"de\", German. Commands stay English in every language. Without a language, the reply says the one you have.",
			more:     "How a language is added is in [languages.md](languages.md).",
			examples: []string{"set language alice secret de"},
		}}},
		{name: "seek", game: true, run: (*cmd).seek, section: startingSection, forms: []form{{
			words:    "GAME seek userid password [-option ...] [--nagtime=D --forfeittime=D]",
			text:     "Ask for a game against anyone: an open seat board with you as the first player, listed by \"GAME games open\"; anyone takes it with \"GAME accept board userid password\". One seek a game at a time; \"GAME decline board userid password\" withdraws it, and one nobody takes within 14 days lapses, unrated.",
			examples: []string{"tanbo seek alice secret -size=9"},
		}}},
		{name: "rematch", game: true, run: (*cmd).rematch, section: startingSection, forms: []form{{
			words:    "GAME rematch board userid password",
			text:     "After a finished game, challenge the other player again with the same options and times, the sides swapped. Unless your domain signs your mail, he is invited and accepts with \"GAME join\", as for any challenge.",
			examples: []string{"tanbo rematch 101 alice secret"},
		}}},
		{name: "broadcast", run: (*cmd).broadcast, section: informationSection, forms: []form{{
			words:    "broadcast userid password",
			text:     "For the server's administrators only, from an address whose domain signs its mail: the mail body (at most {{.Limits.MessageBytes}} bytes) goes to every player.",
			more:     "The operator names the administrators with `admins:` in the configuration. One broadcast reaches at most 10000 players; the outbox sends it in mails of 100 copies.",
			examples: []string{"broadcast admin secret (body: \"The server moves on Sunday.\")"},
		}}},
		{name: "seeks", game: true, run: (*cmd).seeks, reads: true, noPassword: true, section: startingSection, forms: []form{{
			words:    "GAME seeks [page N]",
			text:     "The seeks and other open seats waiting for a player (the same as \"GAME games open\").",
			examples: []string{"tanbo seeks"},
		}}},
		{name: "feed", run: (*cmd).feed, section: playingSection, forms: []form{{
			words:    "feed key userid password",
			text:     "Mail the address of your Atom feed of the boards where it is your move (as todo lists them), with its key, to the account's addresses (never to the sender as such). The password may be left out in mail from an address of the account whose domain signs it.",
			more:     "The feed is /users/USERID/todo.atom?key=KEY on the web view; each board also has a public feed of its moves, /GAME/BOARD.atom. See [api.md](api.md).",
			examples: []string{"feed key alice secret"},
		}, {
			words:    "feed revoke userid password",
			text:     "Every key of your feed given so far fails from now on; \"feed key\" then mails a new one.",
			examples: []string{"feed revoke alice secret"},
		}}},
		{name: "record", game: true, run: (*cmd).record, reads: true, noPassword: true, section: watchingSection, forms: []form{{
			words:    "GAME record board",
			text:     "The board's record: its players, options and result, then every move with the players' comments, as text a program can read back (a board not over: the moves so far). It comes in the mail and attached as GAME-board.pgn, for Tanbo also as GAME-board.sgf.",
			more:     "The format is in [records.md](records.md); `pbemd rules replay FILE` checks a record move by move.",
			examples: []string{"tanbo record 101"},
		}}},
		{name: "tournament", run: (*cmd).tournament, section: tournamentsSection, readWords: []string{"show", "list"}, forms: []form{{
			words:    "tournament create NAME GAME KIND [option ...] userid password",
			text:     "Organise a tournament of a game. KIND is roundrobin (rr), swiss, knockout (ko), ladder or league. Options: the boards' game options (-size=13) and clock (-clock=..., --nagtime=D, --forfeittime=D); rounds=N (Swiss, 5), group=N (round robin groups), double (each pair twice), draws=replay|seed (knockout), reach=K (ladder, 3), division=N promote=P seasons=S (league, 8, 2 and no end), start=YYYY-MM-DD (it starts by itself then), limit=N (at most {{.Limits.TournamentEntrants}} players), unrated, novacation (vacations do not stop its clocks). NAME is 1 to 24 letters, digits, - or _; one player organises at most {{.Limits.Tournaments}} not over.",
			more:     "The kinds, pairings and standings are in [tournaments.md](tournaments.md).",
			examples: []string{"tournament create Spring tanbo swiss rounds=4 alice secret"},
		}, {
			words:    "tournament join NAME userid password",
			text:     "Enter a tournament before its start (a ladder or a league takes players later too). With a robot's user id and the organiser's password, the organiser enters a robot.",
			examples: []string{"tournament join Spring bob secret", "tournament join Spring tanbo-robot1 secret"},
		}, {
			words:    "tournament leave NAME userid password",
			text:     "Leave a tournament before its start.",
			examples: []string{"tournament leave Spring bob secret"},
		}, {
			words:    "tournament start NAME userid password",
			text:     "The organiser starts the tournament: its first round is paired and its boards are mailed. Each next round is paired by itself when the last game of a round ends, and the standings go to every player.",
			examples: []string{"tournament start Spring alice secret"},
		}, {
			words:    "tournament cancel NAME userid password",
			text:     "The organiser calls the tournament off before its start; the players who joined are told.",
			examples: []string{"tournament cancel Spring alice secret"},
		}, {
			words:    "tournament withdraw NAME userid password",
			text:     "Leave a tournament in play: your games in play and those left are forfeited.",
			examples: []string{"tournament withdraw Spring bob secret"},
		}, {
			words:    "tournament challenge NAME userid password userid2",
			text:     "On a ladder, challenge userid2, a player up to the ladder's reach above you; winning, you take his place.",
			examples: []string{"tournament challenge Club bob secret carol"},
		}, {
			words:    "tournament show NAME",
			text:     "A tournament: its settings, standings with tie-breaks, and the games of the round in play.",
			examples: []string{"tournament show Spring"},
		}, {
			words:    "tournament list [page N]",
			text:     "The tournaments, 50 a page.",
			examples: []string{"tournament list"},
		}}},
	}
	indexCommands()
}
