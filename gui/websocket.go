package gui

import (
	"bufio"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// The WebSocket protocol (RFC 6455), server side: the opening handshake,
// framing with client masking, fragmented messages, ping, pong and close.
// No extension or subprotocol is negotiated.

// wsGUID is the key suffix of the handshake (RFC 6455, 1.3).
const wsGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

// Opcodes.
const (
	opContinuation = 0x0
	opText         = 0x1
	opBinary       = 0x2
	opClose        = 0x8
	opPing         = 0x9
	opPong         = 0xA
)

// Close status codes.
const (
	closeNormal     = 1000
	closeProtocol   = 1002
	closeBadData    = 1007
	closeTooBig     = 1009
	closeGoingAway  = 1001
	maxControlBytes = 125
)

// errTooBig is a message over the limit.
var errTooBig = errors.New("websocket: message too big")

// wsConn is a server-side WebSocket connection. Reads happen in one
// goroutine; writes may come from any goroutine.
type wsConn struct {
	conn   net.Conn
	r      *bufio.Reader
	max    int // largest message accepted, in bytes
	wmu    sync.Mutex
	closed bool // a close frame was sent (under wmu)
}

// wsAccept returns the Sec-WebSocket-Accept value for a key.
func wsAccept(key string) string {
	h := sha1.Sum([]byte(key + wsGUID))
	return base64.StdEncoding.EncodeToString(h[:])
}

// headerHas reports whether a comma-separated header holds token, in any
// case.
func headerHas(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

// upgrade completes the opening handshake of a checked request and
// returns the connection, or writes an HTTP error and returns an error.
func upgrade(w http.ResponseWriter, r *http.Request, maxMessage int) (*wsConn, error) {
	fail := func(code int, why string) (*wsConn, error) {
		http.Error(w, why, code)
		return nil, errors.New(why)
	}
	if r.Method != http.MethodGet {
		return fail(http.StatusMethodNotAllowed, "websocket: the handshake must be a GET")
	}
	if !r.ProtoAtLeast(1, 1) {
		return fail(http.StatusBadRequest, "websocket: the handshake needs HTTP/1.1 or later")
	}
	if !headerHas(r.Header, "Connection", "upgrade") || !headerHas(r.Header, "Upgrade", "websocket") {
		return fail(http.StatusBadRequest, "websocket: not a websocket upgrade")
	}
	if r.Header.Get("Sec-WebSocket-Version") != "13" {
		w.Header().Set("Sec-WebSocket-Version", "13")
		return fail(http.StatusUpgradeRequired, "websocket: version 13 only")
	}
	key := r.Header.Get("Sec-WebSocket-Key")
	if k, err := base64.StdEncoding.DecodeString(key); err != nil || len(k) != 16 {
		return fail(http.StatusBadRequest, "websocket: bad Sec-WebSocket-Key")
	}
	conn, rw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return fail(http.StatusInternalServerError, "websocket: "+err.Error())
	}
	conn.SetDeadline(time.Time{})
	resp := "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Accept: " + wsAccept(key) + "\r\n\r\n"
	if _, err := rw.WriteString(resp); err != nil {
		conn.Close()
		return nil, err
	}
	if err := rw.Flush(); err != nil {
		conn.Close()
		return nil, err
	}
	return &wsConn{conn: conn, r: rw.Reader, max: maxMessage}, nil
}

// frame is one frame's header and payload.
type frame struct {
	fin     bool
	op      byte
	payload []byte
}

// readFrame reads one frame from the client, which must be masked. limit
// bounds its payload.
func (c *wsConn) readFrame(limit int) (frame, error) {
	var h [2]byte
	if _, err := io.ReadFull(c.r, h[:]); err != nil {
		return frame{}, err
	}
	f := frame{fin: h[0]&0x80 != 0, op: h[0] & 0x0f}
	if h[0]&0x70 != 0 {
		return f, protoErr("reserved bits set")
	}
	if h[1]&0x80 == 0 {
		return f, protoErr("unmasked client frame")
	}
	n := uint64(h[1] & 0x7f)
	switch n {
	case 126:
		var b [2]byte
		if _, err := io.ReadFull(c.r, b[:]); err != nil {
			return f, err
		}
		n = uint64(binary.BigEndian.Uint16(b[:]))
	case 127:
		var b [8]byte
		if _, err := io.ReadFull(c.r, b[:]); err != nil {
			return f, err
		}
		n = binary.BigEndian.Uint64(b[:])
		if n>>63 != 0 {
			return f, protoErr("bad payload length")
		}
	}
	if f.op >= opClose {
		if n > maxControlBytes || !f.fin {
			return f, protoErr("bad control frame")
		}
	} else if n > uint64(limit) {
		return f, errTooBig
	}
	var mask [4]byte
	if _, err := io.ReadFull(c.r, mask[:]); err != nil {
		return f, err
	}
	f.payload = make([]byte, n)
	if _, err := io.ReadFull(c.r, f.payload); err != nil {
		return f, err
	}
	for i := range f.payload {
		f.payload[i] ^= mask[i&3]
	}
	return f, nil
}

// wsProtocolError is a violation of the protocol by the client.
type wsProtocolError string

func (e wsProtocolError) Error() string { return "websocket: " + string(e) }

func protoErr(s string) error { return wsProtocolError(s) }

// ReadMessage returns the next text message, answering pings and
// assembling fragments on the way. At a close frame, a protocol error or
// an oversized message it sends the matching close frame and returns an
// error (io.EOF for a close by the client).
func (c *wsConn) ReadMessage() ([]byte, error) {
	var msg []byte
	var op byte
	for {
		f, err := c.readFrame(c.max - len(msg))
		switch {
		case errors.Is(err, errTooBig):
			c.closeWith(closeTooBig, "message too big")
			return nil, err
		case err != nil:
			var pe wsProtocolError
			if errors.As(err, &pe) {
				c.closeWith(closeProtocol, string(pe))
			}
			return nil, err
		}
		switch f.op {
		case opPing:
			if err := c.write(opPong, f.payload); err != nil {
				return nil, err
			}
			continue
		case opPong:
			continue
		case opClose:
			code, err := closeCode(f.payload)
			if err != nil {
				c.closeWith(closeProtocol, err.Error())
				return nil, protoErr(err.Error())
			}
			c.closeWith(code, "")
			return nil, io.EOF
		case opText, opBinary:
			if op != 0 {
				c.closeWith(closeProtocol, "new message inside a fragmented one")
				return nil, protoErr("new message inside a fragmented one")
			}
			op = f.op
		case opContinuation:
			if op == 0 {
				c.closeWith(closeProtocol, "continuation without a message")
				return nil, protoErr("continuation without a message")
			}
		default:
			c.closeWith(closeProtocol, "unknown opcode")
			return nil, protoErr(fmt.Sprintf("unknown opcode %d", f.op))
		}
		msg = append(msg, f.payload...)
		if !f.fin {
			continue
		}
		if op == opBinary {
			c.closeWith(closeBadData, "text messages only")
			return nil, protoErr("binary message")
		}
		if !utf8.Valid(msg) {
			c.closeWith(closeBadData, "invalid UTF-8")
			return nil, protoErr("invalid UTF-8 in a text message")
		}
		return msg, nil
	}
}

// closeCode checks a close frame's payload (RFC 6455, 5.5.1 and 7.4) and
// returns the status to answer with: the client's, or 1000 when it gave
// none. A 1-byte payload, a status no endpoint may send (below 1000, 1004
// to 1006, 1015, 1016 to 2999, 5000 and up) or a reason that is not UTF-8
// is an error.
func closeCode(payload []byte) (int, error) {
	switch len(payload) {
	case 0:
		return closeNormal, nil
	case 1:
		return 0, errors.New("close frame with a 1-byte payload")
	}
	code := int(binary.BigEndian.Uint16(payload))
	switch {
	case code >= 1000 && code <= 1003, code >= 1007 && code <= 1014, code >= 3000 && code <= 4999:
	default:
		return 0, fmt.Errorf("invalid close status %d", code)
	}
	if !utf8.Valid(payload[2:]) {
		return 0, errors.New("close reason not UTF-8")
	}
	return code, nil
}

// WriteText sends a text message in one frame.
func (c *wsConn) WriteText(b []byte) error { return c.write(opText, b) }

// Ping sends a ping.
func (c *wsConn) Ping() error { return c.write(opPing, nil) }

// write sends one unmasked frame.
func (c *wsConn) write(op byte, payload []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.closed {
		return net.ErrClosed
	}
	return c.writeLocked(op, payload)
}

// frameHeader returns a frame's header without a mask: the first byte b0
// (FIN, opcode) and the payload length n in RFC 6455's three sizes.
func frameHeader(b0 byte, n int) []byte {
	hdr := make([]byte, 2, 14)
	hdr[0] = b0
	switch {
	case n < 126:
		hdr[1] = byte(n)
	case n <= 0xffff:
		hdr[1] = 126
		hdr = binary.BigEndian.AppendUint16(hdr, uint16(n))
	default:
		hdr[1] = 127
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	return hdr
}

func (c *wsConn) writeLocked(op byte, payload []byte) error {
	hdr := frameHeader(0x80|op, len(payload))
	c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.conn.Write(append(hdr, payload...)); err != nil {
		return err
	}
	return nil
}

// closeWith sends a close frame with a status and reason, once.
func (c *wsConn) closeWith(code int, reason string) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.closed {
		return
	}
	b := binary.BigEndian.AppendUint16(nil, uint16(code))
	c.writeLocked(opClose, append(b, reason...))
	c.closed = true
}

// Close sends a close frame (going away) if none was sent and closes the
// connection.
func (c *wsConn) Close() error {
	c.closeWith(closeGoingAway, "")
	return c.conn.Close()
}
