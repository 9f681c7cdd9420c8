package record

import "testing"

// FuzzReadRecords reads arbitrary text as game records: an error or
// records, never a panic; and a record that replays writes PGN that
// reads back to the same moves.
func FuzzReadRecords(f *testing.F) {
	f.Add([]byte(`{"game":1,"variant":"katro-4x4","options":{"NoCaptureLimit":"200"},"start":"2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 0","moves":[{"move":"a1","side":"S","ms":0}]}`))
	f.Add([]byte("[Variant \"hoyito3\"]\n[FEN \"4,4,4,4,4,4/4,4,4,4,4,4 S 0 0 0\"]\n\n1. a1 {+0.35/12 0.520s} c2 a2 {-M3/9 0.1s} 2. b1 {} *\n"))
	f.Add([]byte("[Variant \"hoyito3\"]\n[FEN \"4,4,4,4,4,4/0,0,0,0,0,0 S 0 24 0\"]\n\n1. Z0 {0.000s} a2 {0.000s} -- *\n"))
	f.Add([]byte("[Variant \"katro\"]\n1. a1 {unterminated"))
	f.Add([]byte("[Event"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := ReadRecords(data)
		if err != nil {
			return
		}
		for _, r := range recs {
			g, err := r.Replay()
			if err != nil {
				continue
			}
			back, err := ReadRecords([]byte(RecordGame(g, "a", "b", "none", "none", nil).PGN()))
			if err != nil || len(back) != 1 || len(back[0].Moves) != len(g.Moves()) {
				t.Fatalf("PGN of a replayed record does not read back: %v", err)
			}
		}
	})
}
