package gui

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// echo is a server of upgrade alone that writes back every message it
// reads: conn gets its side of the socket, ended the error that ended its
// reads.
type echo struct {
	conn  chan *wsConn
	ended chan error
}

// serveEcho serves an echo on a loopback port with a message limit of max
// bytes and a ping's wait of pongWait, until the test ends, and returns
// its address.
func serveEcho(t *testing.T, max int, pongWait time.Duration) (string, echo) {
	t.Helper()
	e := echo{conn: make(chan *wsConn, 1), ended: make(chan error, 1)}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := upgrade(w, r, max)
		if err != nil {
			return
		}
		c.pongWait = pongWait
		e.conn <- c
		for {
			m, err := c.ReadMessage()
			if err == nil {
				err = c.WriteText(m)
			}
			if err != nil {
				e.ended <- err
				return
			}
		}
	}))
	t.Cleanup(hs.Close)
	return strings.TrimPrefix(hs.URL, "http://"), e
}

// openEcho opens an echo's socket as its own page.
func openEcho(t *testing.T, max int, pongWait time.Duration) (*page, echo) {
	t.Helper()
	addr, e := serveEcho(t, max, pongWait)
	return open(t, addr), e
}

// wait returns the error that ended the echo's reads, failing after 10 s.
func (e echo) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-e.ended:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("the server still reads")
		return nil
	}
}

func TestSocketMessages(t *testing.T) {
	const max = 1024
	p, _ := openEcho(t, max, pongWait)
	for _, m := range []string{"hello", strings.Repeat("é", 300), strings.Repeat("x", max)} {
		p.write(websocket.MessageText, []byte(m))
		if b, err := p.read(); err != nil || string(b) != m {
			t.Errorf("sent %d bytes, got %d back (%v)", len(m), len(b), err)
		}
	}
	// A message in fragments, a frame for each Write.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	w, err := p.conn.Writer(ctx, websocket.MessageText)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"frag", "men", "ted"} {
		if _, err := w.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if b, err := p.read(); err != nil || string(b) != "fragmented" {
		t.Errorf("fragments: got %q (%v)", b, err)
	}
}

func TestSocketRefusesMessages(t *testing.T) {
	const max = 1024
	for _, tc := range []struct {
		name string
		send func(p *page)
		code websocket.StatusCode
	}{
		{"too big", func(p *page) { p.write(websocket.MessageText, make([]byte, max+1)) }, websocket.StatusMessageTooBig},
		{"too big in fragments", func(p *page) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			w, err := p.conn.Writer(ctx, websocket.MessageText)
			if err != nil {
				p.t.Fatal(err)
			}
			w.Write(make([]byte, max/2+1))
			w.Write(make([]byte, max/2+1))
			w.Close()
		}, websocket.StatusMessageTooBig},
		{"binary", func(p *page) { p.write(websocket.MessageBinary, []byte{1}) }, websocket.StatusUnsupportedData},
		{"bad utf-8", func(p *page) { p.write(websocket.MessageText, []byte{0xff, 0xfe}) }, websocket.StatusInvalidFramePayloadData},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, e := openEcho(t, max, pongWait)
			tc.send(p)
			if _, err := p.read(); websocket.CloseStatus(err) != tc.code {
				t.Errorf("the page read %v, want a close with status %d", err, tc.code)
			}
			if e.wait(t) == nil {
				t.Error("the server read on")
			}
		})
	}
}

func TestSocketClose(t *testing.T) {
	t.Run("by the page", func(t *testing.T) {
		p, e := openEcho(t, 1024, pongWait)
		if err := p.conn.Close(websocket.StatusGoingAway, "bye"); err != nil {
			t.Errorf("the page's close: %v", err)
		}
		if err := e.wait(t); websocket.CloseStatus(err) != websocket.StatusGoingAway {
			t.Errorf("the server read %v, want the page's close", err)
		}
	})
	t.Run("by the server", func(t *testing.T) {
		p, e := openEcho(t, 1024, pongWait)
		c := <-e.conn
		closed := make(chan time.Duration, 1)
		go func() {
			start := time.Now()
			c.Close()
			closed <- time.Since(start)
		}()
		if _, err := p.read(); websocket.CloseStatus(err) != websocket.StatusGoingAway {
			t.Errorf("the page read %v, want a close with status 1001", err)
		}
		if d := <-closed; d >= closeWait {
			t.Errorf("Close took %v: it did not see the page's answer", d)
		}
		if e.wait(t) == nil {
			t.Error("the server read on")
		}
	})
}

func TestSocketPing(t *testing.T) {
	t.Run("answered", func(t *testing.T) {
		p, e := openEcho(t, 1024, pongWait)
		c := <-e.conn
		got := make(chan string)
		go func() { // the page reads, which answers pings
			for {
				b, err := p.read()
				if err != nil {
					close(got)
					return
				}
				got <- string(b)
			}
		}()
		c.Ping()
		deadline := time.Now().Add(5 * time.Second)
		for c.pinging.Load() && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if c.pinging.Load() {
			t.Fatal("no pong in 5 s")
		}
		p.write(websocket.MessageText, []byte("still here"))
		if m := <-got; m != "still here" {
			t.Errorf("after the ping: got %q", m)
		}
	})
	t.Run("unanswered", func(t *testing.T) {
		_, e := openEcho(t, 1024, 50*time.Millisecond)
		c := <-e.conn
		c.Ping() // the page does not read, so it does not answer
		if e.wait(t) == nil {
			t.Error("the server read on")
		}
	})
}

// The server reads messages of up to MaxMessage bytes and refuses a
// longer one with status 1009.
func TestMessageLimit(t *testing.T) {
	addr, _ := startServer(t)
	// export padded to n bytes with a field the server ignores.
	export := func(n int) []byte {
		b := []byte(`{"type":"export","format":"jsonl","pad":"`)
		b = append(b, strings.Repeat("x", n-len(b)-2)...)
		return append(b, `"}`...)
	}
	p := open(t, addr)
	p.write(websocket.MessageText, export(MaxMessage))
	for {
		b, err := p.read()
		if err != nil {
			t.Fatalf("no answer to a message of MaxMessage bytes: %v", err)
		}
		var e exportMsg
		if json.Unmarshal(b, &e); e.Type == "export" {
			break
		}
	}
	p = open(t, addr)
	p.write(websocket.MessageText, export(MaxMessage+1))
	for {
		_, err := p.read()
		if err != nil {
			if websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
				t.Errorf("a message over MaxMessage: %v, want a close with status 1009", err)
			}
			break
		}
	}
}

// The socket's handshake over the wire: a page of another site, a
// rebinding host and a request without Origin are refused.
func TestSocketRefused(t *testing.T) {
	addr, srv := startServer(t)
	port := addr[strings.LastIndex(addr, ":"):]
	for _, tc := range []struct{ origin, host string }{
		{"", ""},
		{"http://evil.example", ""},
		{"http://localhost" + port, ""}, // ours, but not the request's host
		{"http://evil.example" + port, "evil.example" + port},
	} {
		c, resp, err := dial(addr, tc.origin, tc.host)
		if err == nil {
			c.CloseNow()
		}
		if resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("origin %q host %q: %v, want 403", tc.origin, tc.host, err)
		}
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if len(srv.sessions) != 0 {
		t.Errorf("%d games started", len(srv.sessions))
	}
}
