package dfpn

import (
	"context"
	"testing"
)

// bucketKeys returns n keys of one bucket of t: the keys below 2^64
// divided by its buckets fall in the first.
func bucketKeys(t *table, n int) []uint64 {
	keys := make([]uint64, n)
	for i := range keys {
		keys[i] = 5 + uint64(i)
		if t.bucket(keys[i]) != 0 {
			panic("bucketKeys: a key outside the first bucket")
		}
	}
	return keys
}

// TestReplacement fills a bucket by hand and checks which entry a new one
// replaces: the one with the least work below it, whether final or not; of
// equal work an unfinished one before a final one; never one that a thread
// is searching.
func TestReplacement(t *testing.T) {
	final := result{pn: 0, dn: inf, rep: noRep}
	open := result{pn: 5, dn: 7, rep: noRep}
	cases := []struct {
		name    string
		results []result
		works   []uint64
		busy    int // the entry a thread is searching, or -1
		gone    int // the entry the fifth replaces
	}{
		{"one-node proofs go before a costly unfinished entry", []result{final, final, open, final}, []uint64{1, 2, 1_000_000, 3}, -1, 0},
		{"the cheapest, final or not", []result{final, open, final, open}, []uint64{50, 40, 30, 60}, -1, 2},
		{"of equal work the unfinished one", []result{final, open, final, final}, []uint64{10, 10, 10, 10}, -1, 1},
		{"not one being searched", []result{open, open, final, final}, []uint64{1, 2, 3, 4}, 0, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tt := newTable(1, false)
			keys := bucketKeys(tt, 5)
			for i, r := range c.results {
				tt.store(keys[i], r, c.works[i])
			}
			if c.busy >= 0 {
				tt.enter(keys[c.busy], c.results[c.busy])
			}
			tt.store(keys[4], open, 1)
			for i := range 5 {
				_, found := tt.find(keys[i])
				if want := i != c.gone; found != want {
					t.Errorf("entry %d: in the table %v, want %v", i, found, want)
				}
			}
		})
	}
}

// TestEnterFinal: a node entered with open numbers is in the table,
// marked busy, with them; one entered with final numbers is not (a proof
// or disproof enters only by store, with its distance, clock and flags),
// so that no other thread reads a proof of no plies or a disproof without
// its repetition mark; a node already in the table keeps its entry and is
// marked busy whatever the numbers.
func TestEnterFinal(t *testing.T) {
	tt := newTable(1, false)
	keys := bucketKeys(tt, 4)
	tt.enter(keys[0], result{pn: 3, dn: 4, rep: noRep})
	if e, ok := tt.find(keys[0]); !ok || e.pn != 3 || e.dn != 4 || e.busy != 1 {
		t.Errorf("open numbers: %+v, %v; want pn 3 dn 4, one thread", e, ok)
	}
	for i, r := range []result{{pn: 0, dn: inf, rep: noRep}, {pn: inf, dn: 0, rep: 2}} {
		tt.enter(keys[1+i], r)
		if e, ok := tt.find(keys[1+i]); ok {
			t.Errorf("final numbers %d/%d entered: %+v", r.pn, r.dn, e)
		}
		tt.leave(keys[1+i]) // as mid does: nothing to undo
	}
	stored := result{pn: 0, dn: inf, dist: 5, move: 2, clock: 7, rep: noRep}
	tt.store(keys[3], stored, 10)
	tt.enter(keys[3], result{pn: 0, dn: inf})
	if e, ok := tt.find(keys[3]); !ok || e.pn != 0 || e.dist != 5 || e.clock != 7 || e.busy != 1 {
		t.Errorf("a stored proof entered again: %+v, %v; want its distance 5 and clock 7 kept, one thread", e, ok)
	}
}

// TestHugePagesSame: a table advised for huge pages holds what any other
// does: the same proof, node for node.
func TestHugePagesSame(t *testing.T) {
	p := hardPosition(t)
	var got [2]Result
	for i, huge := range []bool{false, true} {
		s, err := New(Config{HashMiB: 16, HugePages: huge})
		if err != nil {
			t.Fatal(err)
		}
		if got[i], err = s.Solve(context.Background(), p, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if got[0].Outcome != Loss || got[1].Outcome != got[0].Outcome || got[1].Nodes != got[0].Nodes || got[1].Plies != got[0].Plies {
		t.Errorf("small pages %+v, huge pages %+v: want the same loss", got[0], got[1])
	}
}
