package board

import "testing"

// The perft table of rule book section 5.
var perftTable = map[string][]uint64{
	NameKatro:    {6, 36, 168, 784, 3244, 13778},
	NameKatro6x3: {3, 9, 24, 56, 130, 308},
	NameKatro4x6: {6, 36, 180, 849, 4008, 18376},
	NameKatro4x4: {4, 16, 56, 190, 555, 1685},
	NameHoyito3:  {6, 32, 158, 820, 4056, 20065},
}

func TestPerftTable(t *testing.T) {
	for name, want := range perftTable {
		v, err := New(name)
		if err != nil {
			t.Fatal(err)
		}
		p := v.Start()
		for d, w := range want {
			if got := p.Perft(d + 1); got != w {
				t.Errorf("%s perft(%d) = %d, want %d", name, d+1, got, w)
			}
		}
	}
}

// The worked examples of rule book section 6: each move and the position
// it leads to.
func TestWorkedExamples(t *testing.T) {
	type step struct{ move, after string }
	cases := []struct {
		game  string
		steps []step
		legal string // legal moves after the last step, if given
	}{
		{NameKatro, []step{
			{"a1", "2,2,2,2,2,2/2,2,2,2,2,2/2,2,0,2,2,2/3,3,0,3,3,3/0,3,3,0,3,3/1,0,1,4,4,1 N 0"},
			{"f6", "0,3,3,1,4,1/3,3,0,3,3,0/3,3,1,0,3,3/3,3,0,0,3,3/0,3,3,0,3,3/1,0,1,4,4,1 S 0"},
			{"c1", "0,3,3,1,4,1/3,3,0,3,3,0/3,3,1,0,3,3/3,3,0,0,3,3/0,3,3,1,4,4/1,0,0,0,5,2 N 1"},
			{"b6", "1,0,3,1,4,1/4,0,1,4,4,1/3,3,1,0,3,3/3,3,0,0,3,3/0,3,3,1,4,4/1,0,0,0,5,2 S 2"},
		}, "a1 e1 f1"},
		{NameKatro4x4, []step{
			{"a1", "2,2,2,2/2,2,0,2/3,3,0,3/1,4,1,3 N 0"},
			{"d4", "2,3,1,4/6,3,1,0/3,0,0,0/1,4,1,3 S 0"},
		}, ""},
		{NameHoyito3, []step{
			{"a1", "6,6,1,0,6,6/2,7,1,6,1,6 N 0 0 1"},
			{"c2", "8,1,1,1,7,7/0,8,2,7,2,0 N 0 4 0"},
			{"a2", "2,3,3,3,1,9/0,11,5,1,4,2 S 0 4 1"},
		}, ""},
	}
	for _, tc := range cases {
		v, _ := New(tc.game)
		g := NewGame(v.Start())
		for i, s := range tc.steps {
			m, err := v.ParseMove(s.move)
			if err != nil {
				t.Fatalf("%s step %d: %v", tc.game, i+1, err)
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("%s step %d: %v", tc.game, i+1, err)
			}
			p := g.Position()
			if got := p.String(); got != s.after {
				t.Errorf("%s after %s:\n got %s\nwant %s", tc.game, s.move, got, s.after)
			}
			if err := p.Check(); err != nil {
				t.Errorf("%s after %s: %v", tc.game, s.move, err)
			}
		}
		if tc.legal != "" {
			p := g.Position()
			if got := FormatMoves(p.LegalMoves()); got != tc.legal {
				t.Errorf("%s legal moves %q, want %q", tc.game, got, tc.legal)
			}
		}
	}
}
