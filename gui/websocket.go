package gui

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
)

// The page's socket: text messages over github.com/coder/websocket, which
// does the protocol (RFC 6455): the handshake, framing, fragments, ping,
// pong and close. No extension or subprotocol is negotiated.

// Bounds on the socket's waits.
const (
	writeWait = 10 * time.Second // a message's write
	pongWait  = 10 * time.Second // the page's pong to a ping (wsConn.pongWait)
	closeWait = 2 * time.Second  // the closing handshake, before Close returns
)

// wsConn is the server's side of the page's socket. Reads happen in one
// goroutine; writes, pings and Close may come from any.
type wsConn struct {
	c        *websocket.Conn
	pongWait time.Duration // how long a ping awaits its pong
	pinging  atomic.Bool   // a ping awaits its pong

	closeOnce sync.Once
	closed    chan struct{} // closed when the closing handshake is over
}

// upgrade completes the opening handshake of a request whose Host and
// Origin the server has checked, or writes an HTTP error and returns an
// error. The library checks the Origin again: it must be the page's own
// (its host the request's Host). Messages over maxMessage bytes end the
// connection with status 1009.
func upgrade(w http.ResponseWriter, r *http.Request, maxMessage int) (*wsConn, error) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(int64(maxMessage))
	return &wsConn{c: c, pongWait: pongWait, closed: make(chan struct{})}, nil
}

// ReadMessage returns the next text message. A binary message (status
// 1003) or text that is not UTF-8 (1007) ends the connection with an
// error, as do a close by the page, a protocol error and a message over
// the limit, which the library answers with their close frames.
func (c *wsConn) ReadMessage() ([]byte, error) {
	typ, b, err := c.c.Read(context.Background())
	switch {
	case err != nil:
		return nil, err
	case typ != websocket.MessageText:
		c.closeWith(websocket.StatusUnsupportedData, "text messages only")
		return nil, errors.New("websocket: a binary message")
	case !utf8.Valid(b):
		c.closeWith(websocket.StatusInvalidFramePayloadData, "invalid UTF-8")
		return nil, errors.New("websocket: invalid UTF-8 in a text message")
	}
	return b, nil
}

// WriteText sends a text message. A write that takes longer than
// writeWait ends the connection.
func (c *wsConn) WriteText(b []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), writeWait)
	defer cancel()
	return c.c.Write(ctx, websocket.MessageText, b)
}

// Ping sends a ping and returns at once; a page that does not answer
// within c.pongWait is taken as gone and its connection closed, which ends
// the reads. A ping is not sent while the last one awaits its pong.
func (c *wsConn) Ping() error {
	if !c.pinging.CompareAndSwap(false, true) {
		return nil
	}
	go func() {
		defer c.pinging.Store(false)
		ctx, cancel := context.WithTimeout(context.Background(), c.pongWait)
		defer cancel()
		if err := c.c.Ping(ctx); err != nil {
			c.c.CloseNow()
		}
	}()
	return nil
}

// Close closes the connection (status 1001, going away), waiting at most
// closeWait for the page's answer.
func (c *wsConn) Close() error {
	c.closeWith(websocket.StatusGoingAway, "")
	return nil
}

// closeWith starts the closing handshake with a status and reason, once,
// and waits for it at most closeWait; the library ends the connection
// itself if the page has not answered within its own timeouts (5 s).
func (c *wsConn) closeWith(code websocket.StatusCode, reason string) {
	c.closeOnce.Do(func() {
		go func() {
			c.c.Close(code, reason)
			close(c.closed)
		}()
	})
	t := time.NewTimer(closeWait)
	defer t.Stop()
	select {
	case <-c.closed:
	case <-t.C:
	}
}
