package gui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
)

// timeMargin is how far past its clock or move time an engine may answer
// before it is said to have run out of time.
const timeMargin = time.Second

// maxDepth is the deepest limit the page may ask for: the deepest search
// of Sower's engine (its search stops at ply 128).
const maxDepth = 127

// timeLoss is a person's loss on time, or by resigning: side's clock ran
// out (or side resigned) after ply plies, which ends the game there.
type timeLoss struct {
	ply      int
	side     board.Side
	resigned bool
}

// winner returns the side that won on time.
func (l *timeLoss) winner() board.Result {
	if l.side == board.South {
		return board.NorthWins
	}
	return board.SouthWins
}

// loser returns the losing side's name ("south" or "north").
func (l *timeLoss) loser() string {
	return strings.ToLower(l.side.String())
}

// parseLimit reads the engines' limit from the page's form: a kind
// (movetime, depth or tc) and its value ("" for the kind's default). It
// is the limit type of sower match, so that both arbiters time moves
// alike (timecontrol.NewMove).
func parseLimit(kind, value string) (timecontrol.Limit, error) {
	v := strings.TrimSpace(value)
	if v == "" {
		v = map[string]string{"movetime": "1000", "depth": "8", "tc": "60+1"}[kind]
	}
	var l timecontrol.Limit
	switch kind {
	case "movetime":
		ms, err := strconv.ParseUint(v, 10, 32)
		if err != nil || ms == 0 {
			return l, fmt.Errorf("movetime %q: want a positive number of milliseconds", value)
		}
		l.MoveTime = time.Duration(ms) * time.Millisecond
	case "depth":
		d, err := strconv.ParseUint(v, 10, 32)
		if err != nil || d == 0 || d > maxDepth {
			return l, fmt.Errorf("depth %q: want 1 to %d plies", value, maxDepth)
		}
		l.Depth = int(d)
	case "tc":
		return timecontrol.ParseTC(v)
	default:
		return l, fmt.Errorf("limit %q: want movetime, depth or tc", kind)
	}
	return l, nil
}

// limitForm is a limit as the page's form shows it: the kind and value
// parseLimit reads back.
func limitForm(l timecontrol.Limit) limitMsg {
	switch {
	case l.HasClock():
		return limitMsg{"tc", l.TC()}
	case l.Depth > 0:
		return limitMsg{"depth", strconv.Itoa(l.Depth)}
	default:
		return limitMsg{"movetime", strconv.FormatInt(l.MoveTime.Milliseconds(), 10)}
	}
}

// fullClocks are both clocks at the start of a game.
func (s *session) fullClocks() [2]time.Duration {
	return [2]time.Duration{s.limit.Base, s.limit.Base}
}

// settleClock charges the running clock with the time since it started.
func (s *session) settleClock() {
	if s.running < 0 || !s.limit.HasClock() {
		return
	}
	now := time.Now()
	s.clocks[s.running] = max(s.clocks[s.running]-now.Sub(s.since), 0)
	s.since = now
}

// lostAt returns the loss on time that ends the game at ply n, if any.
func (s *session) lostAt(n int) *timeLoss {
	if s.lost != nil && s.lost.ply == n {
		return s.lost
	}
	return nil
}

// armFlag sets the flag to fall when the running clock of a person runs
// out. (An engine's clock is watched by its move's deadline instead.)
func (s *session) armFlag() {
	if s.flag != nil {
		s.flag.Stop()
		s.flag = nil
	}
	if !s.limit.HasClock() || s.running < 0 || s.players[s.running] != "human" {
		return
	}
	side := board.Side(s.running)
	left := s.clocks[side] - time.Since(s.since)
	s.flag = time.AfterFunc(max(left, 0), func() {
		s.post(func() {
			if !s.done && s.flagFell(side) {
				s.update()
			}
		})
	})
}

// flagFell reports whether side is a person whose running clock has run
// out; if so, the game ends there, lost on time by side.
func (s *session) flagFell(side board.Side) bool {
	s.settleClock()
	if !s.limit.HasClock() || s.running != int(side) || s.players[side] != "human" || s.clocks[side] > 0 {
		return false
	}
	s.lost = &timeLoss{ply: len(s.moves), side: side}
	s.running = -1
	s.view = len(s.moves) // show the end of the game
	return true
}
