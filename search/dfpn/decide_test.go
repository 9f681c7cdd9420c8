package dfpn

import (
	"errors"
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestDecide checks how Decide reads its questions' answers: the first
// question settles unless its attacker's win is disproven for good, the
// second is asked only then, and the nodes of both are counted.
func TestDecide(t *testing.T) {
	v, err := board.New("katro-4x4")
	if err != nil {
		t.Fatal(err)
	}
	root := v.Start() // South to move
	m := board.HoleMove(0, 1)
	proven := Answer{Bounds: Bounds{PN: 0, DN: Infinity, Plies: 7}, Move: m, Nodes: 10}
	disproven := Answer{Bounds: Bounds{PN: Infinity, DN: 0}, Nodes: 20}
	onPath := Answer{Bounds: Bounds{PN: Infinity, DN: 0, OnPath: true}, Nodes: 30}
	open := Answer{Bounds: Bounds{PN: 5, DN: 9}, Nodes: 40}
	failed := errors.New("broken")
	tests := []struct {
		name    string
		first   board.Side
		answers []Answer // by question
		err     error    // of the last question asked
		want    Result
		asked   int
	}{
		{"first proven, side to move", board.South, []Answer{proven}, nil,
			Result{Outcome: Win, Winner: board.South, Move: m, Plies: 7, Nodes: 10}, 1},
		{"first proven, the other side", board.North, []Answer{proven}, nil,
			Result{Outcome: Loss, Winner: board.North, Move: board.NoMove, Plies: 7, Nodes: 10}, 1},
		{"second proven", board.South, []Answer{disproven, proven}, nil,
			Result{Outcome: Loss, Winner: board.North, Move: board.NoMove, Plies: 7, Nodes: 30}, 2},
		{"both disproven", board.South, []Answer{disproven, disproven}, nil,
			Result{Outcome: Draw, Nodes: 40}, 2},
		{"a disproof on the path proves nothing", board.South, []Answer{onPath}, nil,
			Result{Outcome: Unknown, Nodes: 30}, 1},
		{"second on the path", board.North, []Answer{disproven, onPath}, nil,
			Result{Outcome: Unknown, Nodes: 50}, 2},
		{"first open", board.South, []Answer{open}, nil,
			Result{Outcome: Unknown, OutOfNodes: true, Nodes: 40}, 1},
		{"second open", board.South, []Answer{disproven, open}, nil,
			Result{Outcome: Unknown, OutOfNodes: true, Nodes: 60}, 2},
		{"an error ends it", board.South, []Answer{disproven, proven}, failed,
			Result{Outcome: Unknown, Nodes: 30}, 2},
		{"an error in the first question", board.North, []Answer{proven}, failed,
			Result{Outcome: Unknown, Nodes: 10}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var asked []board.Side
			got, err := Decide(root, tc.first, func(attacker board.Side) (Answer, error) {
				asked = append(asked, attacker)
				a := tc.answers[len(asked)-1]
				if len(asked) == len(tc.answers) {
					return a, tc.err
				}
				return a, nil
			})
			if !errors.Is(err, tc.err) {
				t.Errorf("error %v, want %v", err, tc.err)
			}
			if len(asked) != tc.asked || asked[0] != tc.first || (len(asked) == 2 && asked[1] != tc.first.Other()) {
				t.Errorf("asked %v, want %d questions, %s's first", asked, tc.asked, tc.first)
			}
			got.Time = 0
			if got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
