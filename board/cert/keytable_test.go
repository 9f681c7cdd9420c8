package cert

import (
	"math/rand/v2"
	"testing"
)

// TestKeyTable adds random keys, some of them twice over, and checks the
// table and the set against Go maps.
func TestKeyTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	kt, hs := newKeyTable(0), newHashSet(3)
	want, wantSet := map[key]int32{}, map[uint64]bool{}
	var all []key
	for i := 0; i < 50000; i++ {
		var k key
		if len(all) > 0 && rng.IntN(3) == 0 {
			k = all[rng.IntN(len(all))]
		} else {
			k = key{rng.Uint64() & 0xff, rng.Uint64() & 3, 0, uint64(rng.IntN(2)) << sideBit}
		}
		n, ok := kt.get(k)
		w, wok := want[k]
		if ok != wok || ok && n != w {
			t.Fatalf("key %v: get %d %v, want %d %v", k, n, ok, w, wok)
		}
		if !ok {
			want[k] = kt.add(k)
			all = append(all, k)
		}
		x := k[0] | k[1]<<8
		hs.add(x)
		wantSet[x] = true
	}
	if kt.len() != len(want) || hs.len() != len(wantSet) {
		t.Errorf("%d keys and %d hashes, want %d and %d", kt.len(), hs.len(), len(want), len(wantSet))
	}
	for k, w := range want {
		if n, ok := kt.get(k); !ok || n != w || kt.keys[n] != k {
			t.Fatalf("key %v: %d %v at the end, want %d", k, n, ok, w)
		}
	}
}
