package broker

import (
	"context"
	"fmt"
	"io"

	"github.com/sower-engine/sower/bench/match"
)

// programs are the engine programs of a match or tournament, engine by
// engine: the path here and the SHA-256 of each ("" for a built-in
// player).
type programs struct {
	paths, hashes []string
}

// enginePrograms finds and hashes the programs of engines. An engine
// with a directory of its own is refused: workers run the uploaded
// program in theirs.
func enginePrograms(engines []match.EngineSpec) (programs, error) {
	ps := programs{paths: make([]string, len(engines)), hashes: make([]string, len(engines))}
	for i, e := range engines {
		if e.Builtin != "" {
			continue
		}
		if e.Dir != "" {
			return ps, fmt.Errorf("engine%d (%s): a directory to run in is for a local match: workers run the uploaded program in their own", i+1, e.Name)
		}
		p, err := program(e.Command[0])
		if err != nil {
			return ps, fmt.Errorf("engine%d (%s): %v", i+1, e.Name, err)
		}
		if ps.hashes[i], err = hashFile(p); err != nil {
			return ps, fmt.Errorf("engine%d (%s): %v", i+1, e.Name, err)
		}
		ps.paths[i] = p
	}
	return ps, nil
}

// name completes a setup of these programs: with a built-in player it
// names build, which the workers must match, and it leaves out where the
// programs lie here, which does not change the games.
func (ps *programs) name(s *Setup, build Build) error {
	if s.builtin() {
		if err := build.check(); err != nil {
			return fmt.Errorf("a match with a built-in player: %w", err)
		}
		s.Sower, s.Build = build.Version, build.SHA256
	}
	for i := range s.Engines {
		s.Engines[i].Program = ""
	}
	return nil
}

// keep enters the programs in objects, by SHA-256.
func (ps *programs) keep(objects map[string]string) {
	for i, p := range ps.paths {
		if p != "" {
			objects[ps.hashes[i]] = p
		}
	}
}

// upload stores every program the engine object store lacks or holds
// damaged, saying so on out.
func (ps *programs) upload(ctx context.Context, c *Client, out io.Writer) error {
	stored := map[string]bool{}
	for i, p := range ps.paths {
		if p == "" || stored[ps.hashes[i]] {
			continue
		}
		stored[ps.hashes[i]] = true
		if err := upload(ctx, c.JS, p, ps.hashes[i], out); err != nil {
			return fmt.Errorf("uploading engine%d (%s): %w", i+1, p, err)
		}
	}
	return nil
}
