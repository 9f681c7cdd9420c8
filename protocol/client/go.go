package client

import (
	"strconv"
	"strings"
	"time"

	"github.com/sower-engine/sower/board"
)

// Go is a "go" command and how long to wait for its bestmove.
type Go struct {
	// Clock and Inc are each side's time left and increment, South [0]
	// and North [1], sent for the sides whose HasClock is set.
	Clock, Inc [2]time.Duration
	HasClock   [2]bool
	// MovesToGo, if above 0, is sent as movestogo: the moves the side to
	// move has left before its clock is refilled.
	MovesToGo int
	MoveTime  time.Duration // 0: none
	Nodes     uint64        // 0: none
	Depth     int           // 0: none
	// Infinite sends "go infinite": the engine thinks until Stop is
	// closed, and Wait and Timed are ignored.
	Infinite bool

	// Wait is how long the answer may take; a later answer is a TimeOut
	// fault if Timed, else NoAnswer.
	Wait  time.Duration
	Timed bool
	// Stop, if not nil, makes Think send "stop" when it is closed; the
	// engine then has the engine's timeout to send bestmove.
	Stop <-chan struct{}
	// Each, if not nil, gets every info line, as the engine wrote it.
	Each func(line string)
}

// Command writes the go command.
func (r Go) Command() string {
	var b strings.Builder
	b.WriteString("go")
	ms := func(key string, d time.Duration) {
		b.WriteString(" " + key + " " + strconv.FormatInt(d.Milliseconds(), 10))
	}
	if r.HasClock[board.South] {
		ms("wtime", r.Clock[board.South])
	}
	if r.HasClock[board.North] {
		ms("btime", r.Clock[board.North])
	}
	if r.HasClock[board.South] {
		ms("winc", r.Inc[board.South])
	}
	if r.HasClock[board.North] {
		ms("binc", r.Inc[board.North])
	}
	if r.MovesToGo > 0 {
		b.WriteString(" movestogo " + strconv.Itoa(r.MovesToGo))
	}
	if r.MoveTime > 0 {
		ms("movetime", r.MoveTime)
	}
	if r.Nodes > 0 {
		b.WriteString(" nodes " + strconv.FormatUint(r.Nodes, 10))
	}
	if r.Depth > 0 {
		b.WriteString(" depth " + strconv.Itoa(r.Depth))
	}
	if r.Infinite {
		b.WriteString(" infinite")
	}
	return b.String()
}

// Reply is an engine's answer to go.
type Reply struct {
	Move    string        // as written after bestmove ("" if nothing was)
	Ponder  string        // the reply it expects, after "ponder" ("" if none)
	Elapsed time.Duration // from go to bestmove
	Info    Info          // what the info lines before bestmove said
}
