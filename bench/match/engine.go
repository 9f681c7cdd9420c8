package match

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// BuiltinPrefix marks a built-in player in an engine string:
// "builtin:random" or "builtin:greedy".
const BuiltinPrefix = "builtin:"

// Builtins lists the built-in players.
func Builtins() []string { return []string{"random", "greedy"} }

// EngineSpec describes one side of a match: a program that speaks the
// engine protocol, started as a child process, or a built-in player.
type EngineSpec struct {
	Name    string            // shown in reports and records
	Command []string          // program and arguments; empty for a built-in player
	Dir     string            // the directory the program runs in ("": this process's)
	Builtin string            // "random" or "greedy" for a built-in player
	Options []Option          // sent with setoption after the handshake
	Limit   timecontrol.Limit // how long the engine may think (ignored by built-in players)
}

// Option is an engine option: "setoption name <Name> value <Value>", or
// without "value" when Value is empty (a button).
type Option = client.Option

// ParseEngine reads an engine string: "builtin:random", "builtin:greedy",
// or a command line ("./sower", "engine --flag 'a b'") split into words as
// a shell would, with single and double quotes and backslash escapes but
// no expansions. The name defaults to the builtin's or the program's base
// name.
func ParseEngine(s string) (EngineSpec, error) {
	if rest, ok := strings.CutPrefix(s, BuiltinPrefix); ok {
		for _, b := range Builtins() {
			if rest == b {
				return EngineSpec{Name: b, Builtin: b}, nil
			}
		}
		return EngineSpec{}, fmt.Errorf("unknown built-in player %q (want %s%s)", s, BuiltinPrefix, strings.Join(Builtins(), " or "+BuiltinPrefix))
	}
	args, err := SplitCommand(s)
	if err != nil {
		return EngineSpec{}, err
	}
	if len(args) == 0 {
		return EngineSpec{}, errors.New("empty engine command")
	}
	return EngineSpec{Name: filepath.Base(args[0]), Command: args}, nil
}

// SplitCommand splits a command line into words: white space separates
// words, single quotes keep everything up to the next single quote, double
// quotes keep everything but backslash-escaped quotes and backslashes, and
// a backslash outside quotes keeps the next character.
func SplitCommand(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case r == '\'':
			inWord = true
			j := i + 1
			for j < len(rs) && rs[j] != '\'' {
				w.WriteRune(rs[j])
				j++
			}
			if j == len(rs) {
				return nil, fmt.Errorf("command %q: unterminated single quote", s)
			}
			i = j
		case r == '"':
			inWord = true
			j := i + 1
			for ; j < len(rs) && rs[j] != '"'; j++ {
				if rs[j] == '\\' && j+1 < len(rs) && (rs[j+1] == '"' || rs[j+1] == '\\') {
					j++
				}
				w.WriteRune(rs[j])
			}
			if j == len(rs) {
				return nil, fmt.Errorf("command %q: unterminated double quote", s)
			}
			i = j
		case r == '\\':
			inWord = true
			if i+1 == len(rs) {
				return nil, fmt.Errorf("command %q: backslash at the end", s)
			}
			i++
			w.WriteRune(rs[i])
		default:
			inWord = true
			w.WriteRune(r)
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// ParseOption reads "Name=Value" (the name may contain spaces; an empty
// value sends the option without "value", as for a button).
func ParseOption(s string) (Option, error) {
	name, value, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return Option{}, fmt.Errorf("option %q: want Name=Value", s)
	}
	return Option{Name: name, Value: strings.TrimSpace(value)}, nil
}

// player is one side of a game as the arbiter drives it. A player is used
// by one goroutine at a time.
type player interface {
	// newGame prepares game number index (0-based) with the given options.
	newGame(ctx context.Context, index int, opts []Option) *fault
	// think asks for a move in g's position, which is not over.
	think(ctx context.Context, g *board.Game, req client.Go) (client.Reply, *fault)
	// close ends the player, giving its process up to grace to quit
	// before it is killed.
	close(grace time.Duration)
}

// builtinPlayer is a built-in player (builtin.go), made afresh for
// every game with a seed from the match seed, the game and the slot.
type builtinPlayer struct {
	kind string
	seed uint64
	slot int
	p    mover
}

func (b *builtinPlayer) newGame(_ context.Context, index int, _ []Option) *fault {
	s := gameSeed(b.seed, index, b.slot)
	switch b.kind {
	case "greedy":
		b.p = newGreedy(s)
	default:
		b.p = newRandom(s)
	}
	return nil
}

func (b *builtinPlayer) think(ctx context.Context, g *board.Game, _ client.Go) (client.Reply, *fault) {
	start := time.Now()
	m := b.p.move(ctx, g)
	return client.Reply{Move: m.String(), Elapsed: time.Since(start)}, nil
}

func (b *builtinPlayer) close(time.Duration) {}

// gameSeed derives a built-in player's seed for one game: splitmix64 of the
// match seed, the game index and the slot, so that every game and both
// players draw from their own sequence and a match is reproducible.
func gameSeed(seed uint64, index, slot int) uint64 {
	z := seed + uint64(2*index+slot+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Program returns the engine's program as this process finds it: its
// command's first word, taken in Dir when it is a relative path with a
// separator ("./sower"), as the engine is started.
func (e *EngineSpec) Program() string {
	p := e.Command[0]
	if e.Dir != "" && !filepath.IsAbs(p) && strings.ContainsRune(p, filepath.Separator) {
		return filepath.Join(e.Dir, p)
	}
	return p
}
