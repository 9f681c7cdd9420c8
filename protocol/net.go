package protocol

import (
	"fmt"
	"strconv"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
)

// Values of the EvalType option: auto (the default) plays each family
// with the evaluation that measured strongest (nnue.PlaysByDefault), net
// with a network wherever there is one, linear never with one.
const (
	evalAuto   = "auto"
	evalLinear = "linear"
	evalNet    = "net"
)

// netState is the evaluation the options chose: EvalType, and the
// network EvalFile read (nil: the built-in networks).
type netState struct {
	mode string // evalAuto, evalLinear or evalNet ("": evalAuto)
	file string
	net  *nnue.Net // EvalFile's network, for its family
}

// network returns the network family f plays with, or nil for the
// linear evaluation. With EvalType net or auto, EvalFile's network plays
// its family; otherwise net plays the built-in network if there is one,
// and auto the family's default (nnue.Default).
func (s *server) network(f board.Family) (*nnue.Net, error) {
	switch {
	case s.nets.mode == evalLinear:
		return nil, nil
	case s.nets.net != nil && s.nets.net.Family == f:
		return s.nets.net, nil
	case s.nets.mode == evalNet:
		return nnue.Builtin(f)
	}
	return nnue.Default(f)
}

// applyNets gives the engine, if made, the networks the options chose,
// and empties its table, whose scores came from another evaluation.
func (s *server) applyNets() error {
	if s.eng == nil {
		return nil
	}
	s.eng.ClearHash()
	return s.setNets()
}

// setNets gives the engine the networks the options chose (a new engine
// gets them from engineOptions).
func (s *server) setNets() error {
	for _, f := range []board.Family{board.Katro, board.Hoyito} {
		n, err := s.network(f)
		if err != nil {
			return err
		}
		if err := s.eng.SetNet(f, n); err != nil {
			return err
		}
	}
	return nil
}

// setEvalType chooses the evaluation: auto, linear or net (network).
// With net, a game without a network (none built in, and EvalFile's is of
// the other family) plays with the linear evaluation, and an info line
// says so: the options may come in any order, EvalFile after EvalType
// too.
func (s *server) setEvalType(value string) error {
	s.stopJob()
	s.nets.mode = value
	s.reportNets()
	return s.applyNets()
}

// setEvalLazy sets the margin beyond which the linear evaluation scores
// a position in place of the network (search.Engine.SetNetLazy).
func (s *server) setEvalLazy(value string) error {
	n, err := strconv.Atoi(value)
	if err != nil {
		return fmt.Errorf("EvalLazy %q: want a number", value)
	}
	s.stopJob()
	if s.eng != nil {
		if err := s.eng.SetNetLazy(n); err != nil {
			return err
		}
	}
	s.evalLazy = n
	return nil
}

// setEvalFile reads a network file (of either family) for EvalType net;
// <empty> or no value goes back to the built-in networks.
func (s *server) setEvalFile(value string) error {
	if value == emptyString {
		value = ""
	}
	var n *nnue.Net
	if value != "" {
		var err error
		if n, err = nnue.ReadFile(value); err != nil {
			return fmt.Errorf("EvalFile: %v", err)
		}
	}
	s.stopJob()
	s.nets.file, s.nets.net = value, n
	s.reportNets()
	return s.applyNets()
}

// reportNets says, unless EvalType is linear, which evaluation each
// family plays with.
func (s *server) reportNets() {
	if s.nets.mode == evalLinear {
		return
	}
	for _, f := range []board.Family{board.Katro, board.Hoyito} {
		n, err := s.network(f)
		switch {
		case err != nil:
			s.out.info(fmt.Sprintf("%s: %v", f, err))
		case n == nil && s.nets.mode == evalNet:
			s.out.info(fmt.Sprintf("%s: no network, the linear evaluation plays", f))
		case n == nil:
			s.out.info(fmt.Sprintf("%s: the linear evaluation", f))
		case n == s.nets.net:
			s.out.info(fmt.Sprintf("%s: network %s", f, s.nets.file))
		default:
			s.out.info(fmt.Sprintf("%s: the built-in network", f))
		}
	}
}
