package board

import "testing"

// BenchmarkPerft measures move generation and making: perft from the start
// of each game. The positions/s metric counts every position made.
func BenchmarkPerft(b *testing.B) {
	for _, c := range []struct {
		game  string
		depth int
	}{{NameKatro, 7}, {NameKatro4x4, 8}, {NameHoyito3, 7}} {
		v, err := New(c.game)
		if err != nil {
			b.Fatal(err)
		}
		p := v.Start()
		var made uint64
		for d := 1; d <= c.depth; d++ {
			made += p.Perft(d)
		}
		b.Run(c.game, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.Perft(c.depth)
			}
			b.ReportMetric(float64(made)*float64(b.N)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}

// BenchmarkPlay measures making one move on a copy.
func BenchmarkPlay(b *testing.B) {
	for _, name := range []string{NameKatro, NameHoyito3} {
		v, _ := New(name)
		p := v.Start()
		var l MoveList
		p.GenerateMoves(&l)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				c := p
				c.Play(l.Moves[i%l.N])
				i++
			}
		})
	}
}
