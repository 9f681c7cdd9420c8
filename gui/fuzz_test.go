package gui

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"testing"
	"time"
)

// rwConn is a connection reading from a buffer and discarding writes.
type rwConn struct {
	net.Conn
	r io.Reader
}

func (c rwConn) Read(b []byte) (int, error)  { return c.r.Read(b) }
func (c rwConn) Write(b []byte) (int, error) { return len(b), nil }

func (c rwConn) SetWriteDeadline(time.Time) error { return nil }

// FuzzReadMessage feeds arbitrary bytes to the frame reader: it must
// return messages within the limit or an error, never panic or hang.
func FuzzReadMessage(f *testing.F) {
	f.Add([]byte{0x81, 0x85, 1, 2, 3, 4, 'h' ^ 1, 'e' ^ 2, 'l' ^ 3, 'l' ^ 4, 'o' ^ 1})
	f.Add([]byte{0x01, 0x81, 0, 0, 0, 0, 'a', 0x80, 0x81, 0, 0, 0, 0, 'b'})
	f.Add([]byte{0x89, 0x80, 0, 0, 0, 0, 0x88, 0x82, 0, 0, 0, 0, 3, 0xe8})
	f.Add([]byte{0x81, 0xff, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0})
	f.Add([]byte{0x81, 0xfe, 0xff, 0xff, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		c := &wsConn{conn: rwConn{r: bytes.NewReader(data)}, r: bufio.NewReader(bytes.NewReader(data)), max: 256}
		for range 64 {
			m, err := c.ReadMessage()
			if err != nil {
				return
			}
			if len(m) > 256 {
				t.Fatalf("a message of %d bytes over the limit", len(m))
			}
		}
	})
}
