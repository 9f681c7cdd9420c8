package broker

import (
	"errors"
	"fmt"
	"os"
)

// Build identifies the program that plays a self-play run's games, or a
// match's built-in players (builtin:random, builtin:greedy). Its games
// depend on everything compiled into it (search, evaluation, the
// self-play rules, the built-in players), not only on its version
// string, so a build is named
// by the SHA-256 of its executable: a worker plays a run's tasks only
// when its own executable has the hash the task names. Two builds of the
// same source differ when compiled with another Go or for another
// platform; they are refused too, which is safe (the data can only
// match) and simple to satisfy (the same binary everywhere).
type Build struct {
	// Version is Sower's version as "sower version" prints it; the broker
	// package does not depend on the engine, so its user passes it.
	Version string
	// SHA256 is the SHA-256 of the executable, in hex.
	SHA256 string
}

// ThisBuild returns the build of the running program, whose version is
// given.
func ThisBuild(version string) (Build, error) {
	exe, err := os.Executable()
	if err != nil {
		return Build{}, fmt.Errorf("finding this program's executable: %w", err)
	}
	sum, err := hashFile(exe)
	if err != nil {
		return Build{}, fmt.Errorf("hashing this program's executable: %w", err)
	}
	return Build{Version: version, SHA256: sum}, nil
}

// check reports whether b is complete.
func (b Build) check() error {
	if b.Version == "" || len(b.SHA256) != 64 {
		return errors.New("the program's build is not known (its version and executable's SHA-256)")
	}
	return nil
}

// String names the build in messages: its version and the first 12 hex
// digits of its hash.
func (b Build) String() string {
	return fmt.Sprintf("sower %s (build %.12s)", b.Version, b.SHA256)
}

// refuses says why a worker of build b does not take a task whose work
// is done by build run (a self-play run's games, a match's with a
// built-in player, a proof's leaf searches), or returns "" when it takes
// it. work names that work in the message (gamesWork, proofWork).
func (b Build) refuses(run Build, work string) string {
	switch {
	case b.check() != nil:
		return "this worker does not know its own build, so it cannot take a task that names one"
	case run != b:
		return fmt.Sprintf("this worker is %s; %s by %s (the same program on every machine)", b, work, run)
	}
	return ""
}

// The work a task's build does, as refuses names it.
const (
	gamesWork = "the run's games are played"
	proofWork = "the proof's leaves are searched"
)
