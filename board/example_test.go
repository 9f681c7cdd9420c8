package board_test

import (
	"fmt"

	"github.com/sower-engine/sower/board"
)

// Playing the rule book's first Katro example: a1 relays round South's
// circuit and captures from c4.
func ExamplePosition_After() {
	v, _ := board.New(board.NameKatro)
	p := v.Start()
	m, _ := v.ParseMove("a1")
	next, err := p.After(m)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(next.String())
	fmt.Println(board.FormatMoves(next.LegalMoves()))
	// Output:
	// 2,2,2,2,2,2/2,2,2,2,2,2/2,2,0,2,2,2/3,3,0,3,3,3/0,3,3,0,3,3/1,0,1,4,4,1 N 0
	// a6 b6 c6 d6 e6 f6
}

// Errors say what is wrong and where.
func ExampleVariant_ParsePosition() {
	v, _ := board.New(board.NameKatro)
	_, err := v.ParsePosition("2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0")
	fmt.Println(err)
	p := v.Start()
	fmt.Println(p.CheckMove(board.HoleMove(3, 3)))
	// Output:
	// row 4 has 5 holes, want 6
	// d4 is not in South's back row (row 1)
}

// A Game tracks the history the repetition rule needs and applies every
// end of the rule book; perft counts move sequences.
func ExampleGame() {
	v, _ := board.New(board.NameHoyito3)
	g := board.NewGame(v.Start())
	ms, _ := v.ParseMoves("a1 c2 a2")
	if err := g.PlayAll(ms); err != nil {
		fmt.Println(err)
		return
	}
	p := g.Position()
	fmt.Println(p.String(), g.Status().Over())
	start := v.Start()
	fmt.Println(start.Perft(3))
	// Output:
	// 2,3,3,3,1,9/0,11,5,1,4,2 S 0 4 1 false
	// 158
}
