package gui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/internal/sowertest"
	"github.com/sower-engine/sower/protocol/client/clienttest"
)

func newTestServer(t testing.TB, engines ...Engine) *Server {
	t.Helper()
	if len(engines) == 0 {
		engines = []Engine{{Name: "e", Command: []string{"e"}}}
	}
	s, err := New(Config{Engines: engines, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestHostAndOrigin(t *testing.T) {
	s := newTestServer(t)
	s.Allow(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8123}, "127.0.0.1:8123")
	tests := []struct {
		host, origin, path string
		ws, http10         bool
		want               int
	}{
		{host: "127.0.0.1:8123", path: "/", want: 200},
		{host: "localhost:8123", path: "/app.js", want: 200},
		{host: "[::1]:8123", path: "/", want: 200},
		{host: "LOCALHOST:8123", origin: "http://localhost:8123", path: "/", want: 200},
		{host: "evil.example:8123", path: "/", want: 403}, // DNS rebinding
		{host: "127.0.0.1:9999", path: "/", want: 403},    // another port
		{host: "127.0.0.1", path: "/", want: 403},         // no port
		{host: "127.0.0.1:8123", origin: "http://evil.example", path: "/", want: 403},
		{host: "127.0.0.1:8123", origin: "https://127.0.0.1:8123", path: "/", want: 403},
		{host: "127.0.0.1:8123", origin: "http://127.0.0.1:8123@evil", path: "/", want: 403},
		{host: "127.0.0.1:8123", origin: "null", path: "/", want: 403},
		{host: "127.0.0.1:8123", path: "/ws", ws: true, want: 403}, // a socket needs an Origin
		{host: "127.0.0.1:8123", origin: "http://evil.example", path: "/ws", ws: true, want: 403},
		{host: "evil.example:8123", origin: "http://evil.example:8123", path: "/ws", ws: true, want: 403},
		{host: "127.0.0.1:8123", origin: "http://localhost:8123", path: "/ws", ws: true, want: 403}, // the socket's Origin is its Host
		{host: "127.0.0.1:8123", origin: "http://127.0.0.1:8123", path: "/ws", want: 426},           // not an upgrade
		{host: "127.0.0.1:8123", origin: "http://127.0.0.1:8123", path: "/ws", ws: true, http10: true, want: 426},
	}
	for _, tc := range tests {
		r := httptest.NewRequest("GET", "http://"+tc.host+tc.path, nil)
		r.Host = tc.host
		if tc.http10 {
			r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/1.0", 1, 0
		}
		if tc.origin != "" {
			r.Header.Set("Origin", tc.origin)
		}
		if tc.ws {
			r.Header.Set("Connection", "Upgrade")
			r.Header.Set("Upgrade", "websocket")
			r.Header.Set("Sec-WebSocket-Version", "13")
			r.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != tc.want {
			t.Errorf("%s%s origin %q: status %d, want %d", tc.host, tc.path, tc.origin, w.Code, tc.want)
		}
	}
}

func TestNewChecksEngines(t *testing.T) {
	for _, es := range [][]Engine{nil, {{Name: "human", Command: []string{"x"}}}, {{Name: "a b", Command: []string{"x"}}},
		{{Name: "a", Command: nil}}, {{Name: "a", Command: []string{"x"}}, {Name: "a", Command: []string{"y"}}}} {
		if _, err := New(Config{Engines: es}); err == nil {
			t.Errorf("New accepts engines %v", es)
		}
	}
}

// page is a test's connection to a running server, speaking JSON.
type page struct {
	t       testing.TB
	conn    *websocket.Conn
	last    stateMsg
	msg     string
	session sessionMsg // the socket's first message
	taken   bool       // another tab took the game over
}

// startServer runs a server with the engines on a loopback port and
// returns its address; the cleanup stops it.
func startServer(t testing.TB, engines ...Engine) (string, *Server) {
	t.Helper()
	s := newTestServer(t, engines...)
	return serve(t, s), s
}

// serve serves s on a free port until the test ends and returns its
// address.
func serve(t testing.TB, s *Server) string {
	t.Helper()
	addr, _ := serveStop(t, s)
	return addr
}

// serveStop serves s on a free port and returns its address and a stop
// that ends Serve as Ctrl-C does and waits for it; the test's end stops
// it too.
func serveStop(t testing.TB, s *Server) (string, func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, "127.0.0.1:0") }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Serve: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return ln.Addr().String(), stop
}

// dial opens the server's socket at addr as a page of origin would ("":
// no Origin header), naming host in its Host header ("": addr).
func dial(addr, origin, host string) (*websocket.Conn, *http.Response, error) {
	return dialPath(addr, "/ws", origin, host)
}

// dialPath is dial for the socket at path (with its query).
func dialPath(addr, path, origin, host string) (*websocket.Conn, *http.Response, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h := http.Header{}
	if origin != "" {
		h.Set("Origin", origin)
	}
	return websocket.Dial(ctx, "ws://"+addr+path, &websocket.DialOptions{HTTPHeader: h, Host: host})
}

// open connects a page to the server's socket.
func open(t testing.TB, addr string) *page {
	t.Helper()
	return openSession(t, addr, "")
}

// openSession connects a page to the server's socket for the game of
// session id ("" for a new one).
func openSession(t testing.TB, addr, id string) *page {
	t.Helper()
	path := "/ws"
	if id != "" {
		path += "?session=" + id
	}
	c, _, err := dialPath(addr, path, "http://"+addr, "")
	if err != nil {
		t.Fatalf("handshake: %v", err)
	}
	c.SetReadLimit(-1)
	t.Cleanup(func() { c.CloseNow() })
	return &page{t: t, conn: c}
}

func (p *page) send(m map[string]any) {
	p.t.Helper()
	b, _ := json.Marshal(m)
	p.write(websocket.MessageText, b)
}

// write sends a message of type typ.
func (p *page) write(typ websocket.MessageType, b []byte) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.conn.Write(ctx, typ, b); err != nil {
		p.t.Fatalf("write: %v", err)
	}
}

// read returns the server's next message, failing after 10 s.
func (p *page) read() ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, b, err := p.conn.Read(ctx)
	return b, err
}

// await reads messages until ok accepts the state (or a message),
// failing after 15 s.
func (p *page) await(what string, ok func(p *page) bool) {
	p.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		b, err := p.read()
		if err != nil {
			p.t.Fatalf("waiting for %s: %v", what, err)
		}
		var head struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		json.Unmarshal(b, &head)
		switch head.Type {
		case "state":
			p.last = stateMsg{}
			if err := json.Unmarshal(b, &p.last); err != nil {
				p.t.Fatal(err)
			}
		case "message":
			p.msg = head.Text
		case "session":
			json.Unmarshal(b, &p.session)
		case "takenover":
			p.taken = true
		default:
			continue
		}
		if ok(p) {
			return
		}
	}
	p.t.Fatalf("no %s in 15 s; last state %+v, message %q", what, p.last, p.msg)
}

// export asks for the game's record in format and returns it.
func (p *page) export(format string) string {
	p.t.Helper()
	p.send(map[string]any{"type": "export", "format": format})
	for {
		b, err := p.read()
		if err != nil {
			p.t.Fatalf("waiting for the %s record: %v", format, err)
		}
		var e exportMsg
		if json.Unmarshal(b, &e); e.Type == "export" {
			return e.Text
		}
	}
}

// referee replays the page's moves with the rules.
func replayState(t *testing.T, s stateMsg) *board.Game {
	t.Helper()
	v, err := board.New(s.Game)
	if err != nil {
		t.Fatal(err)
	}
	start, err := v.ParsePosition(s.Start)
	if err != nil {
		t.Fatal(err)
	}
	g := board.NewGame(start)
	for i, m := range s.Moves {
		mv, err := v.ParseMove(m.Move)
		if err == nil {
			err = g.Play(mv)
		}
		if err != nil {
			t.Fatalf("ply %d %s: %v", i+1, m.Move, err)
		}
	}
	return g
}

func TestGame(t *testing.T) {
	fake := clienttest.BuildFake(t)
	addr, _ := startServer(t, Engine{Name: "fake", Command: []string{fake}})
	p := open(t, addr)
	p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "human", "north": "fake", "limitKind": "movetime", "limitValue": "50"})
	p.await("the new game", func(p *page) bool { return p.last.Game == "katro-4x4" && p.last.Turn == "human" })
	if p.last.Fen != "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 0" || len(p.last.Legal) == 0 {
		t.Fatalf("start: %+v", p.last)
	}
	// Illegal moves change nothing.
	for _, bad := range []string{"a4", "z9", "pass", ""} {
		p.send(map[string]any{"type": "move", "move": bad, "ply": 0})
		p.await("a message about "+bad, func(p *page) bool { return p.msg != "" })
		if len(p.last.Moves) != 0 {
			t.Fatalf("%q was played", bad)
		}
		p.msg = ""
	}
	// A move, then the engine's answer; the server's game follows the rules.
	for i := 0; i < 3 && p.last.Turn == "human"; i++ {
		n := len(p.last.Moves)
		p.send(map[string]any{"type": "move", "move": p.last.Legal[0], "ply": p.last.View})
		p.await("the engine's answer", func(p *page) bool {
			return len(p.last.Moves) >= n+2 && !p.last.Thinking || p.last.Turn == "over"
		})
		g := replayState(t, p.last)
		pos := g.Position()
		if p.last.Fen != pos.String() || p.last.Moves[n+1].By != "fake" {
			t.Fatalf("state %+v, rules give %s", p.last, pos.String())
		}
		if p.last.Moves[n+1].Eval == nil {
			t.Errorf("no eval for the engine's move")
		}
	}
	// Take back: back to the person's turn.
	n := len(p.last.Moves)
	p.send(map[string]any{"type": "takeback"})
	p.await("the take back", func(p *page) bool { return len(p.last.Moves) == n-2 })
	// Set up: bad notation changes nothing and says why.
	before := p.last.Fen
	v, _ := board.New(board.NameKatro4x4)
	_, perr := v.ParsePosition("2,2,2/2,2,2 S 0")
	p.send(map[string]any{"type": "setup", "fen": "2,2,2/2,2,2 S 0"})
	p.await("the message", func(p *page) bool { return p.msg != "" })
	if !strings.Contains(p.msg, perr.Error()) || p.last.Fen != before {
		t.Errorf("bad setup: message %q, fen %q (was %q)", p.msg, p.last.Fen, before)
	}
	p.send(map[string]any{"type": "setup", "fen": before})
	p.await("the set up", func(p *page) bool { return p.last.Fen == before && p.last.Start == before && len(p.last.Moves) == 0 })
	// Export and import round trip.
	p.send(map[string]any{"type": "move", "move": p.last.Legal[0], "ply": 0})
	p.await("the engine's answer", func(p *page) bool { return len(p.last.Moves) >= 2 || p.last.Turn == "over" })
	played := p.last
	pgn := p.export("pgn")
	p.send(map[string]any{"type": "new", "game": "hoyito3"})
	p.await("hoyito3", func(p *page) bool { return p.last.Game == "hoyito3" })
	p.send(map[string]any{"type": "import", "text": pgn})
	p.await("the import", func(p *page) bool { return p.last.Game == "katro-4x4" })
	if p.last.Fen != played.Fen || len(p.last.Moves) != len(played.Moves) {
		t.Errorf("imported %s with %d moves, exported %s with %d", p.last.Fen, len(p.last.Moves), played.Fen, len(played.Moves))
	}
	// Navigation and resuming from an earlier ply.
	p.send(map[string]any{"type": "goto", "ply": 0})
	p.await("ply 0", func(p *page) bool { return p.last.View == 0 && p.last.Fen == played.Start })
	// Unknown engines and limits are refused.
	for _, bad := range []map[string]any{
		{"type": "new", "north": "/bin/sh"},
		{"type": "new", "limitKind": "movetime", "limitValue": "-5"},
		{"type": "new", "game": "chess"},
		{"type": "analyse", "on": true, "engine": "rm -rf"},
		{"type": "nonsense"},
	} {
		p.msg = ""
		p.send(bad)
		p.await("a refusal", func(p *page) bool { return p.msg != "" })
	}
}

func TestEngineTrouble(t *testing.T) {
	fake := clienttest.BuildFake(t)
	tests := []struct {
		name string
		args []string
		say  string
	}{
		{"crash", []string{"-mode", "crash"}, "exited"},
		{"hang", []string{"-mode", "hang"}, "no bestmove within"},
		{"illegal", []string{"-mode", "illegal"}, "illegal move"},
		{"garbage", []string{"-mode", "garbage"}, "illegal move"},
		{"no start", []string{"-mode", "nouci"}, "could not start"},
		{"no program", nil, "will be started again when it is next needed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			engines := []Engine{{Name: "bad", Command: append([]string{fake}, tc.args...)}}
			if tc.args == nil {
				engines[0].Command = []string{filepath.Join(t.TempDir(), "no-such-engine")}
			}
			addr, srv := startServer(t, engines...)
			srv.cfg.Timeout = 300 * time.Millisecond
			p := open(t, addr)
			p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "bad", "north": "human", "limitKind": "movetime", "limitValue": "20"})
			p.await("the engine's trouble", func(p *page) bool { return strings.Contains(p.msg, tc.say) })
			if !strings.Contains(p.msg, "bad (south)") {
				t.Errorf("message %q does not name the engine and side", p.msg)
			}
			if strings.Contains(p.msg, "could not start") && strings.Contains(p.msg, "engine restarted") {
				t.Errorf("message %q says an engine that did not start was restarted", p.msg)
			}
			p.await("play to pause", func(p *page) bool { return p.last.Paused && !p.last.Thinking })
			if len(p.last.Moves) != 0 || p.last.Game != "katro-4x4" {
				t.Errorf("the game changed: %+v", p.last)
			}
		})
	}
}

func TestPageLeaves(t *testing.T) {
	fake := clienttest.BuildFake(t)
	addr, srv := startServer(t, Engine{Name: "fake", Command: []string{fake}})
	p := open(t, addr)
	p.send(map[string]any{"type": "new", "game": "katro", "south": "human", "north": "human"})
	p.await("the game", func(p *page) bool { return p.last.Game == "katro" })
	p.send(map[string]any{"type": "analyse", "on": true, "engine": "fake"})
	p.await("analysis on", func(p *page) bool { return p.last.Analysis.On })
	var slot *slot
	deadline := time.Now().Add(10 * time.Second)
	for slot == nil && time.Now().Before(deadline) {
		srv.mu.Lock()
		for ss := range srv.sessions {
			ss.post(func() {}) // the loop is alive
		}
		srv.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
		slot = anySlot(srv)
	}
	p.conn.Close(websocket.StatusGoingAway, "")
	for time.Now().Before(deadline) {
		srv.mu.Lock()
		n := len(srv.sessions)
		srv.mu.Unlock()
		if n == 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if slot == nil {
		t.Fatal("no engine started")
	}
	slot.mu.Lock()
	defer slot.mu.Unlock()
	if slot.e != nil {
		t.Error("the engine still runs after the page left")
	}
}

// anySlot returns an engine slot of a session, if any.
func anySlot(srv *Server) *slot {
	got := make(chan *slot, 1)
	srv.mu.Lock()
	var ss *session
	for s := range srv.sessions {
		ss = s
	}
	srv.mu.Unlock()
	if ss == nil {
		return nil
	}
	ss.post(func() {
		for _, sl := range ss.slots {
			got <- sl
			return
		}
		got <- nil
	})
	select {
	case sl := <-got:
		return sl
	case <-time.After(time.Second):
		return nil
	}
}

func TestAnalysis(t *testing.T) {
	fake := clienttest.BuildFake(t)
	addr, _ := startServer(t, Engine{Name: "fake", Command: []string{fake, "-multipv", "3"}})
	p := open(t, addr)
	p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "human", "north": "human", "moves": "a1,a4"})
	p.await("the game", func(p *page) bool { return p.last.Game == "katro-4x4" && len(p.last.Moves) == 2 })
	p.send(map[string]any{"type": "analyse", "on": true, "engine": "fake", "multipv": 2})
	seen := map[int]infoMsg{}
	deadline := time.Now().Add(15 * time.Second)
	for len(seen) < 2 && time.Now().Before(deadline) {
		b, err := p.read()
		if err != nil {
			t.Fatal(err)
		}
		var in infoMsg
		if json.Unmarshal(b, &in); in.Type == "info" && in.Depth == 4 {
			seen[in.MultiPV] = in
		}
	}
	if len(seen) != 2 || seen[3].Type != "" {
		t.Fatalf("lines %+v, want multipv 1 and 2", seen)
	}
	for k, in := range seen {
		if in.Fen != p.last.Fen || len(in.PV) != 1 || in.Score != fmt.Sprintf("cp %d", 1-k) {
			t.Errorf("line %d: %+v (position %s)", k, in, p.last.Fen)
		}
	}
	// The state says how many lines the engine offers.
	p.send(map[string]any{"type": "goto", "ply": 1})
	p.await("the engine's MultiPV", func(p *page) bool { return p.last.Analysis.MaxMultiPV == 3 && p.last.View == 1 })
	// More lines than it offers are its maximum.
	p.send(map[string]any{"type": "analyse", "on": true, "engine": "fake", "multipv": 1000})
	p.await("the new lines", func(p *page) bool { return p.last.Analysis.MultiPV != 2 })
	if p.last.Analysis.MultiPV != 3 {
		t.Errorf("multipv 1000 asked of an engine with 3 lines: state has %d", p.last.Analysis.MultiPV)
	}
	// A person moves for either side while analysing.
	p.send(map[string]any{"type": "move", "move": p.last.Legal[0], "ply": 1})
	p.await("the move", func(p *page) bool { return p.last.View == 2 && len(p.last.Moves) == 2 && p.last.Turn == "human" })
	// Preview of a line.
	p.send(map[string]any{"type": "preview", "fen": p.last.Fen, "moves": p.last.Legal[0]})
	for {
		b, err := p.read()
		if err != nil {
			t.Fatal(err)
		}
		var pm previewMsg
		if json.Unmarshal(b, &pm); pm.Type == "preview" {
			if len(pm.Counts) != 16 || pm.Fen == p.last.Fen {
				t.Errorf("preview %+v", pm)
			}
			break
		}
	}
	p.send(map[string]any{"type": "analyse", "on": false})
	p.await("analysis off", func(p *page) bool { return !p.last.Analysis.On })
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestEngineLog: the log names each process of an engine by a number of
// its own, and a log that cannot be written is noted once.
func TestEngineLog(t *testing.T) {
	fake := clienttest.BuildFake(t)
	spec := Engine{Name: "fake", Command: []string{fake}}
	var log, notes sowertest.SyncBuffer
	srv, err := New(Config{Engines: []Engine{spec}, Timeout: 5 * time.Second, Log: &log, Errors: &notes})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // two processes of one engine, as two pages have
		sl := &slot{spec: spec}
		if f := sl.start(context.Background(), srv); f != nil {
			t.Fatal(f.Detail)
		}
		sl.e.Close(0)
	}
	for _, want := range []string{" fake(1) > uci\n", " fake(2) > uci\n"} {
		if strings.Count(log.String(), want) != 1 {
			t.Errorf("the log has %q %d times, want once:\n%s", want, strings.Count(log.String(), want), log.String())
		}
	}
	if notes.String() != "" {
		t.Errorf("notes %q", notes.String())
	}

	srv, err = New(Config{Engines: []Engine{spec}, Timeout: 5 * time.Second, Log: failWriter{}, Errors: &notes})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		sl := &slot{spec: spec}
		if f := sl.start(context.Background(), srv); f != nil {
			t.Fatal(f.Detail)
		}
		sl.e.Close(0)
	}
	if got := strings.Count(notes.String(), "writing the engine log: no space left on device"); got != 1 {
		t.Errorf("notes %q: want the log's failure once", notes.String())
	}
}

// TestShowWDL: an engine that offers UCI_ShowWDL gets it turned on, and
// its wdl reaches the page from South's view; one that does not offer it
// gets no setoption for it.
func TestShowWDL(t *testing.T) {
	fake := clienttest.BuildFake(t)
	dir := t.TempDir()
	for _, offer := range []bool{true, false} {
		trace := filepath.Join(dir, fmt.Sprintf("trace-%v", offer))
		cmd := []string{fake, "-trace", trace}
		if offer {
			cmd = append(cmd, "-wdl")
		}
		addr, _ := startServer(t, Engine{Name: "fake", Command: cmd})
		p := open(t, addr)
		p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "human", "north": "fake", "limitKind": "movetime", "limitValue": "50"})
		p.await("the new game", func(p *page) bool { return p.last.Game == "katro-4x4" && p.last.Turn == "human" })
		p.send(map[string]any{"type": "move", "move": p.last.Legal[0], "ply": 0})
		p.await("the engine's answer", func(p *page) bool { return len(p.last.Moves) >= 2 && !p.last.Thinking })
		e := p.last.Moves[1].Eval
		if e == nil || e.CP == nil {
			t.Fatalf("offer %v: engine move's eval %+v", offer, e)
		}
		b, err := os.ReadFile(trace)
		if err != nil {
			t.Fatal(err)
		}
		set := strings.Contains(string(b), "setoption name UCI_ShowWDL value true")
		if set != offer || strings.Contains(string(b), "UCI_ShowWDL") != offer {
			t.Errorf("offer %v: the engine was sent:\n%s", offer, b)
		}
		// The fake's first search: cp 10, wdl 310 300 390 for North to
		// move, so South's view is cp -10, wdl 390 300 310.
		if offer && (e.WDL == nil || *e.WDL != [3]int{390, 300, 310} || *e.CP != -10) {
			t.Errorf("eval of North's move %+v, want cp -10 and wdl 390 300 310 from South's view", e)
		}
		if !offer && e.WDL != nil {
			t.Errorf("no UCI_ShowWDL, yet wdl %v", *e.WDL)
		}
	}
}

// TestAnalysisAgainstEngine: analysis in a game against an engine keeps
// the engine as the opponent; the analysis runs on the person's turn.
func TestAnalysisAgainstEngine(t *testing.T) {
	fake := clienttest.BuildFake(t)
	addr, _ := startServer(t, Engine{Name: "fake", Command: []string{fake}})
	p := open(t, addr)
	p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "human", "north": "fake", "limitKind": "movetime", "limitValue": "50"})
	p.await("the new game", func(p *page) bool { return p.last.Game == "katro-4x4" && p.last.Turn == "human" })
	p.send(map[string]any{"type": "analyse", "on": true, "engine": "fake", "multipv": 1})
	p.await("analysis on", func(p *page) bool { return p.last.Analysis.On && p.last.Turn == "human" })
	p.send(map[string]any{"type": "move", "move": p.last.Legal[0], "ply": 0})
	p.await("the engine's answer", func(p *page) bool {
		return len(p.last.Moves) == 2 && p.last.Turn == "human" && !p.last.Thinking
	})
	if m := p.last.Moves[1]; m.By != "fake" || !p.last.Analysis.On {
		t.Errorf("with analysis on, ply 2 by %q, analysis on %v: want the engine's move and the analysis on", m.By, p.last.Analysis.On)
	}
	// Paused, the engine waits for Resume (the analysis goes on); then it
	// answers.
	p.send(map[string]any{"type": "pause"})
	p.await("the pause", func(p *page) bool { return p.last.Paused })
	p.send(map[string]any{"type": "move", "move": p.last.Legal[0], "ply": 2})
	p.await("the person's move", func(p *page) bool { return len(p.last.Moves) == 3 })
	time.Sleep(200 * time.Millisecond)
	// A goto to the shown ply answers with a message, then the state as
	// it is now (the states in between are read on the way).
	p.msg = "before the goto"
	answered := false
	p.send(map[string]any{"type": "goto", "ply": 3})
	p.await("the state after 200 ms", func(p *page) bool {
		if !answered {
			answered = p.msg == ""
			return false
		}
		return true
	})
	if len(p.last.Moves) != 3 || p.last.Thinking {
		t.Errorf("paused: %d plies, thinking %v; want the engine waiting", len(p.last.Moves), p.last.Thinking)
	}
	p.send(map[string]any{"type": "pause"})
	p.await("the engine's move", func(p *page) bool { return len(p.last.Moves) == 4 && !p.last.Thinking })
	if p.last.Moves[3].By != "fake" {
		t.Errorf("ply 4 by %q, want the engine", p.last.Moves[3].By)
	}
}
