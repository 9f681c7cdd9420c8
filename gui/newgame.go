package gui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
)

// paramError is a refused field of a new game, named as the page's
// address names it (game, south, north, movetime, depth, tc,
// captureside, lastfour, repetition, nocapturelimit, fen, moves).
type paramError struct {
	param string
	err   error
}

func (e *paramError) Error() string { return e.err.Error() }

// refuse makes a paramError.
func refuse(param, format string, a ...any) error {
	return &paramError{param, fmt.Errorf(format, a...)}
}

// newSetup is a new game read from a request, ready to begin.
type newSetup struct {
	v       *board.Variant
	players [2]string
	limit   timecontrol.Limit
	start   board.Position
	moves   []board.Move
}

// newGame starts a game from a request; on any error nothing changes.
// A request from the page's address (r.Address) is read leniently
// instead: each refused field is left at its default and named in the
// note returned, and the rest is kept.
func (s *session) newGame(r request) (note string, err error) {
	ns, err := s.readNew(r)
	var notes []string
	for r.Address && err != nil {
		var pe *paramError
		if !errors.As(err, &pe) || !r.drop(pe.param) {
			break
		}
		msg := pe.Error()
		if pe.param == "fen" {
			msg += "; the game starts from its start position"
		}
		notes = append(notes, msg)
		ns, err = s.readNew(r)
	}
	if err != nil {
		return "", err
	}
	var m *tradMatch
	if r.Match != 0 {
		if m, err = newMatch(r.Match, ns); err != nil {
			return "", err
		}
	}
	s.stopJob()
	done := s.leaving()
	s.players, s.limit = ns.players, ns.limit
	s.begin(ns.v, ns.start, ns.moves)
	s.match = m
	s.keepApart(done)
	if len(notes) > 0 {
		note = "Refused in the address: " + strings.Join(notes, "; ") + ". The rest of the address is kept."
	}
	return note, nil
}

// drop clears a refused field of an address's request, so that it takes
// its default; false if there is no such field to clear.
func (r *request) drop(param string) bool {
	field := map[string]*string{
		"game": &r.Game, "south": &r.South, "north": &r.North,
		"captureside": &r.CaptureSide, "lastfour": &r.LastFour, "repetition": &r.Repetition,
		"fen": &r.Fen, "moves": &r.Moves,
	}
	switch {
	case param == "nocapturelimit" && r.NoCaptureLimit.set:
		r.NoCaptureLimit = numText{}
	case param == r.LimitKind || param == "limit":
		r.LimitKind, r.LimitValue = "", ""
	case field[param] != nil && *field[param] != "":
		*field[param] = ""
	default:
		return false
	}
	return true
}

// readNew reads a new game from a request without changing anything.
func (s *session) readNew(r request) (*newSetup, error) {
	name := r.Game
	if name == "" {
		name = board.NameKatro
	}
	v, err := board.New(name)
	if err != nil {
		return nil, refuse("game", "game %q: want one of %s", name, strings.Join(board.Names(), ", "))
	}
	rules, err := readRules(r, v.Family() == board.Hoyito)
	if err != nil {
		return nil, err
	}
	if v, err = v.WithRules(rules); err != nil {
		return nil, refuse("repetition", "%v", err)
	}
	ns := &newSetup{v: v}
	if ns.players[board.South], err = s.player(r.South, "south"); err != nil {
		return nil, err
	}
	if ns.players[board.North], err = s.player(r.North, "north"); err != nil {
		return nil, err
	}
	kind := r.LimitKind
	if kind == "" {
		kind = "movetime"
	}
	if ns.limit, err = parseLimit(kind, r.LimitValue); err != nil {
		return nil, &paramError{kind, err}
	}
	ns.start = v.Start()
	if f := strings.TrimSpace(r.Fen); f != "" {
		if ns.start, err = parseFen(v, f); err != nil {
			return nil, &paramError{"fen", err}
		}
	}
	g := board.NewGame(ns.start)
	if ms := strings.TrimSpace(strings.ReplaceAll(r.Moves, ",", " ")); ms != "" {
		for i, t := range strings.Fields(ms) {
			m, err := v.ParseMove(t)
			if err == nil {
				err = g.Play(m)
			}
			if err != nil {
				return nil, refuse("moves", "moves: move %d: %v", i+1, err)
			}
		}
	}
	ns.moves = g.Moves()
	return ns, nil
}

// readRules reads the rule options of a request. CaptureSide, LastFour
// and Repetition are Hoyito III's: a Katro game refuses any value but the
// rule book's, rather than ignore it.
func readRules(r request, hoyito bool) (board.Rules, error) {
	rules := board.DefaultRules()
	var err error
	if r.CaptureSide != "" {
		if rules.CaptureSide, err = board.ParseCaptureSide(r.CaptureSide); err != nil {
			return rules, &paramError{"captureside", err}
		}
	}
	if r.LastFour != "" {
		if rules.LastFour, err = board.ParseLastFour(r.LastFour); err != nil {
			return rules, &paramError{"lastfour", err}
		}
	}
	if r.Repetition != "" {
		if rules.Repetition, err = board.ParseRepetition(r.Repetition); err != nil {
			return rules, &paramError{"repetition", err}
		}
	}
	if !hoyito {
		def := board.DefaultRules()
		switch {
		case rules.CaptureSide != def.CaptureSide:
			return rules, refuse("captureside", "captureside %s: a Hoyito III rule; Katro has no such option", rules.CaptureSide)
		case rules.LastFour != def.LastFour:
			return rules, refuse("lastfour", "lastfour %s: a Hoyito III rule; Katro has no such option", rules.LastFour)
		case rules.Repetition != def.Repetition:
			return rules, refuse("repetition", "repetition %s: a Hoyito III rule; Katro games are drawn by threefold repetition", rules.Repetition)
		}
	}
	if n := r.NoCaptureLimit; n.set {
		if rules.NoCaptureLimit, err = n.limit(); err != nil {
			return rules, &paramError{"nocapturelimit", err}
		}
	}
	return rules, nil
}

// limit reads a no-capture limit as typed: a whole number of plies from 0
// (off) to board.MaxNoCaptureLimit; anything else is refused, never
// rounded.
func (n numText) limit() (int, error) {
	want := fmt.Sprintf("want a whole number of plies from 0 (off) to %d", board.MaxNoCaptureLimit)
	t := strings.TrimSpace(n.text)
	if t == "" {
		return 0, fmt.Errorf("no-capture limit: empty; %s", want)
	}
	v, err := strconv.Atoi(t)
	if err != nil || v < 0 || v > board.MaxNoCaptureLimit {
		return 0, fmt.Errorf("no-capture limit %q: %s", t, want)
	}
	return v, nil
}

// player checks a player's name: human or one of the engines.
func (s *session) player(name, side string) (string, error) {
	switch {
	case name == "" && side == "south":
		return "human", nil
	case name == "":
		return s.srv.cfg.Engines[0].Name, nil
	case name == "human":
		return name, nil
	}
	if _, ok := s.srv.engineNamed(name); ok {
		return name, nil
	}
	return "", refuse(side, "%s: no engine named %q (the players are human and %s)", side, name, strings.Join(s.srv.names(), ", "))
}

// parseFen reads a position as the protocol does, with its message, and
// names the game the text looks like when it is another game's. A clock
// past the game's no-capture limit is refused: no game reaches it.
func parseFen(v *board.Variant, f string) (board.Position, error) {
	p, err := v.ParsePosition(f)
	if err != nil {
		if other := lookalike(v, f); other != "" {
			return p, fmt.Errorf("fen: this looks like a %s position, and the game is %s, whose positions look like %q (%v)", other, v.Name(), v.Start().String(), err)
		}
		return p, fmt.Errorf("fen: %v (the game is %s)", err, v.Name())
	}
	if lim := v.Rules().NoCaptureLimit; lim > 0 && p.Clock() > lim {
		return p, fmt.Errorf("fen: the no-capture clock %d is past the game's no-capture limit of %d plies (the game is %s)", p.Clock(), lim, v.Name())
	}
	return p, nil
}

// lookalike returns the name of another game whose notation reads f, or
// "".
func lookalike(v *board.Variant, f string) string {
	for _, name := range board.Names() {
		if name == v.Name() {
			continue
		}
		w, err := board.NewWithRules(name, v.Rules())
		if err != nil {
			w, err = board.New(name)
		}
		if err == nil {
			if _, err := w.ParsePosition(f); err == nil {
				return name
			}
		}
	}
	return ""
}
