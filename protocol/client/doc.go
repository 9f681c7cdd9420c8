// Package client is the GUI's side of the engine protocol: it starts an
// engine as a child process, completes the "uci" handshake, sets options,
// sends positions and "go" commands, and reads the engine's info lines and
// bestmove, with timeouts, so that a program driving engines (the match
// arbiter of bench/match, the browser GUI of package gui) never blocks on
// an engine that hangs, crashes or writes nonsense.
//
// An Engine is used by one goroutine at a time, except Close, which may be
// called from any goroutine once. Every method that waits takes a context
// and a time limit; what goes wrong is a *Fault saying in one line what
// happened and of which Kind it is (the engine crashed, did not answer, ran
// out of time, or the caller gave up).
//
// A typical session:
//
//	e, f := client.Start(ctx, client.Spec{Name: "sower", Command: []string{"sower"}}, 10*time.Second, nil)
//	if f != nil { … }
//	defer e.Close(client.QuitGrace)
//	e.NewGame(ctx, []client.Option{{Name: "UCI_Variant", Value: "katro"}})
//	r, f := e.Think(ctx, game, client.Go{MoveTime: time.Second, Wait: 2 * time.Second, Timed: true})
package client
