package client

import (
	"strings"
	"testing"
)

// FuzzParseInfo: any line parses without a panic, and what it reports is
// in range: wdl per mille, the bound one of the two words, only with a
// score.
func FuzzParseInfo(f *testing.F) {
	for _, s := range []string{
		"info depth 12 seldepth 15 score cp 35 wdl 520 300 180 nodes 7 nps 9 time 1 pv a1 f6",
		"info depth 9 score mate -3 wdl 0 0 1000 lowerbound",
		"info score cp 5 wdl 1 2",
		"info wdl 2000 -1 x upperbound",
		"info string wdl 1 1 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var in Info
		in.Parse(line)
		for _, w := range in.WDL {
			if w < 0 || w > 1000 {
				t.Errorf("%q: wdl %v out of 0..1000", line, in.WDL)
			}
		}
		if in.HasWDL && !strings.Contains(line, "wdl") {
			t.Errorf("%q: wdl without the word", line)
		}
		if in.Bound != "" && (!in.HasScore || (in.Bound != "lowerbound" && in.Bound != "upperbound")) {
			t.Errorf("%q: bound %q, score %v", line, in.Bound, in.HasScore)
		}
	})
}
