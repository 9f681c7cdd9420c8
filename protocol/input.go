package protocol

import (
	"bufio"
	"errors"
	"io"
)

// MaxLineBytes is the longest command line the engine reads. A longer line
// is skipped whole (it is read to its end, never held in memory) and
// answered with one error line.
const MaxLineBytes = 1 << 20

// inputLine is one line read from the input, or the end of the input.
type inputLine struct {
	text    string // the line without its line break
	length  int    // the line's length in bytes, even when it was too long
	tooLong bool   // longer than MaxLineBytes: text is empty
	err     error  // io.EOF at the end of the input, or a read error
}

// readInput reads lines from r and sends them on lines until the input
// ends (a last inputLine with err set) or done is closed. It holds at most
// MaxLineBytes of a line in memory.
func readInput(r io.Reader, lines chan<- inputLine, done <-chan struct{}) {
	br := bufio.NewReaderSize(r, 64<<10)
	send := func(l inputLine) bool {
		select {
		case lines <- l:
			return true
		case <-done:
			return false
		}
	}
	for {
		l, err := readLine(br)
		if l.length > 0 || err == nil {
			if !send(l) {
				return
			}
		}
		if err != nil {
			send(inputLine{err: err})
			return
		}
	}
}

// readLine reads one line. Its text excludes the "\n" and a "\r" before
// it. At the end of the input the error is io.EOF, with the last line's
// text if it had no line break.
func readLine(br *bufio.Reader) (inputLine, error) {
	var buf []byte
	var l inputLine
	for {
		frag, err := br.ReadSlice('\n')
		l.length += len(frag)
		if !l.tooLong {
			buf = append(buf, frag...)
			if len(buf) > MaxLineBytes+2 { // room for "\r\n"
				l.tooLong, buf = true, nil
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if n := len(frag); n > 0 && frag[n-1] == '\n' {
			l.length--
			if len(buf) > 0 {
				buf = buf[:len(buf)-1]
			}
		}
		if n := len(buf); n > 0 && buf[n-1] == '\r' {
			buf = buf[:n-1]
		}
		if len(buf) > MaxLineBytes {
			l.tooLong, buf = true, nil
		}
		l.text = string(buf)
		return l, err
	}
}
