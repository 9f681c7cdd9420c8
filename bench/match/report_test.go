package match

import (
	"strings"
	"testing"

	"github.com/sower-engine/sower/bench/record"
)

func TestReport(t *testing.T) {
	s := Summary{
		Names: [2]string{"new", "old"},
		Score: WDL{6, 2, 2}, AsSouth: WDL{4, 0, 1}, AsNorth: WDL{2, 2, 1}, Sides: WDL{6, 2, 2},
		Pairs: Penta{0, 1, 1, 2, 1}, SPRT: &SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05},
		LLR: 3.1, Decision: AcceptH1,
		Forfeits: [2]map[record.Termination]int{{}, {record.TimeForfeit: 2, record.Crash: 1}},
	}
	var b strings.Builder
	s.WriteReport(&b)
	// The Elo line is TestWDL's 6-2-2 case: 147.19 ± 268.72, LOS 92.135%.
	want := `Score of new vs old: 6 - 2 - 2  [0.700] 10
...      new playing South: 4 - 0 - 1  [0.900] 5
...      new playing North: 2 - 2 - 1  [0.500] 5
...      South vs North: 6 - 2 - 2  [0.700] 10
Elo difference: 147.2 +/- 268.7, LOS: 92.1 %, DrawRatio: 20.0 %
Ptnml(0-2): [0, 1, 1, 2, 1]
SPRT: llr 3.1 (105.3%), lbound -2.94, ubound 2.94 - H1 was accepted
Forfeits: old 2 time forfeit, 1 crash
`
	if got := b.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
