package nnue

import (
	"math/rand/v2"
	"testing"
)

// TestSnapshotWords checks the word-wise comparison of snapshots against
// a comparison byte by byte: the layout of snapshot.word, nonzeroBytes
// on every byte value, and diff's marks and count on random snapshots
// that differ in a few bytes or many.
func TestSnapshotWords(t *testing.T) {
	for v := range 256 {
		for pos := range 8 {
			x := uint64(v) << (8 * pos)
			want := uint64(0)
			if v != 0 {
				want = 0x80 << (8 * pos)
			}
			if got := nonzeroBytes(x); got != want {
				t.Fatalf("nonzeroBytes(%#x) = %#x, want %#x", x, got, want)
			}
		}
	}
	rng := rand.New(rand.NewPCG(7, 40))
	random := func() snapshot {
		var s snapshot
		for r := range s.bucket {
			for k := range s.bucket[r] {
				s.bucket[r][k] = uint8(rng.IntN(Buckets + 1))
			}
		}
		s.capt = [2]uint8{uint8(rng.IntN(captureInputs)), uint8(rng.IntN(captureInputs))}
		return s
	}
	for i := range 5000 {
		x := random()
		y := x
		if i%2 == 0 {
			y = random()
		} else {
			for range rng.IntN(4) {
				j := rng.IntN(2*maxLanes + 2)
				if j < 2*maxLanes {
					y.bucket[j/maxLanes][j%maxLanes] = uint8(rng.IntN(Buckets + 1))
				} else {
					y.capt[j-2*maxLanes] = uint8(rng.IntN(captureInputs))
				}
			}
		}
		d, n := diff(&x, &y)
		count := 0
		for j := range 2*maxLanes + 2 {
			var a, b uint8
			if j < 2*maxLanes {
				a, b = x.bucket[j/maxLanes][j%maxLanes], y.bucket[j/maxLanes][j%maxLanes]
			} else {
				a, b = x.capt[j-2*maxLanes], y.capt[j-2*maxLanes]
			}
			if got, want := d[j/8]>>(8*(j%8)+7)&1 == 1, a != b; got != want {
				t.Fatalf("byte %d (%d, %d): marked %v, want %v", j, a, b, got, want)
			}
			if a != b {
				count++
			}
			if got := uint8(x.word(j/8) >> (8 * (j % 8))); got != a {
				t.Fatalf("byte %d: word gives %d, want %d", j, got, a)
			}
		}
		if n != count {
			t.Fatalf("diff counts %d changed bytes, want %d", n, count)
		}
		if d[snapWords-1]&^(lastLanes|captureBytes) != 0 {
			t.Fatalf("diff marks the padding: %#x", d[snapWords-1])
		}
	}
}
