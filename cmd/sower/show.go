package main

import (
	"encoding/json"
	"fmt"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol"
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
	// Tables is what the endgame tables say (with --tables), or absent.
	Tables *tableView `json:"tables,omitempty"`
	// Note explains a position that was over as read (see overNote), or
	// is absent.
	Note string `json:"note,omitempty"`
}

func (c *cli) show(args []string) error {
	var g gameFlags
	var asJSON bool
	var tdir string
	fs := c.flags("show", `--game G [--fen F] [--moves "m1 m2 …"] [--json] [--tables DIR]`)
	g.add(fs, true)
	fs.BoolVar(&asJSON, "json", false, "print one JSON object instead of the diagram")
	fs.StringVar(&tdir, "tables", "", "Hoyito III endgame tables: show their bounds for the position")
	if err := parse(fs, args); err != nil {
		return err
	}
	game, err := g.build()
	if err != nil {
		return err
	}
	p := game.Position()
	st := game.Status()
	legal := protocol.LegalMoves(game)
	var tv *tableView
	if tdir != "" {
		if tv, err = viewTables(tdir, &p); err != nil {
			return err
		}
	}
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
			Note:     overNote(game),
		}
		for _, m := range legal {
			out.Legal = append(out.Legal, m.String())
		}
		out.Tables = tv
		enc := json.NewEncoder(c.stdout)
		return enc.Encode(out)
	}
	if err := protocol.WriteBoard(c.stdout, game); err != nil {
		return err
	}
	if note := overNote(game); note != "" {
		fmt.Fprintf(c.stdout, "Note: %s\n", note)
	}
	tv.write(c.stdout)
	return nil
}

// overNote explains a game that the no-capture limit ended before any
// move: a position read from notation whose clock is at or past the limit
// is legal notation (the rule book counts a clock read from notation
// toward the limit) for a game already over. It says so, with the clock
// and the limit, and for Hoyito III that the seeds left on the board went
// to the rows' owners; "" for any other game.
func overNote(g *board.Game) string {
	st := g.Status()
	if st.Reason != board.ReasonLimit || g.Ply() > 0 {
		return ""
	}
	p := g.Position()
	lim := p.Variant().Rules().NoCaptureLimit
	note := fmt.Sprintf("the game is over before any move: the clock %d is at or past the no-capture limit of %d plies", p.Clock(), lim)
	if p.Variant().Family() == board.Hoyito {
		note += fmt.Sprintf(", so each player took the seeds left in their own row (final totals %d-%d)", st.Seeds[board.South], st.Seeds[board.North])
	}
	return note
}
