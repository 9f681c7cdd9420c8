package gui

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sower-engine/sower/protocol/client"
)

//go:embed assets
var assets embed.FS

// MaxMessage bounds a message from the page, in bytes (an imported game
// record is the largest).
const MaxMessage = 1 << 20

// maxHeaderBytes bounds a request's headers.
const maxHeaderBytes = 16 << 10

// Engine is an engine the page may choose: a name and the command that
// starts it.
type Engine struct {
	Name    string
	Command []string
}

// Config configures a server.
type Config struct {
	// Engines are the engines the page may choose, by name; the first is
	// the default. The page can name only these.
	Engines []Engine
	// Timeout bounds the engine's answers that no clock limits
	// (handshake, readyok, bestmove under a depth limit); 0 means 30 s.
	Timeout time.Duration
	// Log, if not nil, gets every line sent to and read from engines.
	Log io.Writer
	// Errors, if not nil, gets one line per problem worth a note (a
	// refused request, an engine fault).
	Errors io.Writer
	// TablePath, if not "", is a directory of Hoyito III endgame tables:
	// the page shows their result for every legal move of a position in
	// them, and engines with a TablePath option get it.
	TablePath string
	// Books, if not nil, are the proof books: in a Katro position a
	// proof reaches, the page shows the proven result of every legal move
	// in the panel the tables use.
	Books Books
	// StateDir, if not "", is the directory where each game's state is
	// kept, a file a game, so that a restart of the server finds the
	// games as they stood; "" keeps them in memory only, for the server's
	// life.
	StateDir string
}

// Server serves the page and its games. Make one with New.
type Server struct {
	cfg  Config
	log  *client.Log
	port string // the port served, for the Host check

	procs    atomic.Int64                    // engine processes started, numbering them in the log
	logBad   sync.Once                       // the log's write error is noted once
	store    *store                          // the games, by session id
	stopping atomic.Bool                     // the server is stopping: the clocks stop with it
	base     atomic.Pointer[context.Context] // Serve's context

	mu       sync.Mutex
	errMu    sync.Mutex
	hosts    map[string]bool // allowed Host values
	sessions map[*session]bool
	wg       sync.WaitGroup // sessions running
	static   http.Handler

	tbMu sync.Mutex
	tb   tableSets // the tables of cfg.TablePath
}

// New returns a server for the engines in cfg.
func New(cfg Config) (*Server, error) {
	if len(cfg.Engines) == 0 {
		return nil, errors.New("gui: no engine")
	}
	seen := map[string]bool{}
	for _, e := range cfg.Engines {
		switch {
		case e.Name == "" || strings.ContainsAny(e.Name, " \t\r\n"):
			return nil, fmt.Errorf("gui: engine name %q: want one word", e.Name)
		case e.Name == "human":
			return nil, errors.New(`gui: "human" cannot name an engine`)
		case len(e.Command) == 0:
			return nil, fmt.Errorf("gui: engine %s: no command", e.Name)
		case seen[e.Name]:
			return nil, fmt.Errorf("gui: engine %s named twice", e.Name)
		}
		seen[e.Name] = true
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		return nil, err
	}
	s := &Server{
		cfg: cfg, log: client.NewLog(cfg.Log),
		hosts: map[string]bool{}, sessions: map[*session]bool{},
		static: http.FileServerFS(sub),
		tb:     tableSets{dir: cfg.TablePath},
	}
	s.store = newStore(cfg.StateDir, s.note)
	return s, nil
}

// note writes a line to cfg.Errors.
func (s *Server) note(format string, a ...any) {
	if s.cfg.Errors == nil {
		return
	}
	s.errMu.Lock()
	defer s.errMu.Unlock()
	fmt.Fprintf(s.cfg.Errors, "sower gui: "+format+"\n", a...)
}

// Allow sets the address the server listens on, for the Host and Origin
// checks: requests must name localhost, 127.0.0.1 or [::1] with its port,
// or the listening address exactly as given.
func (s *Server) Allow(addr net.Addr, given string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return
	}
	s.port = port
	for _, h := range []string{"localhost", "127.0.0.1", "[::1]"} {
		s.hosts[h+":"+port] = true
	}
	if host, _, err := net.SplitHostPort(given); err == nil && host != "" {
		s.hosts[net.JoinHostPort(host, port)] = true
	}
}

// hostAllowed reports whether a Host header value is one of ours.
func (s *Server) hostAllowed(host string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := strings.ToLower(host)
	if s.port == "80" && !strings.Contains(strings.TrimPrefix(h, "[::1]"), ":") {
		h += ":80"
	}
	return s.hosts[h]
}

// originAllowed reports whether an Origin header names one of our hosts
// over http.
func (s *Server) originAllowed(origin string) bool {
	host, ok := strings.CutPrefix(strings.ToLower(origin), "http://")
	return ok && !strings.ContainsAny(host, "/?#@") && s.hostAllowed(host)
}

// ServeHTTP serves the page, its assets and the game socket at /ws,
// after the Host and Origin checks.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.hostAllowed(r.Host) {
		s.note("refused a request for host %q", r.Host)
		http.Error(w, "unknown host: open the address sower gui printed", http.StatusForbidden)
		return
	}
	origin := r.Header.Get("Origin")
	if origin != "" && !s.originAllowed(origin) {
		s.note("refused a request from origin %q", origin)
		http.Error(w, "cross-origin request refused", http.StatusForbidden)
		return
	}
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'")
	switch r.URL.Path {
	case "/ws":
		if origin == "" {
			http.Error(w, "websocket: no Origin", http.StatusForbidden)
			return
		}
		s.serveSocket(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	h.Set("Cache-Control", "no-cache")
	s.static.ServeHTTP(w, r)
}

// serveSocket serves a game over a WebSocket until the page leaves: the
// game of the session its address names (?session=ID), or a new one.
func (s *Server) serveSocket(w http.ResponseWriter, r *http.Request) {
	c, err := upgrade(w, r, MaxMessage)
	if err != nil {
		s.note("%v", err)
		return
	}
	ss := s.attach(r.URL.Query().Get("session"), c)
	s.mu.Lock()
	s.sessions[ss] = true
	s.wg.Add(1)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.sessions, ss)
		s.mu.Unlock()
		s.wg.Done()
	}()
	ss.run(r.Context())
}

// Serve serves on ln until ctx is cancelled, then closes every game (and
// its engines) and returns nil. given is the address as the user wrote
// it, for the Host check.
func (s *Server) Serve(ctx context.Context, ln net.Listener, given string) error {
	s.Allow(ln.Addr(), given)
	s.base.Store(&ctx)
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    maxHeaderBytes,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		s.closeAll()
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	hs.Shutdown(sctx)
	s.closeAll()
	return nil
}

// isStopping reports whether the server is stopping: told so (closeAll)
// or Serve's context ended (the sessions may see it first).
func (s *Server) isStopping() bool {
	ctx := s.base.Load()
	return s.stopping.Load() || ctx != nil && (*ctx).Err() != nil
}

// closeAll ends every session, killing its engines, waits for them and
// writes the games' state: their clocks stop with the server.
func (s *Server) closeAll() {
	s.stopping.Store(true)
	defer s.store.close()
	s.mu.Lock()
	for ss := range s.sessions {
		ss.conn.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	s.closeTables()
}

// engineNamed returns the engine of that name.
func (s *Server) engineNamed(name string) (Engine, bool) {
	for _, e := range s.cfg.Engines {
		if e.Name == name {
			return e, true
		}
	}
	return Engine{}, false
}

// names returns the engines' names.
func (s *Server) names() []string {
	var ns []string
	for _, e := range s.cfg.Engines {
		ns = append(ns, e.Name)
	}
	return ns
}
