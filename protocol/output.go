package protocol

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"sync"

	"github.com/sower-engine/sower/board"
)

// output serialises the engine's lines: the command loop and a running
// search write through it, a whole block of lines at a time, each line
// flushed as it is written. The first write error is kept and every later
// write is dropped. It also holds the dialect, which decides the form of
// a bestmove when the line is written (see handshake and bestmove).
type output struct {
	mu  sync.Mutex
	w   *bufio.Writer
	err error
	// ugi is true after a "ugi" handshake and false after "uci": UGI's
	// bestmove carries the move alone, UCI's may add "ponder <move>".
	ugi bool
}

func newOutput(w io.Writer) *output { return &output{w: bufio.NewWriter(w)} }

// print writes lines as one block: no other line comes between them. A
// line break inside a line becomes a space, so every string is one line.
func (o *output) print(lines ...string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.write(lines)
}

// write writes lines; o.mu is held.
func (o *output) write(lines []string) {
	for _, l := range lines {
		if o.err != nil {
			return
		}
		if strings.ContainsAny(l, "\r\n") {
			l = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(l)
		}
		o.w.WriteString(l)
		o.w.WriteByte('\n')
		o.err = o.w.Flush()
	}
}

// handshake sets the dialect (UGI if ugi, else UCI) and writes the
// handshake's answer in one block: a bestmove written after the answer's
// last line has the new dialect's form, one written before it the old.
func (o *output) handshake(ugi bool, lines ...string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.ugi = ugi
	o.write(lines)
}

// bestmove writes lines, then the bestmove line of move and ponder in the
// form of the dialect in force now: UGI's bestmove is exactly "bestmove
// <move>", since runners that follow it wait forever on a line with more
// words.
func (o *output) bestmove(move, ponder board.Move, lines ...string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.ugi {
		ponder = board.NoMove
	}
	o.write(append(lines, FormatBestMove(move, ponder)))
}

// info writes a diagnostic: "info string <s>".
func (o *output) info(s string) { o.print("info string " + s) }

// failed returns the first write error, or nil.
func (o *output) failed() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// infoWriter is an io.Writer for free text (the bench hook's report): each
// complete line written to it goes out as "info string <line>"; empty lines
// are dropped. Close sends a last unterminated line.
type infoWriter struct {
	out     *output
	partial []byte
}

func (w *infoWriter) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			w.partial = append(w.partial, b...)
			break
		}
		w.partial = append(w.partial, b[:i]...)
		w.flushLine()
		b = b[i+1:]
	}
	if err := w.out.failed(); err != nil {
		return 0, err
	}
	return n, nil
}

func (w *infoWriter) flushLine() {
	line := strings.TrimRight(string(w.partial), " \t\r")
	w.partial = w.partial[:0]
	if line != "" {
		w.out.info(line)
	}
}

// Close sends what remains of an unterminated last line.
func (w *infoWriter) Close() error {
	w.flushLine()
	return w.out.failed()
}
