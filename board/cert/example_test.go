package cert_test

import (
	"bytes"
	"context"
	"fmt"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
)

// North, not to move, wins this katro-4x4 position by playing a4 at each of
// its turns, whatever South does: the certificate lists North's two
// positions of the proof, and the checker plays every answer of South.
func Example() {
	v, _ := board.New(board.NameKatro4x4)
	root, _ := v.ParsePosition("7,4,1,7/0,3,6,2/0,0,0,0/0,0,0,2 S 0")
	a4, _ := v.ParseMove("a4")
	oracle := func(p *board.Position) (board.Move, bool) { return a4, true }
	var b bytes.Buffer
	if _, err := cert.Write(context.Background(), &b, root, board.North, oracle, cert.Options{}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(b.String())
	st, err := cert.Verify(context.Background(), &b, root, cert.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s wins: %d positions listed, %d of South reached, longest line %d plies\n",
		st.Winner, st.Listed, st.LoserReached, st.Longest)
	// Output:
	// # sower proof certificate v1
	// # game katro-4x4
	// # root 7,4,1,7/0,3,6,2/0,0,0,0/0,0,0,2 S
	// # winner North
	// 7,4,1,7/0,3,6,2/0,0,1,1/0,0,0,0 N	a4
	// 2,1,3,9/0,6,9,1/0,1,0,0/0,0,0,0 N	a4
	// # positions 2
	// North wins: 2 positions listed, 3 of South reached, longest line 4 plies
}
