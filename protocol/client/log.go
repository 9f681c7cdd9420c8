package client

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// Log writes every line sent to and read from engines, from any goroutine,
// one line each: seconds since the log began, the engine's name (its
// Spec.Name; a program running several processes of one engine should
// give each a name of its own), ">" for a line sent or "<" for a line
// read, and the line. A nil *Log writes nothing. The first write that
// fails stops the log; Err returns its error.
type Log struct {
	mu    sync.Mutex
	w     io.Writer
	start time.Time
	err   error
}

// NewLog returns a log writing to w, or nil when w is nil.
func NewLog(w io.Writer) *Log {
	if w == nil {
		return nil
	}
	return &Log{w: w, start: time.Now()}
}

// Note writes a line of the program's own, such as which processes play a
// game: seconds since the log began, "#" and the text.
func (l *Log) Note(format string, a ...any) {
	if l == nil {
		return
	}
	l.write("# " + fmt.Sprintf(format, a...))
}

// Err returns the error of the first write that failed, or nil.
func (l *Log) Err() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

func (l *Log) printf(name, dir, text string) {
	if l == nil {
		return
	}
	l.write(name + " " + dir + " " + text)
}

// write writes one line after the time, unless a write has failed.
func (l *Log) write(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return
	}
	if _, err := fmt.Fprintf(l.w, "%9.3f %s\n", time.Since(l.start).Seconds(), line); err != nil {
		l.err = err
	}
}
