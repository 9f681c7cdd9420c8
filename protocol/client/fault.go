package client

// Kind says what went wrong with an engine.
type Kind int

// The kinds of fault.
const (
	// Crash: the engine could not start, exited, closed its pipes or
	// wrote unreadable output.
	Crash Kind = iota + 1
	// NoAnswer: no answer within a limit that is not a clock (uciok,
	// readyok, or bestmove without a time limit).
	NoAnswer
	// TimeOut: no bestmove within the time the engine had (a time
	// forfeit in a match).
	TimeOut
	// Aborted: the caller's context was cancelled while it waited.
	Aborted
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case Crash:
		return "crash"
	case NoAnswer:
		return "no answer"
	case TimeOut:
		return "time out"
	case Aborted:
		return "aborted"
	}
	return "fault"
}

// Fault is what went wrong talking to an engine: its kind and a one-line
// description. After a fault other than Aborted the engine's state is
// unknown: close it and start another.
type Fault struct {
	Kind   Kind
	Detail string
}

// Error returns the description.
func (f *Fault) Error() string { return f.Detail }
