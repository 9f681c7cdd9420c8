package sowertest

import (
	"bytes"
	"strings"
	"sync"
)

// SyncBuffer is a bytes.Buffer that several goroutines may write and read
// at once: the output of a child process or of a server that a test reads
// while it runs. The zero value is ready to use.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p to the buffer.
func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String returns what was written so far.
func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Lines returns what was written so far as lines, without their line
// breaks; nil when nothing was.
func (b *SyncBuffer) Lines() []string {
	s := strings.TrimSuffix(b.String(), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
