// Package gui is "sower gui": a local web server with a board in the
// browser, for playing and analysing Katro and Hoyito III against any
// engine that speaks the protocol.
//
// The page (assets/, embedded with go:embed: plain HTML, CSS and
// JavaScript modules, no build step) talks to the server over one
// WebSocket per game, with JSON messages. The server keeps the game with
// board.Game and checks every move, the person's and the engine's; the
// page only draws the state the server sends. Engines run as child
// processes driven over the protocol by protocol/client, exactly as any
// GUI would drive them; the page can only name engines given to the
// server (Config.Engines), never a command.
//
// Each WebSocket has a session: a loop goroutine that owns the game and
// runs every change, a reader goroutine, and a goroutine per engine job
// (a move or an analysis). Jobs report back through the loop, tagged with
// a generation number, so an answer to a search that was stopped (by a
// take back, a new game, a move while analysing) is ignored. An engine
// process is used by one job at a time (a lock per engine). When the
// socket closes, the session stops its jobs and kills its engines; the
// game is kept. A game is named by a session id that the page keeps in
// its address: the store keeps each game's state, saved by its session
// as it changes, in memory and in a file (Config.StateDir), so that a
// reload, a reconnection or a restart of the server finds it as it
// stood, and a second tab on a game takes it over from the first. The
// files follow that split: session.go (the loop and the game), clock.go
// (the limit, the clocks and losses on time), engines.go (the jobs and
// engine processes), state.go (what the page is sent), store.go and
// saved.go (the games kept, and a game's state as saved), review.go and
// accuracy.go (a game's review), endgame.go (the game at its end:
// resigning, pausing, the hints for holes that cannot be played),
// sideline.go (side lines explored beside the game) and tables.go (the
// endgame tables' result for every move, with --tables). Moves are
// asked for under a timecontrol.Limit with timecontrol.NewMove, as sower
// match asks, so that both arbiters agree on clocks, margins and time
// faults.
//
// The WebSocket protocol (RFC 6455) is github.com/coder/websocket's:
// websocket.go keeps the socket's policy on top of it (text messages
// bounded by MaxMessage, an Origin that is the request's own host, pings
// a page must answer, a bounded close).
//
// docs/gui.md describes the page, the messages and the security checks.
package gui
