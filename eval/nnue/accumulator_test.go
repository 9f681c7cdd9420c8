package nnue

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

// slowAccumulator computes a perspective's accumulator from Features, by
// the definition: the bias plus the row of every active input.
func slowAccumulator(m *Model, p *board.Position, persp board.Side) [Hidden]int16 {
	acc := m.net.FTBias
	for _, i := range m.Features(p, persp, nil) {
		for h := range acc {
			acc[h] += m.net.FT[i*Hidden+h]
		}
	}
	return acc
}

// TestIncrementalEqualsRefresh plays random games on every board and
// checks after every move that the accumulator updated move by move
// (under each policy) equals a refresh and the slow definition, and that
// the scores agree. Katro's relay sowing changes many holes in one move
// and Hoyito III's captures change the capture inputs: the test requires
// both to have happened.
func TestIncrementalEqualsRefresh(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 10
	}
	for _, name := range board.Names() {
		t.Run(name, func(t *testing.T) {
			m := model(t, name, 1)
			rng := rand.New(rand.NewPCG(2, 3))
			manyChanged, captures := 0, 0
			for range games {
				var acc [3]Accumulator // by policy
				var from Accumulator
				var earlier []Accumulator
				for ply, p := range randomGame(m.v, rng, 400) {
					var fresh Accumulator
					m.Refresh(&fresh, &p)
					// UpdateFrom starts from its own accumulator (emptied
					// every seventh ply) or from an earlier position's.
					var base Accumulator
					if len(earlier) > 0 {
						base = earlier[rng.IntN(len(earlier))]
					}
					if ply%7 == 0 {
						from.Invalidate()
					}
					m.UpdateFrom(&from, &base, &p)
					if !from.Equal(&fresh) {
						t.Fatalf("ply %d %s: UpdateFrom's accumulator differs from a refresh", ply, p.String())
					}
					earlier = append(earlier, fresh)
					for pol := range acc {
						n := m.UpdateWith(&acc[pol], &p, Policy(pol))
						if n > 6 {
							manyChanged++
						}
						if !acc[pol].Equal(&fresh) {
							t.Fatalf("ply %d %s: policy %d's accumulator differs from a refresh", ply, p.String(), pol)
						}
					}
					for s := board.South; s <= board.North; s++ {
						if slow := slowAccumulator(&m, &p, s); slow != fresh.v[s] {
							t.Fatalf("ply %d %s: %s's accumulator differs from the definition", ply, p.String(), s)
						}
					}
					if got, want := m.Evaluate(&acc[Incremental], p.Side()), m.EvaluatePosition(&p); got != want {
						t.Fatalf("ply %d: incremental score %d, refresh %d", ply, got, want)
					}
					us, them := &fresh.v[p.Side()], &fresh.v[p.Side().Other()]
					if got, want := m.propagate(us, them), m.net.propagate(us, them); got != want {
						t.Fatalf("ply %d: the model's layers score %d, the network's by definition %d", ply, got, want)
					}
					if p.Captured(board.South)+p.Captured(board.North) > 0 {
						captures++
					}
				}
			}
			if manyChanged == 0 {
				t.Error("no move changed more than 6 holes: relay sowing was not tested")
			}
			if m.v.Family() == board.Hoyito && captures == 0 {
				t.Error("no capture happened")
			}
		})
	}
}

// TestFeatures checks the inputs of a start position by hand: every hole
// holds the start's seeds, so each hole's input is its slot's bucket of
// that count, the perspective's own holes first.
func TestFeatures(t *testing.T) {
	for _, tc := range []struct {
		name  string
		base  int // the board's first slot
		lanes int
		seeds int // per hole at the start
	}{
		{board.NameKatro, 0, 18, 2},
		{board.NameKatro6x3, 36, 9, 2},
		{board.NameKatro4x6, 54, 12, 2},
		{board.NameKatro4x4, 78, 8, 2},
		{board.NameHoyito3, 0, 6, 4},
	} {
		m := model(t, tc.name, 1)
		p := m.v.Start()
		if got := p.Count(m.v.CircuitHole(board.South, 0)); got != tc.seeds {
			t.Fatalf("%s: start holds %d seeds a hole, the test expects %d", tc.name, got, tc.seeds)
		}
		for _, persp := range []board.Side{board.South, board.North} {
			got := m.Features(&p, persp, nil)
			var want []int
			for k := 0; k < 2*tc.lanes; k++ {
				want = append(want, (tc.base+k)*Buckets+tc.seeds-1)
			}
			if m.v.Family() == board.Hoyito {
				want = append(want, 12*Buckets, 12*Buckets+captureInputs)
			}
			// Features lists South's holes first; from North's point of
			// view they are the opponent's.
			if persp == board.North && m.v.Family() == board.Katro {
				want = append(want[tc.lanes:2*tc.lanes:2*tc.lanes], want[:tc.lanes]...)
			}
			if m.v.Family() == board.Hoyito && persp == board.North {
				holes := append(append([]int{}, want[tc.lanes:2*tc.lanes]...), want[:tc.lanes]...)
				want = append(holes, 12*Buckets+captureInputs, 12*Buckets)
			}
			if !equalInts(got, want) {
				t.Errorf("%s from %s: inputs %v, want %v", tc.name, persp, got, want)
			}
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestBuckets checks the bucket of every count against the boundaries of
// the package documentation.
func TestBuckets(t *testing.T) {
	bounds := []struct{ lo, hi, b int }{{0, 0, 0}, {1, 1, 1}, {8, 8, 8}, {9, 11, 9}, {12, 15, 10}, {16, 23, 11}, {24, 127, 12}}
	for _, bd := range bounds {
		for c := bd.lo; c <= bd.hi; c++ {
			if got := bucket(uint8(c)); int(got) != bd.b {
				t.Errorf("bucket(%d) = %d, want %d", c, got, bd.b)
			}
		}
	}
	for c := 2; c <= 7; c++ {
		if got := bucket(uint8(c)); int(got) != c {
			t.Errorf("bucket(%d) = %d", c, got)
		}
	}
}

// TestCaptureInputs checks a Hoyito III position with captures: each
// side's captures in fours, the perspective's first.
func TestCaptureInputs(t *testing.T) {
	m := model(t, board.NameHoyito3, 1)
	p, err := m.v.ParsePosition("0,2,1,0,3,1/2,0,1,3,1,2 S 20 12 0")
	if err != nil {
		t.Fatal(err)
	}
	f := m.Features(&p, board.North, nil)
	got := f[len(f)-2:]
	want := []int{12*Buckets + 5 + captureInputs, 12*Buckets + 3} // South 20 = 5 fours (the opponent's), North 12 = 3
	if !equalInts(got, want) {
		t.Errorf("North's capture inputs %v, want %v", got, want)
	}
}

func TestNewModelRefuses(t *testing.T) {
	if _, err := NewModel(randomNet(board.Hoyito, 1), variant(t, board.NameKatro)); err == nil {
		t.Error("a Hoyito III network bound to Katro")
	}
	bad := randomNet(board.Katro, 1)
	bad.FT = bad.FT[:10]
	if _, err := NewModel(bad, variant(t, board.NameKatro)); err == nil {
		t.Error("a network with missing weights bound")
	}
	// 2·Hidden = 64 weights of 32767 times QA sum to 534,757,440: with a
	// bias of 1,612,726,207 a neuron's sum reaches 2^31 − 1 exactly, one
	// more overflows.
	big := randomNet(board.Katro, 1)
	for i := range big.Dense[3] {
		big.Dense[3][i] = 32767
	}
	if 2*Hidden*32767*QA != 534757440 {
		t.Fatal("the sizes changed: derive the bias below again")
	}
	big.DenseBias[3] = 1612726208
	if _, err := NewModel(big, variant(t, board.NameKatro)); err == nil || !strings.Contains(err.Error(), "neuron 3") {
		t.Errorf("a network whose dense sums could overflow: %v", err)
	}
	big.DenseBias[3]--
	if _, err := NewModel(big, variant(t, board.NameKatro)); err != nil {
		t.Errorf("the largest safe weights: %v", err)
	}
}

func TestEvaluateAllocs(t *testing.T) {
	m := model(t, board.NameKatro, 1)
	games := randomGame(m.v, rand.New(rand.NewPCG(1, 1)), 40)
	var a Accumulator
	allocs := testing.AllocsPerRun(10, func() {
		for i := range games {
			m.Update(&a, &games[i])
			_ = m.Evaluate(&a, games[i].Side())
		}
		_ = m.EvaluatePosition(&games[0])
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run", allocs)
	}
}

// changedHoles counts, by the board's holes, those whose bucket differs
// between p and q, and the capture counts (in fours, Hoyito III) that
// differ: what an update returns.
func changedHoles(v *board.Variant, p, q *board.Position) int {
	buckets := func(x *board.Position) map[board.Move]uint8 {
		out := map[board.Move]uint8{}
		for s := board.South; s <= board.North; s++ {
			c, _ := x.Circuit(s)
			for k := 0; k < v.CircuitLen(); k++ {
				out[v.CircuitHole(s, k)] = bucket(c[k])
			}
		}
		return out
	}
	bp, bq := buckets(p), buckets(q)
	n := 0
	for h, b := range bp {
		if bq[h] != b {
			n++
		}
	}
	if v.Family() == board.Hoyito {
		for s := board.South; s <= board.North; s++ {
			if p.Captured(s)/4 != q.Captured(s)/4 {
				n++
			}
		}
	}
	return n
}

// TestBoardChange refreshes one accumulator on each board in turn and
// follows a game of the last: what an earlier board left in it must not
// count as changed holes or reach the values. Every update's count is
// checked against changedHoles.
func TestBoardChange(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 1))
	names := board.Names()
	for _, to := range names {
		for _, from := range names {
			if from == to {
				continue
			}
			mf, mt := model(t, from, 2), model(t, to, 3)
			var a Accumulator
			g := randomGame(mf.v, rng, 30)
			mf.Refresh(&a, &g[len(g)-1])
			game := randomGame(mt.v, rng, 200)
			mt.Refresh(&a, &game[0])
			for ply := 1; ply < len(game); ply++ {
				p := &game[ply]
				got := mt.UpdateWith(&a, p, Incremental)
				if want := changedHoles(mt.v, &game[ply-1], p); got != want {
					t.Fatalf("%s after %s, ply %d: %d changed, want %d", to, from, ply, got, want)
				}
				var fresh Accumulator
				mt.Refresh(&fresh, p)
				if !a.Equal(&fresh) {
					t.Fatalf("%s after %s, ply %d: the accumulator differs from a refresh", to, from, ply)
				}
			}
		}
	}
}
