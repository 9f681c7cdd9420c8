package tune_test

import (
	"bytes"
	"fmt"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/tune"
)

// A data file holds a header naming the game, then one record per
// position with the search score and the game's result.
func ExampleWriter() {
	v, _ := board.New(board.NameHoyito3)
	p, _ := v.ParsePosition("8,1,1,1,7,7/0,8,2,7,2,0 N 0 4 0")
	var buf bytes.Buffer
	w, _ := tune.NewWriter(&buf, v)
	w.Write(&tune.Record{Game: 7, Ply: 12, Pos: p, Score: 250, Result: board.NorthWins})
	w.Flush()

	r, err := tune.NewReader(&buf)
	if err != nil {
		fmt.Println(err)
		return
	}
	var rec tune.Record
	if err := r.Read(&rec); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Variant().Name(), rec.Game, rec.Ply, rec.Pos.String(), rec.Score, rec.Target())
	fmt.Println(tune.RecordSize(v), "bytes a record")
	// Output:
	// hoyito3 7 12 8,1,1,1,7,7/0,8,2,7,2,0 N 0 4 0 250 1
	// 28 bytes a record
}
