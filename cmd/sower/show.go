package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/sower-engine/sower/board"
)

// showJSON is the object sower show --json prints.
type showJSON struct {
	Game     string   `json:"game"`
	FEN      string   `json:"fen"`
	Side     string   `json:"side"`
	Legal    []string `json:"legal"`
	Status   string   `json:"status"`
	Reason   string   `json:"reason"`
	Captured [2]int   `json:"captured"`
	Ply      int      `json:"ply"`
}

func (c *cli) show(args []string) error {
	var g gameFlags
	var asJSON bool
	fs := c.flags("show", `--game G [--fen F] [--moves "m1 m2 …"] [--json]`)
	g.add(fs, true)
	fs.BoolVar(&asJSON, "json", false, "print one JSON object instead of the diagram")
	if err := parse(fs, args); err != nil {
		return err
	}
	game, err := g.build()
	if err != nil {
		return err
	}
	p := game.Position()
	st := game.Status()
	legal := legalMoves(game)
	if asJSON {
		out := showJSON{
			Game:     p.Variant().Name(),
			FEN:      p.String(),
			Side:     string(p.Side().Letter()),
			Legal:    make([]string, 0, len(legal)),
			Status:   st.Result.String(),
			Reason:   st.Reason.String(),
			Captured: [2]int{p.Captured(board.South), p.Captured(board.North)},
			Ply:      game.Ply(),
		}
		for _, m := range legal {
			out.Legal = append(out.Legal, m.String())
		}
		enc := json.NewEncoder(c.stdout)
		return enc.Encode(out)
	}
	writeBoard(c.stdout, game)
	return nil
}

// legalMoves returns the legal moves of the game's position, none once the
// game is over.
func legalMoves(g *board.Game) []board.Move {
	if g.Status().Over() {
		return nil
	}
	p := g.Position()
	return p.LegalMoves()
}

// writeBoard prints the diagram and the Fen, Legal and Status lines.
func writeBoard(w io.Writer, g *board.Game) {
	p := g.Position()
	fmt.Fprint(w, p.Diagram())
	fmt.Fprintf(w, "Fen: %s\n", p.String())
	fmt.Fprintf(w, "Legal: %s\n", board.FormatMoves(legalMoves(g)))
	fmt.Fprintf(w, "Status: %s\n", describeStatus(g.Status()))
}

// describeStatus writes a status for people: "ongoing", "South wins (no
// legal move)", "draw (repetition)", with seed totals for Hoyito III.
func describeStatus(st board.Status) string {
	if !st.Over() {
		return "ongoing"
	}
	s := "draw"
	if w, ok := st.Result.Winner(); ok {
		s = w.String() + " wins"
	}
	s += " (" + st.Reason.String()
	if st.Seeds != [2]int{} {
		s += fmt.Sprintf(", %d-%d", st.Seeds[0], st.Seeds[1])
	}
	return s + ")"
}
