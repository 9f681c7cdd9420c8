package client_test

import (
	"fmt"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// The commands a client sends for a Hoyito III game with an extra turn.
func ExamplePositionCommand() {
	v, _ := board.New(board.NameHoyito3)
	g := board.NewGame(v.Start())
	ms, _ := v.ParseMoves("a1 c2 a2")
	g.PlayAll(ms)
	fmt.Println(client.PositionCommand(g))
	fmt.Println(client.Go{Clock: [2]time.Duration{9 * time.Second, 8 * time.Second}, Inc: [2]time.Duration{100 * time.Millisecond, 100 * time.Millisecond}, HasClock: [2]bool{true, true}}.Command())
	// Output:
	// position startpos moves a1 c2 a2
	// go wtime 9000 btime 8000 winc 100 binc 100
}

// Info folds the engine's info lines.
func ExampleInfo_Parse() {
	var in client.Info
	in.Parse("info depth 12 seldepth 15 score cp 34 nodes 81234 nps 2712345 time 30 pv a1 f6 c1")
	fmt.Println(in.Depth, in.CP, in.Nodes, in.PV)
	// Output: 12 34 81234 [a1 f6 c1]
}
