package client

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// Log writes every line sent to and read from engines, from any goroutine,
// one line each: seconds since the log began, the engine's name, ">" for
// a line sent or "<" for a line read, and the line. A nil *Log writes
// nothing.
type Log struct {
	mu    sync.Mutex
	w     io.Writer
	start time.Time
}

// NewLog returns a log writing to w, or nil when w is nil.
func NewLog(w io.Writer) *Log {
	if w == nil {
		return nil
	}
	return &Log{w: w, start: time.Now()}
}

func (l *Log) printf(name, dir, text string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "%9.3f %s %s %s\n", time.Since(l.start).Seconds(), name, dir, text)
}
