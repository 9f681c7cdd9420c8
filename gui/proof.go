package gui

import (
	"strconv"
	"strings"

	"github.com/sower-engine/sower/protocol/client"
)

// proof is what an engine's latest "info string proven: …" line said
// (docs/protocol.md, Root moves and proven results), from the mover's
// view: the proven score in hundredths of a seed, for a Hoyito III exact
// final margin or a draw. A Katro win or loss needs no such line: its
// mate score is proven by itself. The score lines of a proven result
// look like estimates; proves tells them apart.
type proof struct {
	cp int
	ok bool
}

// read takes an info line; it reports whether the line was a proof (a
// win or loss in plies is noted as no margin: its score is a mate).
func (p *proof) read(line string) bool {
	const head = "info string proven:"
	if !strings.HasPrefix(line, head) {
		return false
	}
	f := strings.Fields(line[len(head):])
	*p = proof{}
	switch {
	case len(f) == 1 && f[0] == "draw":
		p.ok = true
	case len(f) == 5 && (f[0] == "win" || f[0] == "loss") && f[1] == "by" && f[2] == "exactly" && (f[4] == "seeds" || f[4] == "seed"):
		n, err := strconv.Atoi(f[3])
		if err != nil || n < 0 {
			return true
		}
		p.cp, p.ok = 100*n, true
		if f[0] == "loss" {
			p.cp = -p.cp
		}
	}
	return true
}

// proves reports whether in's score is the proven result: the same
// centi-seed score, exact (no bound).
func (p proof) proves(in client.Info) bool {
	return p.ok && in.HasScore && !in.IsMate && in.Bound == "" && in.CP == p.cp
}
