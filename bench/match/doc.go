// Package match plays engine-versus-engine matches of Katro and Hoyito III:
// the arbiter behind "sower match".
//
// Each side is a program that speaks the engine protocol (docs/protocol.md),
// started as a child process and driven over its standard input and output,
// or a built-in player ("builtin:random", "builtin:greedy"). The package
// uses the rules (board), the engine client (protocol/client), the game
// records (bench/record) and the time controls (bench/timecontrol) only,
// never the engine itself; the GUI, which arbitrates its own games, shares
// the records and time controls, not this package. The arbiter keeps every
// game with board.Game, so the rule book alone decides what is legal and
// when a game ends (including the no-capture limit and repetition); the
// engines only propose moves.
//
// # Driving an engine
//
// An engine is started once and kept for the games that follow:
//
//	uci                        → … uciok
//	setoption name … value …   the engine's own options (--option1, --option2)
//	setoption name UCI_Variant value <game>
//	setoption name CaptureSide|LastFour value …   (Hoyito III)
//	setoption name Repetition value threefold     (Hoyito III)
//	setoption name NoCaptureLimit value <n>
//	(Hoyito III with Repetition off: NoCaptureLimit, then Repetition off)
//	ucinewgame
//	isready                    → readyok
//	position startpos|fen <start> [moves …]
//	go wtime … btime … winc … binc … [movestogo …] | movetime … | nodes … | depth …
//	                           → info … bestmove <move>
//
// The rule options are sent before each game when they differ from what the
// engine last received (a traditional match changes LastFour between games).
// The position command always carries the whole game from its start, extra
// turns and passes included. The clocks sent are the arbiter's: wtime is
// South's, btime North's, and a side whose player has no clock gets none.
//
// # Forfeits
//
// A game is lost, with its termination (record.Termination) and reason
// recorded, by the player that
//
//   - answers with a move that does not parse or is not legal, or with
//     "bestmove (none)" while the game goes on (IllegalMove);
//   - answers later than its clock or move time plus the time margin
//     (TimeForfeit; the arbiter stops waiting at that moment);
//   - exits, closes its pipes, or cannot be started (Crash);
//   - gives no readyok, or no bestmove under a node or depth limit, within
//     the timeout (NoAnswer).
//
// A player that forfeits is stopped and a fresh one is started for its next
// game, so a confused engine cannot spoil later games.
//
// The clock: the time an engine uses is measured from the moment "go" is
// written to the moment its bestmove line is read. A move that overruns the
// clock by no more than the margin is accepted and leaves the clock at
// zero; the increment is then added.
//
// # Adjudication
//
// Off by default, Config.Resign and Config.Draw end a game on the
// engines' scores, as cutechess-cli's -resign and -draw do: a win both
// engines agree on for K moves each, or a draw both score near zero for
// K moves each after the first P plies. Config.Proven adjudicates a
// position whose result is proven, by a proof book, endgame tables or a
// bounded proof search the caller provides (the arbiter itself reads
// neither the book nor the tables, and searches nothing). The record's
// termination is record.Adjudication and its reason names the rule.
//
// # Openings and pairs
//
// Games 2k and 2k+1 start from the same opening with colours swapped:
// engine1 is South in odd-numbered games (1, 3, …) and North in the others.
// The two games form a pair for the pentanomial statistics, and the
// arbiter plays them one after the other: Concurrency is the number of
// pairs played at once. A Table plays single pairs with the same players
// and rules, and a Tally counts and writes games played elsewhere, so that
// a match can be spread over several machines (package bench/broker); a
// tournament's pairings are such matches (Tournament.PairingConfig), and
// a TournamentTally counts and writes their games.
//
// # Resuming
//
// Config.Played takes the games an earlier run of the same match wrote
// (its JSON records, read back with record.ReadRecords): Run counts them, in
// the summary and the SPRT, checks that each is a game of this match
// (number, game, rule options, start, players, sides, limits), and plays
// only the others, the lone game of an unfinished pair included. Since
// the built-in players and the openings come from the seed, a match
// resumed after an interruption plays the games the whole match would.
//
// # Tournaments
//
// A Tournament plays several engines against each other: a gauntlet (the
// first against each of the others) or a round robin (every pairing).
// Each pairing is a match of its own runner, played in pairs of games as
// a match is; the pairings take turns a pair at a time, a worker keeps
// the processes of one pairing's engines, and the games are numbered
// through the tournament, each record naming its pairing. The standings
// hold each pairing's summary; FitRatings fits Elo ratings to all the
// games by maximum likelihood in the logistic (Bradley–Terry) model, with
// the mean or a named engine held at 0, and the report adds a crosstable.
//
// # Statistics
//
// All counts are engine1's. The Elo line follows cutechess-cli: the score μ
// (draws half), Elo = −400·log10(1/μ − 1), a 95% interval from the
// per-game variance of the results (WDL.ErrorMargin), and the likelihood of
// superiority LOS = ½·(1 + erf((W − L)/√(2(W + L)))). The SPRT works on
// game pairs with fishtest's generalized likelihood ratio (exact
// multinomial likelihoods, not the normal approximation), in normalized or
// logistic Elo (SPRT.LLR gives the method).
package match
