package gui_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sower-engine/sower/internal/sowertest"
)

// guiServer is a running "sower gui".
type guiServer struct {
	url     string // "http://127.0.0.1:PORT/"
	cmd     *exec.Cmd
	stderr  *sowertest.SyncBuffer
	started time.Time
	exited  chan error
	stopped sync.Once
}

// addrLine is the one line "sower gui" prints on stdout.
var addrLine = regexp.MustCompile(`^sower gui: (http://127\.0\.0\.1:\d+/)$`)

// startServer starts "sower gui --addr 127.0.0.1:0" and reads its address.
// The games' state goes to a temporary directory of the test unless args
// name one (--state). The cleanup stops it with SIGTERM and checks that
// it exits cleanly.
func startServer(t *testing.T, bin string, args ...string) *guiServer {
	t.Helper()
	s := &guiServer{stderr: &sowertest.SyncBuffer{}, exited: make(chan error, 1)}
	args = append([]string{"gui", "--addr", "127.0.0.1:0"}, args...)
	if !slices.Contains(args, "--state") {
		args = append(args, "--state", t.TempDir())
	}
	s.cmd = exec.Command(bin, args...)
	s.cmd.Stderr = s.stderr
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.started = time.Now()
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 4)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		s.exited <- s.cmd.Wait()
	}()
	t.Cleanup(func() { s.stop(t) })
	select {
	case l, ok := <-lines:
		m := addrLine.FindStringSubmatch(l)
		if !ok || m == nil {
			t.Fatalf("sower gui printed %q, want %q; stderr:\n%s", l, "sower gui: http://127.0.0.1:PORT/", s.stderr.String())
		}
		s.url = m[1]
	case <-time.After(30 * time.Second):
		t.Fatalf("sower gui printed no address in 30 s; stderr:\n%s", s.stderr.String())
	}
	go func() {
		for l := range lines {
			t.Logf("sower gui: unexpected line on stdout: %q", l)
		}
	}()
	return s
}

// stop ends the server with SIGTERM: it must exit with status 0 and take
// its engine processes with it.
func (s *guiServer) stop(t *testing.T) {
	s.stopped.Do(func() { s.terminate(t) })
}

func (s *guiServer) terminate(t *testing.T) {
	children := childPIDs(s.cmd.Process.Pid)
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Errorf("SIGTERM: %v", err)
	}
	select {
	case err := <-s.exited:
		if err != nil {
			t.Errorf("sower gui after SIGTERM: %v, want exit status 0", err)
		}
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		t.Errorf("sower gui still running 10 s after SIGTERM")
		<-s.exited
	}
	for _, pid := range stillAlive(children, 5*time.Second) {
		t.Errorf("engine process %d still runs after sower gui exited", pid)
		syscall.Kill(pid, syscall.SIGKILL)
	}
	if e := s.stderr.String(); strings.Contains(e, "DATA RACE") || strings.Contains(e, "panic:") {
		t.Errorf("sower gui stderr:\n%s", e)
	} else if e != "" {
		t.Logf("sower gui stderr:\n%s", e)
	}
}

// childPIDs lists the children of a process (Linux; nil elsewhere).
func childPIDs(pid int) []int {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	var pids []int
	for _, f := range tasks {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, w := range strings.Fields(string(b)) {
			var c int
			if _, err := fmt.Sscan(w, &c); err == nil {
				pids = append(pids, c)
			}
		}
	}
	return pids
}

// stillAlive waits up to d for the processes to end and returns those
// that still run.
func stillAlive(pids []int, d time.Duration) []int {
	deadline := time.Now().Add(d)
	var left []int
	for _, pid := range pids {
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(pid) {
			left = append(left, pid)
		}
	}
	return left
}

// alive reports whether a process exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}
