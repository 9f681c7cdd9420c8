package tables

// Helpers that only the tests use.

// readLayer decodes a whole table file held in memory (for fuzzing and
// tests; files are mapped by OpenLayer).
func readLayer(b []byte) (*Layer, error) {
	h, err := decodeHeader(b, int64(len(b)))
	if err != nil {
		return nil, err
	}
	return newLayer(h, b[HeaderSize:])
}

// changeCount returns the number of changes the clock section holds.
func (l *Layer) changeCount() uint64 {
	total := uint64(len(l.data) / EntrySize)
	return (uint64(len(l.clk)) - clockIndexSize(total) - total) / 2
}

// total returns the seeds on the board.
func (c *cells) total() int {
	n := 0
	for _, k := range c {
		n += int(k)
	}
	return n
}

// layer returns the n-seed layer of the set, or nil.
func (t *Tables) layer(n int) *Layer {
	if n < 8 || n > t.top || n%4 != 0 {
		return nil
	}
	return t.layers[n/4]
}
