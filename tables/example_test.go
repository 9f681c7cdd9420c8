package tables_test

import (
	"context"
	"fmt"
	"os"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/tables"
)

// Build the 8-seed tables of the default rules, open them and probe a
// position: North to move forces a margin of +8 (all eight seeds) within
// 27 plies, and c2 and f2 keep that value.
func Example() {
	dir, err := os.MkdirTemp("", "tables")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	r := board.DefaultRules()
	if err := tables.Build(context.Background(), tables.BuildConfig{Dir: dir, Options: tables.OptionsFor(r), Seeds: 8}); err != nil {
		fmt.Println(err)
		return
	}
	t, err := tables.Open(dir, r)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer t.Close()
	v, _ := board.New(board.NameHoyito3)
	p, _ := v.ParsePosition("0,0,1,2,0,1/1,0,2,0,1,0 N 40 0 0")
	e, moves, _ := t.Moves(&p)
	fmt.Printf("lo %d hi %d distance %d exact %v\n", e.Lo, e.Hi, e.Distance(), e.Exact())
	for _, m := range moves {
		fmt.Printf("%s: lo %d hi %d keeps %v\n", m.Move, m.Entry.Lo, m.Entry.Hi, m.Keeps)
	}
	// Output:
	// lo 8 hi 8 distance 27 exact true
	// c2: lo 8 hi 8 keeps true
	// d2: lo -8 hi 8 keeps false
	// f2: lo 8 hi 8 keeps true
}
