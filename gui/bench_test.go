package gui

import (
	"testing"

	"github.com/sower-engine/sower/protocol/client/clienttest"
)

// BenchmarkHumanMove measures a person's move from the page's message to
// the state that shows it: the socket round trip and the server's work
// (human against human, Katro 6x6, animation being the page's business).
func BenchmarkHumanMove(b *testing.B) {
	addr, _ := startServer(b)
	p := open(b, addr)
	p.send(map[string]any{"type": "new", "game": "katro", "south": "human", "north": "human"})
	p.await("the game", func(p *page) bool { return p.last.Game == "katro" })
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if p.last.Turn != "human" || len(p.last.Moves) > 60 {
			b.StopTimer()
			p.send(map[string]any{"type": "new", "game": "katro", "south": "human", "north": "human"})
			p.await("the game", func(p *page) bool { return len(p.last.Moves) == 0 })
			b.StartTimer()
		}
		n := len(p.last.Moves)
		p.send(map[string]any{"type": "move", "move": p.last.Legal[0], "ply": p.last.View})
		p.await("the move", func(p *page) bool { return len(p.last.Moves) == n+1 })
	}
}

// BenchmarkEngineMove measures a person's move and the engine's answer,
// from the page's message to the state that shows the engine's move,
// with the fake engine (it answers at once): the server's overhead on an
// engine move (position and go written, bestmove read, checked, sent).
func BenchmarkEngineMove(b *testing.B) {
	fake := clienttest.BuildFake(b)
	addr, _ := startServer(b, Engine{Name: "fake", Command: []string{fake}})
	p := open(b, addr)
	newGame := func() {
		p.send(map[string]any{"type": "new", "game": "katro", "south": "human", "north": "fake", "limitKind": "depth", "limitValue": "1"})
		p.await("the game", func(p *page) bool { return len(p.last.Moves) == 0 && p.last.Turn == "human" })
	}
	newGame()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if p.last.Turn != "human" || len(p.last.Moves) > 60 {
			b.StopTimer()
			newGame()
			b.StartTimer()
		}
		n := len(p.last.Moves)
		p.send(map[string]any{"type": "move", "move": p.last.Legal[0], "ply": p.last.View})
		p.await("the answer", func(p *page) bool { return len(p.last.Moves) >= n+2 || p.last.Turn == "over" })
	}
}
