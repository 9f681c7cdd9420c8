package train

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
	"github.com/sower-engine/sower/eval/tune"
)

// Dataset holds the positions of one family as the network's inputs, with
// their labels.
type Dataset struct {
	family  board.Family
	inputs  []uint16 // every sample's inputs: the side to move's, then the opponent's
	samples []sample
	// models binds a zero network to each board met, for its inputs.
	models map[string]*nnue.Model
	zero   *nnue.Net
	boards uint8 // the boards met, a bit each (nnue.BoardBit)
	exact  ExactFunc
	nExact int // samples labelled by exact
}

// ExactFunc returns the exact result of position p for its side to move
// (1 a win, 0.5 a draw, 0 a loss) when it is known, as the endgame tables
// know a Hoyito III position's, and false otherwise.
type ExactFunc func(p *board.Position) (result float64, ok bool)

// UseExact makes ReadFile label every position that f knows with its
// exact result (see sample.exact), in place of the search's score and the
// game's result.
func (d *Dataset) UseExact(f ExactFunc) { d.exact = f }

// Exact returns the number of positions labelled with an exact result.
func (d *Dataset) Exact() int { return d.nExact }

// sample is one position: its inputs inputs[off : off+nUs+nThem].
type sample struct {
	off    uint32
	nUs    uint8
	nThem  uint8
	score  int16   // the search's score, hundredths of a seed
	result float32 // for the side to move: 1, 0.5 or 0
	group  uint64  // the game, for the validation split
	// exact says result is the position's exact result (the endgame
	// tables'), which is then the whole target.
	exact bool
}

// NewDataset returns an empty dataset of family f.
func NewDataset(f board.Family) *Dataset {
	return &Dataset{family: f, models: map[string]*nnue.Model{}, zero: nnue.New(f, "")}
}

// Boards returns the bits (nnue.BoardBit) of the boards whose positions
// d holds: the network trained on d evaluates those (nnue.Net.Boards).
func (d *Dataset) Boards() uint8 { return d.boards }

// Len returns the number of positions.
func (d *Dataset) Len() int { return len(d.samples) }

// Add adds position p with the search's score (hundredths of a seed, for
// the side to move), the game's result for the side to move (1, 0.5 or 0)
// and its game's number, which keeps a game's positions on one side of
// the validation split.
func (d *Dataset) Add(p *board.Position, score int, result float64, game uint64) error {
	return d.add(p, score, result, game, false)
}

// AddExact adds position p with its exact result for the side to move (1,
// 0.5 or 0), which is its whole target, and its game's number.
func (d *Dataset) AddExact(p *board.Position, result float64, game uint64) error {
	return d.add(p, 0, result, game, true)
}

// add adds a sample (see Add and AddExact).
func (d *Dataset) add(p *board.Position, score int, result float64, game uint64, exact bool) error {
	v := p.Variant()
	if v.Family() != d.family {
		return fmt.Errorf("train: a %s position in a %s dataset", v.Family(), d.family)
	}
	if result != 0 && result != 0.5 && result != 1 {
		return fmt.Errorf("train: position %s: result %g, want 1 (a win for the side to move), 0.5 or 0", p.String(), result)
	}
	m, ok := d.models[v.Name()]
	if !ok {
		mm, err := nnue.NewModel(d.zero, v)
		if err != nil {
			return err
		}
		m = &mm
		d.models[v.Name()] = m
		bit, err := nnue.BoardBit(v)
		if err != nil {
			return err
		}
		d.boards |= bit
	}
	off := len(d.inputs)
	var buf [64]int
	us := m.Features(p, p.Side(), buf[:0])
	nUs := len(us)
	all := m.Features(p, p.Side().Other(), us)
	for _, i := range all {
		d.inputs = append(d.inputs, uint16(i))
	}
	d.samples = append(d.samples, sample{
		off: uint32(off), nUs: uint8(nUs), nThem: uint8(len(all) - nUs),
		score: int16(max(min(score, 32767), -32767)), result: float32(result), group: game, exact: exact,
	})
	if exact {
		d.nExact++
	}
	return nil
}

// inputsOf returns sample s's inputs from each perspective.
func (d *Dataset) inputsOf(s *sample) (us, them []uint16) {
	a := d.inputs[s.off : s.off+uint32(s.nUs)+uint32(s.nThem)]
	return a[:s.nUs], a[s.nUs:]
}

// ReadFile adds every record of a data file written by sower datagen; file
// numbers the file among those read, so that games of different files
// stay apart.
func (d *Dataset) ReadFile(name string, file int) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := tune.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if r.Variant().Family() != d.family {
		return fmt.Errorf("%s: %s data, not %s", name, r.Variant().Name(), d.family)
	}
	var rec tune.Record
	for {
		err := r.Read(&rec)
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil // a record cut short by an interrupted datagen is dropped
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		game := uint64(file)<<32 | uint64(rec.Game)
		if d.exact != nil {
			if result, ok := d.exact(&rec.Pos); ok {
				if err := d.AddExact(&rec.Pos, result, game); err != nil {
					return fmt.Errorf("%s: %w", name, err)
				}
				continue
			}
		}
		if err := d.Add(&rec.Pos, int(rec.Score), rec.Target(), game); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
}
