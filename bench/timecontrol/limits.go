package timecontrol

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// Limit is how long an engine may think on each move: a clock with an
// increment, a fixed time per move, a node count, a depth, or any
// combination, all sent with "go". A builtin player ignores it.
type Limit struct {
	Base time.Duration // the clock's starting time; 0 = no clock
	Inc  time.Duration // added to the clock after every move
	// Moves, with a clock, is the length of a period: after every Moves
	// moves of its side the clock is given Base again ("40/60+0.5");
	// 0 is one period for the whole game.
	Moves    int
	MoveTime time.Duration // time for each move; 0 = none
	Nodes    uint64        // nodes per move; 0 = none
	Depth    int           // depth per move; 0 = none
}

// maxSeconds bounds every time in a limit (about 11 days).
const maxSeconds = 1e6

// IsZero reports whether no limit is set.
func (l Limit) IsZero() bool { return l == Limit{} }

// HasClock reports whether the limit runs a clock.
func (l Limit) HasClock() bool { return l.Base > 0 }

// Replays reports whether a single-threaded engine thinking under the
// limit answers a position the same way every time: a node count or a
// depth, with no clock and no time per move to cut the search short.
// Games between two such engines from the same opening are the same game.
func (l Limit) Replays() bool {
	return l.Base == 0 && l.MoveTime == 0 && (l.Nodes > 0 || l.Depth > 0)
}

// ParseTimeControl reads a time control in the usual notation:
// "base[+inc]" as ParseTC reads it; "moves/base[+inc]", a clock refilled
// with base every that many moves of its side ("40/60+0.5": 40 moves in
// 60 s, plus 0.5 s a move); or "inf", no clock at all (the zero Limit:
// the engine needs another limit, such as a depth).
func ParseTimeControl(s string) (Limit, error) {
	t := strings.TrimSpace(s)
	if strings.EqualFold(t, "inf") {
		return Limit{}, nil
	}
	moves, rest, hasMoves := strings.Cut(t, "/")
	if !hasMoves {
		return ParseTC(t)
	}
	n, err := strconv.ParseUint(moves, 10, 32)
	if err != nil || n == 0 {
		return Limit{}, fmt.Errorf("time control %q: %q is not a positive number of moves (want moves/seconds+increment, such as 40/60+0.5)", s, moves)
	}
	l, err := ParseTC(rest)
	if err != nil {
		return Limit{}, fmt.Errorf("time control %q: %w", s, err)
	}
	l.Moves = int(n)
	return l, nil
}

// ParseTC reads a time control "base[+inc]": the clock's starting time and
// the increment per move, in seconds ("10+0.1", "60", "0.5+0.05"); the
// base may also be written minutes:seconds ("1:30+1"). It reads one
// period for the whole game; ParseTimeControl reads periods and "inf"
// too.
func ParseTC(s string) (Limit, error) {
	bad := func(why string) (Limit, error) {
		return Limit{}, fmt.Errorf("time control %q: %s (want seconds+increment, such as 10+0.1)", s, why)
	}
	base, inc, hasInc := strings.Cut(strings.TrimSpace(s), "+")
	var l Limit
	var sec float64
	if m, rest, ok := strings.Cut(base, ":"); ok {
		mins, err1 := strconv.ParseUint(m, 10, 32)
		secs, err2 := parseSeconds(rest)
		if err1 != nil || err2 != nil {
			return bad("bad base time")
		}
		sec = float64(mins)*60 + secs
	} else {
		var err error
		if sec, err = parseSeconds(base); err != nil {
			return bad("bad base time")
		}
	}
	switch {
	case sec <= 0:
		return bad("the base time must be positive")
	case sec > maxSeconds:
		return bad(fmt.Sprintf("the base time is over %d seconds", int(maxSeconds)))
	}
	l.Base = seconds(sec)
	if l.Base <= 0 {
		return bad("the base time is under a millisecond")
	}
	if hasInc {
		x, err := parseSeconds(inc)
		switch {
		case err != nil:
			return bad("bad increment")
		case x > maxSeconds:
			return bad(fmt.Sprintf("the increment is over %d seconds", int(maxSeconds)))
		}
		l.Inc = seconds(x)
	}
	return l, nil
}

// parseSeconds reads a non-negative decimal number of seconds.
func parseSeconds(s string) (float64, error) {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
		return 0, fmt.Errorf("%q is not a number of seconds", s)
	}
	return x, nil
}

// seconds converts seconds to a duration rounded to the millisecond.
func seconds(x float64) time.Duration {
	return time.Duration(math.Round(x*1000)) * time.Millisecond
}

// ParseLimit reads a limit as key=value fields separated by spaces or
// commas: tc=10+0.1 (any time control ParseTimeControl reads), movetime=MS,
// nodes=N, depth=N ("tc=40/60+0.5 depth=2").
func ParseLimit(s string) (Limit, error) {
	var l Limit
	pairs, err := KeyValues(s, "limit", "tc=10+0.1, movetime=MS, nodes=N or depth=N")
	if err != nil {
		return l, err
	}
	for _, kv := range pairs {
		k, v := kv[0], kv[1]
		switch strings.ToLower(k) {
		case "tc":
			var t Limit
			t, err = ParseTimeControl(v)
			l = l.WithClock(t)
		case "movetime":
			var ms uint64
			ms, err = strconv.ParseUint(v, 10, 32)
			if err == nil && ms == 0 {
				err = fmt.Errorf("movetime must be positive")
			}
			l.MoveTime = time.Duration(ms) * time.Millisecond
		case "nodes":
			l.Nodes, err = strconv.ParseUint(v, 10, 64)
			if err == nil && l.Nodes == 0 {
				err = fmt.Errorf("nodes must be positive")
			}
		case "depth":
			var d uint64
			d, err = strconv.ParseUint(v, 10, 8)
			if err == nil && d == 0 {
				err = fmt.Errorf("depth must be positive")
			}
			l.Depth = int(d)
		default:
			return l, fmt.Errorf("limit %q: unknown key %q (want tc, movetime, nodes or depth)", s, k)
		}
		if err != nil {
			return l, fmt.Errorf("limit %q: %s: %w", s, k, err)
		}
	}
	return l, nil
}

// WithClock returns l with the clock of c (its base, increment and
// period) in place of its own.
func (l Limit) WithClock(c Limit) Limit {
	l.Base, l.Inc, l.Moves = c.Base, c.Inc, c.Moves
	return l
}

// TC writes the clock as ParseTimeControl reads it ("10+0.1",
// "40/60+0.5"), or "" without one.
func (l Limit) TC() string {
	if !l.HasClock() {
		return ""
	}
	s := strconv.FormatFloat(l.Base.Seconds(), 'f', -1, 64)
	if l.Moves > 0 {
		s = strconv.Itoa(l.Moves) + "/" + s
	}
	if l.Inc > 0 {
		s += "+" + strconv.FormatFloat(l.Inc.Seconds(), 'f', -1, 64)
	}
	return s
}

// String writes the limit as ParseLimit reads it ("tc=10+0.1 depth=2"),
// or "none".
func (l Limit) String() string {
	var parts []string
	if l.HasClock() {
		parts = append(parts, "tc="+l.TC())
	}
	if l.MoveTime > 0 {
		parts = append(parts, "movetime="+strconv.FormatInt(l.MoveTime.Milliseconds(), 10))
	}
	if l.Nodes > 0 {
		parts = append(parts, "nodes="+strconv.FormatUint(l.Nodes, 10))
	}
	if l.Depth > 0 {
		parts = append(parts, "depth="+strconv.Itoa(l.Depth))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " ")
}

// Move is a move to ask for under the sides' limits: the go command and
// the time the engine may take. Both arbiters, sower match and sower gui,
// build it with NewMove, so that they agree on clocks, margins and
// forfeits.
type Move struct {
	Go client.Go
	// Budget is the side's clock or move time, 0 when neither limits it
	// (then Go.Timed is false and Go.Wait is the untimed timeout).
	Budget, Margin time.Duration
}

// NewMove builds the request for side's move under lims (each side's
// limit: the clocks of the sides with one are sent, side's move time,
// nodes and depth) with clock the time each side has left. A move under a
// clock or a move time is timed: its answer may take Budget plus margin;
// any other waits up to timeout.
func NewMove(lims [2]Limit, clock [2]time.Duration, side board.Side, margin, timeout time.Duration) Move {
	lim := lims[side]
	var req client.Go
	for s, l := range lims {
		req.Clock[s], req.Inc[s], req.HasClock[s] = clock[s], l.Inc, l.HasClock()
		if !l.HasClock() {
			req.Clock[s] = 0
		}
	}
	req.MoveTime, req.Nodes, req.Depth = lim.MoveTime, lim.Nodes, lim.Depth
	m := Move{Margin: margin}
	switch {
	case lim.HasClock():
		m.Budget, req.Timed = clock[side], true
	case lim.MoveTime > 0:
		m.Budget, req.Timed = lim.MoveTime, true
	}
	req.Wait = m.Budget + margin
	if !req.Timed {
		req.Wait = timeout
	}
	m.Go = req
	return m
}

// Late says why an answer that took elapsed forfeits on time, or "" if it
// came in time (or the move was not timed).
func (m Move) Late(elapsed time.Duration) string {
	if !m.Go.Timed || elapsed <= m.Budget+m.Margin {
		return ""
	}
	return fmt.Sprintf("answered after %d ms; it had %d ms (+%d ms margin)",
		elapsed.Milliseconds(), m.Budget.Milliseconds(), m.Margin.Milliseconds())
}

// NoAnswer says what a timed move that got no answer in time was allowed.
func (m Move) NoAnswer() string {
	return fmt.Sprintf("no bestmove within %d ms (+%d ms margin)", m.Budget.Milliseconds(), m.Margin.Milliseconds())
}

// After returns a clock of left after a move that took elapsed under l:
// charged with the time (never below 0) and given the increment. Without
// a clock it is unchanged. It knows no periods: a clock with them is kept
// by Clocks.
func (l Limit) After(left, elapsed time.Duration) time.Duration {
	if !l.HasClock() {
		return left
	}
	return max(left-elapsed, 0) + l.Inc
}

// Clocks are the two sides' clocks through a game: the time each has
// left and the moves each has made, under each side's limit. Every ply
// a side is asked for is a move of its period, the extra turns of Hoyito
// III included.
type Clocks struct {
	Lims [2]Limit
	Left [2]time.Duration
	Made [2]int
}

// NewClocks returns the clocks at the start of a game: each side's base.
func NewClocks(lims [2]Limit) Clocks {
	c := Clocks{Lims: lims}
	for s, l := range lims {
		c.Left[s] = l.Base
	}
	return c
}

// MovesToGo returns the moves side has left in its period, this one
// included, or 0 when its clock has no periods.
func (c *Clocks) MovesToGo(side board.Side) int {
	l := c.Lims[side]
	if !l.HasClock() || l.Moves == 0 {
		return 0
	}
	return l.Moves - c.Made[side]%l.Moves
}

// Move returns the request for side's move (NewMove), with the moves
// left in its period sent as movestogo.
func (c *Clocks) Move(side board.Side, margin, timeout time.Duration) Move {
	m := NewMove(c.Lims, c.Left, side, margin, timeout)
	m.Go.MovesToGo = c.MovesToGo(side)
	return m
}

// Charge charges side's clock with a move that took elapsed (After) and
// counts the move; the move that ends a period refills the clock with
// the base.
func (c *Clocks) Charge(side board.Side, elapsed time.Duration) {
	l := c.Lims[side]
	c.Left[side] = l.After(c.Left[side], elapsed)
	c.Made[side]++
	if l.HasClock() && l.Moves > 0 && c.Made[side]%l.Moves == 0 {
		c.Left[side] += l.Base
	}
}

// KeyValues splits s into key=value fields separated by spaces, tabs or
// commas, as limits and the arbiter's SPRT settings are written. what
// names the setting in errors; want describes the fields expected when
// there are none.
func KeyValues(s, what, want string) ([][2]string, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	if len(fields) == 0 {
		return nil, fmt.Errorf("%s %q: want %s", what, s, want)
	}
	out := make([][2]string, 0, len(fields))
	for _, f := range fields {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return nil, fmt.Errorf("%s %q: %q is not key=value", what, s, f)
		}
		out = append(out, [2]string{k, v})
	}
	return out, nil
}
