package frontier

import (
	"math"
	"testing"
)

// Summarize finds each line's farthest proven position and first open
// one, their median, and fits log(nodes): on nodes that double each ply
// back the factor is 2 and the extrapolation exact.
func TestSummarize(t *testing.T) {
	var recs []Record
	add := func(line string, level uint64, upto, open int) {
		for b := 1; b <= upto; b++ {
			recs = append(recs, Record{Line: line, Before: b, Proven: true, Outcome: "win", Nodes: level << b, MS: 2000, Fill: 0.25, HashMiB: 1})
		}
		if open > 0 {
			recs = append(recs, Record{Line: line, Before: open, Nodes: level << open, MS: 60000})
		}
	}
	add("a", 10, 10, 11)
	add("b", 10, 4, 5)
	add("c", 10, 20, 0)
	s := Summarize(recs, 3)
	want := []LineSummary{
		{Line: "a", Measured: 11, Farthest: 10, FarthestNodes: 10 << 10, FarthestMS: 2000, FarthestOutcome: "win", Open: 11},
		{Line: "b", Measured: 5, Farthest: 4, FarthestNodes: 10 << 4, FarthestMS: 2000, FarthestOutcome: "win", Open: 5},
		{Line: "c", Measured: 20, Farthest: 20, FarthestNodes: 10 << 20, FarthestMS: 2000, FarthestOutcome: "win"},
	}
	if len(s.Lines) != len(want) {
		t.Fatalf("lines %+v", s.Lines)
	}
	for i := range want {
		if s.Lines[i] != want[i] {
			t.Errorf("line %d: %+v, want %+v", i, s.Lines[i], want[i])
		}
	}
	if s.Median != 10 {
		t.Errorf("median %v, want 10", s.Median)
	}
	if pts := (10 - 2) + (4 - 2) + (20 - 2); s.Fit.Points != pts || math.Abs(s.Fit.Factor()-2) > 1e-9 || math.Abs(s.Fit.R2-1) > 1e-9 {
		t.Errorf("fit %+v (factor %v), want %d points, factor 2, R² 1", s.Fit, s.Fit.Factor(), pts)
	}
	if s.Within.Points != s.Fit.Points || math.Abs(s.Within.Factor()-2) > 1e-9 || math.Abs(s.Within.Intercept-s.Fit.Intercept) > 1e-9 {
		t.Errorf("the fit within lines %+v, want the pooled fit %+v", s.Within, s.Fit)
	}
	e := s.Estimate(s.Fit, 40)
	if math.Abs(e.Nodes/(10*math.Pow(2, 40))-1) > 1e-6 {
		t.Errorf("nodes at 40: %g, want %g", e.Nodes, 10*math.Pow(2, 40))
	}
	var nodes, ms float64
	for _, r := range recs {
		if r.Proven {
			nodes += float64(r.Nodes)
			ms += float64(r.MS)
		}
	}
	if nps := nodes / (ms / 1000); math.Abs(s.NPS/nps-1) > 1e-9 || math.Abs(e.Hours/(e.Nodes/nps/3600)-1) > 1e-9 {
		t.Errorf("nodes per second %v, want %v; hours %v", s.NPS, nps, e.Hours)
	}
	// The table per node, from the positions of a million nodes or more.
	if bpn := median(perNodeOf(recs)); math.Abs(s.BytesPerNode-bpn) > 1e-9 || bpn == 0 {
		t.Errorf("bytes per node %v, want %v", s.BytesPerNode, bpn)
	}
}

// Lines whose proofs cost more at every ply tilt the pooled fit, not the
// fit within the lines.
func TestSummarizeWithinLines(t *testing.T) {
	var recs []Record
	for b := 1; b <= 10; b++ {
		recs = append(recs, Record{Line: "cheap", Before: b, Proven: true, Nodes: 1 << b})
	}
	for b := 11; b <= 20; b++ {
		recs = append(recs, Record{Line: "dear", Before: b, Proven: true, Nodes: 1 << (b - 5)})
	}
	s := Summarize(recs, 1)
	if math.Abs(s.Within.Factor()-2) > 1e-9 || math.Abs(s.Within.R2-1) > 1e-9 {
		t.Errorf("within the lines: factor %v R² %v, want 2 and 1", s.Within.Factor(), s.Within.R2)
	}
	if s.Fit.Factor() >= 1.9 {
		t.Errorf("the pooled fit's factor %v: want it tilted below 2", s.Fit.Factor())
	}
}

// perNodeOf is the table in use per node of the proven records of a
// million nodes or more.
func perNodeOf(recs []Record) []float64 {
	var out []float64
	for _, r := range recs {
		if r.Proven && r.Nodes >= 1e6 && r.Fill < 0.5 {
			out = append(out, r.Fill*float64(r.HashMiB)*(1<<20)/float64(r.Nodes))
		}
	}
	return out
}
