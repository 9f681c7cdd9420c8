package eval

import (
	"github.com/sower-engine/sower/board"
)

// The learned evaluation's terms, family by family: a scan that lists the
// features (for the tuner and for people), and a direct computation of the
// score that the search calls.

// katroScan scans a Katro position. Phase follows the seed balance:
// PhaseMax while both sides hold half the seeds, falling to 0 as the
// weaker side's share falls to nothing.
func (e *Evaluator) katroScan(p *board.Position, a *Active, f *features) {
	me := p.Side()
	front, fr, bd := e.katroFeatures(p, f)
	const nb = 7
	for s := board.South; s <= board.North; s++ {
		circ, n := p.Circuit(s)
		sign := int16(1)
		if s != me {
			sign = -1
		}
		for k := 0; k < n; k++ {
			if c := circ[k]; c != 0 {
				a.Entries[a.N] = Entry{int16(NumScalar + k*nb + int(e.bucket[c&127]) - 1), sign}
				a.N++
			}
		}
		f[s][LKThreats] = e.katroThreats(s, &circ, n, &front, &fr, &bd)
	}
	half := p.Variant().Total() / 2
	weak := min(f[board.South][KatroSeeds], f[board.North][KatroSeeds])
	a.Phase = min(weak*PhaseMax/half, PhaseMax)
}

// katroThreats counts s's back-row holes whose first lap (shorter than the
// circuit) ends on an occupied hole of s's front row facing an occupied
// hole of the opponent's front row.
func (e *Evaluator) katroThreats(s board.Side, circ *[18]uint8, n int, front *[2][6]uint8, fr, bd *[2]int) int {
	o := s.Other()
	if fr[s] < 0 || fr[o] < 0 {
		return 0
	}
	cols := e.geo.cols
	t := 0
	for k := bd[s] * cols; k < (bd[s]+1)*cols; k++ {
		c := int(circ[k])
		if c == 0 || c >= n {
			continue
		}
		land := k + c
		if land >= n {
			land -= n
		}
		if land/cols == fr[s] && circ[land] != 0 && front[o][e.geo.col[s][land]] != 0 {
			t++
		}
	}
	return t
}

// katroLearned is the learned Katro evaluation computed directly, without
// listing the features: the same score as Score(Features).
func (e *Evaluator) katroLearned(p *board.Position) int {
	var f features
	front, fr, bd := e.katroFeatures(p, &f)
	me, opp := p.Side(), p.Side().Other()
	const nb = 7
	pw := &e.packed
	var acc int64
	circ, n := p.Circuit(me)
	for k := 0; k < n; k++ {
		if c := circ[k]; c != 0 {
			acc += pw[NumScalar+k*nb+int(e.bucket[c&127])-1]
		}
	}
	threats := e.katroThreats(me, &circ, n, &front, &fr, &bd)
	circ, _ = p.Circuit(opp)
	for k := 0; k < n; k++ {
		if c := circ[k]; c != 0 {
			acc -= pw[NumScalar+k*nb+int(e.bucket[c&127])-1]
		}
	}
	threats -= e.katroThreats(opp, &circ, n, &front, &fr, &bd)
	for t := KatroSeeds; t < numKatro; t++ {
		acc += pw[t] * int64(f[me][t]-f[opp][t])
	}
	acc += pw[LKThreats]*int64(threats) + pw[LKTempo]
	mg, eg := unpack(acc)
	weak := min(f[board.South][KatroSeeds], f[board.North][KatroSeeds])
	return taper(mg, eg, min(weak*PhaseMax/(p.Variant().Total()/2), PhaseMax))
}

// hoyitoScan scans a Hoyito III position. Phase follows the seeds on the
// board: PhaseMax at the start, 0 on an empty board.
func (e *Evaluator) hoyitoScan(p *board.Position, a *Active, f *features) {
	me := p.Side()
	circ, n := p.Circuit(board.South)
	cols := n / 2
	const nb = 8
	onBoard := 0
	for s := board.South; s <= board.North; s++ {
		ft := &f[s]
		ft[HoyitoCaptured] = p.Captured(s)
		sign := int16(1)
		if s != me {
			sign = -1
		}
		first := int(s) * cols
		for j := 0; j < n; j++ {
			k := first + j
			if k >= n {
				k -= n
			}
			seeds := int(circ[k])
			if seeds == 0 {
				continue
			}
			a.Entries[a.N] = Entry{int16(NumScalar + j*nb + int(e.bucket[seeds&127]) - 1), sign}
			a.N++
			if j >= cols {
				continue
			}
			ft[HoyitoRow] += seeds
			ft[HoyitoMoves]++
			if land, ok := makesFour(&circ, n, k, seeds); ok {
				ft[HoyitoThrees]++
				if land/cols != int(s) {
					ft[LHThreesAcross]++
				}
			}
		}
		onBoard += ft[HoyitoRow]
	}
	a.Phase = onBoard * PhaseMax / p.Variant().Total()
}

// hoyitoLearned is the learned Hoyito III evaluation computed directly,
// without listing the features: the same score as Score(Features).
func (e *Evaluator) hoyitoLearned(p *board.Position) int {
	me, opp := p.Side(), p.Side().Other()
	circ, n := p.Circuit(board.South)
	cols := n / 2
	const nb = 8
	var f features
	var acc int64
	onBoard := 0
	for k := 0; k < n; k++ {
		seeds := int(circ[k])
		if seeds == 0 {
			continue
		}
		onBoard += seeds
		j := k - int(me)*cols
		if j < 0 {
			j += n
		}
		acc += e.across[j*nb+int(e.bucket[seeds&127])-1]
		ft := &f[k/cols]
		ft[HoyitoRow] += seeds
		ft[HoyitoMoves]++
		if land, ok := makesFour(&circ, n, k, seeds); ok {
			ft[HoyitoThrees]++
			if land/cols != k/cols {
				ft[LHThreesAcross]++
			}
		}
	}
	pw := &e.packed
	acc += pw[HoyitoCaptured]*int64(p.Captured(me)-p.Captured(opp)) + pw[LHTempo]
	for t := HoyitoRow; t <= Term(LHThreesAcross); t++ {
		acc += pw[t] * int64(f[me][t]-f[opp][t])
	}
	mg, eg := unpack(acc)
	return taper(mg, eg, onBoard*PhaseMax/p.Variant().Total())
}
