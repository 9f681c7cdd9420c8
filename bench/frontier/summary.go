package frontier

import (
	"math"
	"sort"
)

// LineSummary is what the records say of one line.
type LineSummary struct {
	Line     string
	Measured int // positions measured
	// Farthest is the most plies before the end of a position proven (0:
	// none), with its proof's cost.
	Farthest         int
	FarthestNodes    uint64
	FarthestMS       int64
	FarthestOutcome  string
	FarthestProofLen int
	// Open is the fewest plies before the end of a position left open (0:
	// none: the walk reached the start, or has not failed yet).
	Open int
}

// Fit is a least-squares line through log(nodes) against the plies before
// the end: nodes ≈ exp(Intercept + Slope·before).
type Fit struct {
	Points    int
	Slope     float64
	Intercept float64
	R2        float64
}

// Factor is the growth of the nodes per ply back.
func (f Fit) Factor() float64 { return math.Exp(f.Slope) }

// Nodes is the fit's nodes at before plies before the end.
func (f Fit) Nodes(before int) float64 { return math.Exp(f.Intercept + f.Slope*float64(before)) }

// Summary is what a measurement's records say.
type Summary struct {
	Lines []LineSummary // in the order the records first name them
	// Median is the median of the lines' Farthest.
	Median float64
	// Fit is made over the proven positions at least FitFrom plies before
	// the end; Within is the same fit of each line's growth, with a level
	// of its own for each line (its slope from the differences to the
	// line's mean, its intercept through the mean of all points): lines
	// whose proofs cost more at every ply do not tilt it.
	Fit, Within Fit
	FitFrom     int
	// NPS is the nodes per second of the proven positions that took a
	// second or more (0: none did).
	NPS float64
	// BytesPerNode is the median table memory in use per node of the
	// proven positions of a million nodes or more whose table was less
	// than half full, settled by a solver of the measuring process (0:
	// none was).
	BytesPerNode float64
	// Via is the records' Via when one is: the positions were settled
	// elsewhere, and NPS is the rate of all the machines that did.
	Via string
}

// After returns, for each line of records (those of a shorter limit,
// say), where a walk with a longer limit begins: the ply after its
// farthest position proven, as Config.FromLines.
func After(recs []Record) map[string]int {
	out := map[string]int{}
	for _, l := range Summarize(recs, 1).Lines {
		out[l.Line] = l.Farthest + 1
	}
	return out
}

// Summarize sums records up, fitting over the proven positions at least
// fitFrom plies before the end.
func Summarize(recs []Record, fitFrom int) Summary {
	sum := Summary{FitFrom: fitFrom}
	at := map[string]int{}
	var xs, ys, perNode []float64
	var group []int // each point's line
	var nodes, ms float64
	for _, r := range recs {
		if r.Via != "" {
			sum.Via = r.Via
		}
		i, ok := at[r.Line]
		if !ok {
			i = len(sum.Lines)
			at[r.Line] = i
			sum.Lines = append(sum.Lines, LineSummary{Line: r.Line})
		}
		l := &sum.Lines[i]
		l.Measured++
		if !r.Proven {
			if l.Open == 0 || r.Before < l.Open {
				l.Open = r.Before
			}
			continue
		}
		if r.Before > l.Farthest {
			l.Farthest, l.FarthestNodes, l.FarthestMS = r.Before, r.Nodes, r.MS
			l.FarthestOutcome, l.FarthestProofLen = r.Outcome, r.Plies
		}
		if r.Before >= fitFrom && r.Nodes > 0 {
			xs = append(xs, float64(r.Before))
			ys = append(ys, math.Log(float64(r.Nodes)))
			group = append(group, i)
		}
		if r.MS >= 1000 {
			nodes += float64(r.Nodes)
			ms += float64(r.MS)
		}
		if r.Nodes >= 1e6 && r.Fill < 0.5 && r.Via == "" { // settled elsewhere: its tables not seen
			perNode = append(perNode, r.Fill*float64(r.HashMiB)*(1<<20)/float64(r.Nodes))
		}
	}
	far := make([]float64, len(sum.Lines))
	for i, l := range sum.Lines {
		far[i] = float64(l.Farthest)
	}
	sum.Median = median(far)
	sum.Fit = fit(xs, ys)
	sum.Within = within(xs, ys, group, len(sum.Lines))
	if ms > 0 {
		sum.NPS = nodes / (ms / 1000)
	}
	sum.BytesPerNode = median(perNode)
	return sum
}

// Estimate is the fit's cost of a position before plies before the end.
type Estimate struct {
	Before int
	Nodes  float64
	Hours  float64 // at the measured nodes per second, on one machine
	GiB    float64 // a table that holds what the proof touches
}

// Estimate extrapolates f (Fit or Within) to before plies before the end.
func (s *Summary) Estimate(f Fit, before int) Estimate {
	e := Estimate{Before: before, Nodes: f.Nodes(before)}
	if s.NPS > 0 {
		e.Hours = e.Nodes / s.NPS / 3600
	}
	e.GiB = e.Nodes * s.BytesPerNode / (1 << 30)
	return e
}

// fit is the least-squares line of ys against xs (the zero Fit for fewer
// than two distinct xs).
func fit(xs, ys []float64) Fit {
	n := float64(len(xs))
	var sx, sy, sxx, sxy, syy float64
	for i := range xs {
		sx += xs[i]
		sy += ys[i]
		sxx += xs[i] * xs[i]
		sxy += xs[i] * ys[i]
		syy += ys[i] * ys[i]
	}
	den := n*sxx - sx*sx
	if len(xs) < 2 || den == 0 {
		return Fit{Points: len(xs)}
	}
	f := Fit{Points: len(xs)}
	f.Slope = (n*sxy - sx*sy) / den
	f.Intercept = (sy - f.Slope*sx) / n
	if vy := n*syy - sy*sy; vy > 0 {
		r := (n*sxy - sx*sy) / math.Sqrt(den*vy)
		f.R2 = r * r
	}
	return f
}

// within is the least-squares slope of ys against xs within groups (each
// group's points less their mean), with the intercept that puts the line
// through the mean of all points; R2 is the share of the variance within
// the groups that it explains.
func within(xs, ys []float64, group []int, groups int) Fit {
	n := make([]float64, groups)
	mx := make([]float64, groups)
	my := make([]float64, groups)
	for i := range xs {
		g := group[i]
		n[g]++
		mx[g] += xs[i]
		my[g] += ys[i]
	}
	for g := range n {
		if n[g] > 0 {
			mx[g] /= n[g]
			my[g] /= n[g]
		}
	}
	var sxx, sxy, syy, sx, sy float64
	for i := range xs {
		dx, dy := xs[i]-mx[group[i]], ys[i]-my[group[i]]
		sxx += dx * dx
		sxy += dx * dy
		syy += dy * dy
		sx += xs[i]
		sy += ys[i]
	}
	f := Fit{Points: len(xs)}
	if sxx == 0 {
		return f
	}
	f.Slope = sxy / sxx
	f.Intercept = (sy - f.Slope*sx) / float64(len(xs))
	if syy > 0 {
		f.R2 = sxy * sxy / (sxx * syy)
	}
	return f
}

// median returns the median of v (0 when empty); v is sorted.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	sort.Float64s(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}
