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
	length  int    // the text's length in bytes, even when it was too long
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

// readLine reads one line. Its text excludes the line break: the "\n" and
// a "\r" before it (or a "\r" that ends the input). Its length counts the
// bytes of the text, even when the line is too long to be kept. At the end
// of the input the error is io.EOF, with the last line's text if it had no
// line break.
func readLine(br *bufio.Reader) (inputLine, error) {
	var buf []byte
	var l inputLine
	var tail [2]byte // the line's last two bytes so far
	for {
		frag, err := br.ReadSlice('\n')
		l.length += len(frag)
		switch n := len(frag); {
		case n >= 2:
			tail = [2]byte{frag[n-2], frag[n-1]}
		case n == 1:
			tail = [2]byte{tail[1], frag[0]}
		}
		if !l.tooLong {
			buf = append(buf, frag...)
			if len(buf) > MaxLineBytes+2 { // room for "\r\n"
				l.tooLong, buf = true, nil
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if l.length > 0 && tail[1] == '\n' {
			l.length--
			tail = [2]byte{0, tail[0]}
		}
		if l.length > 0 && tail[1] == '\r' {
			l.length--
		}
		l.tooLong = l.length > MaxLineBytes
		if !l.tooLong {
			l.text = string(buf[:l.length])
		}
		return l, err
	}
}
