package cert

import "math/bits"

// keyTable numbers position keys in the order they are added: an open
// addressing table with linear probing over the keys, which it keeps in a
// slice by number. It takes 32 bytes a key plus 8 to 16 bytes of slots,
// a third of a Go map's memory for these keys, which matters for proofs
// of tens of millions of positions.
type keyTable struct {
	keys  []key
	slots []uint32 // a key's number + 1; 0 is empty
	shift uint     // 64 − log2(len(slots))
}

// newKeyTable returns a table sized for about hint keys.
func newKeyTable(hint int) *keyTable {
	t := &keyTable{keys: make([]key, 0, hint)}
	t.resize(max(16, 2*hint))
	return t
}

// resize makes room for n slots (rounded up to a power of two) and puts
// the keys back.
func (t *keyTable) resize(n int) {
	b := bits.Len(uint(n - 1))
	t.slots = make([]uint32, 1<<b)
	t.shift = uint(64 - b)
	mask := len(t.slots) - 1
	for i := range t.keys {
		j := t.home(&t.keys[i])
		for t.slots[j] != 0 {
			j = (j + 1) & mask
		}
		t.slots[j] = uint32(i + 1)
	}
}

// home returns k's first slot.
func (t *keyTable) home(k *key) int {
	h := k[0]*0x9e3779b97f4a7c15 ^ k[1]*0xc2b2ae3d27d4eb4f ^ k[2]*0x165667b19e3779f9 ^ k[3]*0xd6e8feb86659fd93
	h ^= h >> 31
	h *= 0x94d049bb133111eb
	return int(h >> t.shift)
}

// get returns k's number, if it was added.
func (t *keyTable) get(k key) (int32, bool) {
	mask := len(t.slots) - 1
	for j := t.home(&k); ; j = (j + 1) & mask {
		s := t.slots[j]
		if s == 0 {
			return 0, false
		}
		if t.keys[s-1] == k {
			return int32(s - 1), true
		}
	}
}

// add adds k, which must not be in the table yet, and returns its number.
func (t *keyTable) add(k key) int32 {
	if 2*(len(t.keys)+1) > len(t.slots) {
		t.resize(2 * len(t.slots))
	}
	i := len(t.keys)
	t.keys = append(t.keys, k)
	mask := len(t.slots) - 1
	j := t.home(&k)
	for t.slots[j] != 0 {
		j = (j + 1) & mask
	}
	t.slots[j] = uint32(i + 1)
	return int32(i)
}

// len returns the number of keys.
func (t *keyTable) len() int { return len(t.keys) }

// hashSet is a set of 64-bit hash keys, open addressing with linear
// probing: 16 to 32 bytes a key, where a Go map takes about 40.
type hashSet struct {
	slots []uint64 // 0 is empty; the key 0 is kept in zero
	n     int
	zero  bool
	shift uint
}

// newHashSet returns a set sized for about hint keys.
func newHashSet(hint int) *hashSet {
	s := &hashSet{}
	s.resize(max(16, 2*hint))
	return s
}

// resize makes room for n slots (rounded up to a power of two) and puts
// the keys back.
func (s *hashSet) resize(n int) {
	old := s.slots
	b := bits.Len(uint(n - 1))
	s.slots = make([]uint64, 1<<b)
	s.shift = uint(64 - b)
	for _, x := range old {
		if x != 0 {
			s.put(x)
		}
	}
}

// put puts the non-zero x in its slot, if it is not there.
func (s *hashSet) put(x uint64) bool {
	mask := len(s.slots) - 1
	for j := int(x * 0x9e3779b97f4a7c15 >> s.shift); ; j = (j + 1) & mask {
		switch s.slots[j] {
		case 0:
			s.slots[j] = x
			return true
		case x:
			return false
		}
	}
}

// add adds x.
func (s *hashSet) add(x uint64) {
	if x == 0 {
		if !s.zero {
			s.zero = true
			s.n++
		}
		return
	}
	if 2*(s.n+1) > len(s.slots) {
		s.resize(2 * len(s.slots))
	}
	if s.put(x) {
		s.n++
	}
}

// len returns the number of keys.
func (s *hashSet) len() int { return s.n }
