package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/sower-engine/sower/bench/match"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/gui"
	"github.com/sower-engine/sower/search/book"
)

// gui is "sower gui": the board in the browser.
func (c *cli) gui(args []string) error {
	fs := c.flags("gui", "[--addr HOST:PORT] [--open] [--engine NAME=COMMAND ...] [--tables DIR] [--log FILE] [--state DIR]")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (port 0: any free port)")
	open := fs.Bool("open", false, "open the page in the default browser")
	engines := fs.StringArray("engine", nil, "an engine the page may choose, NAME=COMMAND (repeatable; default: this program, named sower)")
	logFile := fs.String("log", "", "write every line sent to and read from the engines to this file")
	tableDir := fs.String("tables", "", "Hoyito III endgame tables: show every move's result in their positions, and give them to the engines")
	stateDir := fs.String("state", defaultGUIStateDir(), "directory that keeps each game's state, so that a reload or a restart finds it (\"\": in memory only)")
	if err := parse(fs, args); err != nil {
		return err
	}
	// The proof books load in the background from the start, so that a
	// katro-4x6 game gets its Proof panel from its first position.
	lib := &book.Library{CacheDir: book.DefaultCacheDir()}
	defer lib.Close()
	for _, name := range book.Games(nil) {
		if v, err := board.New(name); err == nil {
			lib.For(v)
		}
	}
	cfg := gui.Config{Errors: c.stderr, Books: lib, StateDir: *stateDir}
	if *tableDir != "" {
		dir, err := guiTableDir(*tableDir)
		if err != nil {
			return err
		}
		cfg.TablePath = dir
	}
	for _, e := range *engines {
		name, command, ok := strings.Cut(e, "=")
		if !ok || strings.TrimSpace(name) == "" {
			return usagef("--engine %q: want NAME=COMMAND", e)
		}
		words, err := match.SplitCommand(command)
		if err != nil {
			return flagError("--engine", err)
		}
		if len(words) == 0 {
			return usagef("--engine %q: no command", e)
		}
		if _, err := exec.LookPath(words[0]); err != nil {
			return usagef("--engine %q: %v", e, err)
		}
		cfg.Engines = append(cfg.Engines, gui.Engine{Name: strings.TrimSpace(name), Command: words})
	}
	if len(cfg.Engines) == 0 {
		self, err := os.Executable()
		if err != nil {
			return fmt.Errorf("cannot find this program to run as the engine: %v (give --engine)", err)
		}
		cfg.Engines = []gui.Engine{{Name: "sower", Command: []string{self}}}
	}
	// Both --log and --addr are checked before either is acted on: a bad
	// address leaves an existing log as it was.
	if *logFile != "" {
		if err := checkOutput("--log", *logFile); err != nil {
			return err
		}
	}
	ln, err := listen(*addr)
	if err != nil {
		return err
	}
	if *logFile != "" {
		f, err := os.Create(*logFile)
		if err != nil {
			ln.Close()
			return flagError("--log", err)
		}
		defer f.Close()
		cfg.Log = f
	}
	srv, err := gui.New(cfg)
	if err != nil {
		ln.Close()
		return usageError{err}
	}
	if *stateDir != "" {
		if err := os.MkdirAll(*stateDir, 0o755); err != nil {
			ln.Close()
			return flagError("--state", err)
		}
	}
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() || ip.IsLoopback() {
		host = "127.0.0.1"
		if ip != nil && ip.IsLoopback() {
			host = ip.String()
		}
	}
	url := "http://" + net.JoinHostPort(host, port) + "/"
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(c.stdout, "sower gui: %s\n", url)
	if *open {
		c.openPage(url)
	}
	return srv.Serve(ctx, ln, *addr)
}

// defaultGUIStateDir is where gui keeps the games' state by default: the
// directory sower/gui in the user's cache directory, as for the tables
// (defaultTableDir); "" (memory only) when the system names none.
func defaultGUIStateDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "sower", "gui")
}

// guiTableDir checks gui's --tables: a directory that holds Hoyito III
// tables (which rules they serve is seen game by game). It returns the
// directory as an absolute path, for the engines.
func guiTableDir(dir string) (string, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return "", usagef("--tables %s: %v", dir, errors.Unwrap(err))
	}
	if !fi.IsDir() {
		return "", usagef("--tables %s: not a directory", dir)
	}
	if found, _ := filepath.Glob(filepath.Join(dir, "hoyito3-*.sowtb")); len(found) == 0 {
		return "", usagef("--tables %s: no Hoyito III tables there (build them with sower tables build)", dir)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", flagError("--tables", err)
	}
	return abs, nil
}

// listen listens on addr, HOST:PORT. An address that is not one (no port,
// a port out of range, a host that is not an IP address and does not
// resolve) or that cannot be listened on (in use, not this machine's) is
// a bad --addr: exit status 2. A host of digits and dots that is not an
// IPv4 address is refused without a name lookup.
func listen(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, flagError("--addr", err)
	}
	if host != "" && strings.Trim(host, "0123456789.") == "" && net.ParseIP(host) == nil {
		return nil, flagError("--addr", fmt.Errorf("%s is not an IP address", host))
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, flagError("--addr", err)
	}
	return ln, nil
}

// browserCommand returns the command that opens url in the default
// browser: open on macOS, the URL handler on Windows, xdg-open elsewhere.
func browserCommand(url string) *exec.Cmd {
	switch runtime.GOOS {
	case "darwin":
		return exec.Command("open", url)
	case "windows":
		return exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	}
	return exec.Command("xdg-open", url)
}

// openPage opens url in a browser with c.browser (browserCommand when nil)
// while the server starts, and says on stderr, with the address to open
// by hand, when that fails: when the opener cannot be started (none is
// installed) or exits with a failure (xdg-open finds no browser). The
// returned channel is closed once the opener is done.
func (c *cli) openPage(url string) <-chan struct{} {
	command := c.browser
	if command == nil {
		command = browserCommand
	}
	done := make(chan struct{})
	cmd := command(url)
	fail := func(err error) {
		fmt.Fprintf(c.stderr, "sower gui: cannot open a browser (%s: %v); open %s\n", filepath.Base(cmd.Path), err, url)
	}
	if err := cmd.Start(); err != nil {
		fail(err)
		close(done)
		return done
	}
	go func() {
		defer close(done)
		if err := cmd.Wait(); err != nil {
			fail(err)
		}
	}()
	return done
}
