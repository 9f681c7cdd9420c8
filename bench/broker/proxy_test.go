package broker

import (
	"bytes"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
)

// proxy forwards connections to a broker and, once the broker has sent
// a message on a subject that starts with its trigger, stops forwarding
// what the clients send: a client then acts on that message, but nothing
// it answers (an acknowledgement) reaches the broker.
type proxy struct {
	ln      net.Listener
	target  string
	trigger []byte
	frozen  atomic.Bool
	held    chan struct{} // closed when it froze
	once    sync.Once
}

// startProxy listens on a free loopback port and forwards to target.
func startProxy(t *testing.T, target, subject string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target, trigger: []byte("MSG " + subject), held: make(chan struct{})}
	t.Cleanup(func() { ln.Close() })
	go p.serve()
	return p
}

// URL returns the proxy's client URL.
func (p *proxy) URL() string { return "nats://" + p.ln.Addr().String() }

func (p *proxy) serve() {
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			client.Close()
			continue
		}
		go p.toClient(server, client)
		go p.toServer(client, server)
	}
}

// toClient forwards the broker's bytes and freezes at the trigger.
func (p *proxy) toClient(server, client net.Conn) {
	defer client.Close()
	buf := make([]byte, 32<<10)
	var tail []byte
	for {
		n, err := server.Read(buf)
		if n > 0 {
			seen := append(tail, buf[:n]...)
			// Frozen before the client sees the message: frozen after,
			// its acknowledgement could pass on a busy machine.
			if bytes.Contains(seen, p.trigger) {
				p.once.Do(func() { p.frozen.Store(true); close(p.held) })
			}
			if _, werr := client.Write(buf[:n]); werr != nil {
				return
			}
			tail = append([]byte(nil), seen[max(len(seen)-len(p.trigger), 0):]...)
		}
		if err != nil {
			return
		}
	}
}

// toServer forwards the client's bytes until the proxy froze, then drops
// them.
func (p *proxy) toServer(client, server net.Conn) {
	defer server.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := client.Read(buf)
		if n > 0 && !p.frozen.Load() {
			if _, werr := server.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				return
			}
			return
		}
	}
}
