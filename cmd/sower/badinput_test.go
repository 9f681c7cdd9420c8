package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sowerRunner runs one sower command and returns its output and status.
type sowerRunner func(args ...string) (stdout, stderr string, status int)

// binaryRunner runs the built binary bin.
func binaryRunner(t *testing.T, bin string) sowerRunner {
	return func(args ...string) (string, string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Stdin = strings.NewReader("")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var ee *exec.ExitError
		switch {
		case err == nil:
			return out.String(), errb.String(), 0
		case errors.As(err, &ee):
			return out.String(), errb.String(), ee.ExitCode()
		}
		t.Fatalf("%v: %v", args, err)
		return "", "", 0
	}
}

// badTables makes the directories of damaged or missing table sets, from a
// good 8-seed set built in dir, and returns them by name.
func badTables(t *testing.T, dir string) map[string]string {
	t.Helper()
	good := filepath.Join(dir, "good")
	if _, stderr, st := runCLI("tables", "build", "--seeds", "8", "--dir", good); st != exitOK {
		t.Fatalf("tables build: status %d\n%s", st, stderr)
	}
	files, err := filepath.Glob(filepath.Join(good, "*-08.sowtb"))
	if err != nil || len(files) != 1 {
		t.Fatalf("the built tables: %v %v", files, err)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Base(files[0])
	set := map[string]string{}
	for name, damage := range map[string]func([]byte) []byte{
		"magic":     func(b []byte) []byte { copy(b, "JUNK"); return b },
		"truncated": func(b []byte) []byte { return b[:len(b)/2] },
		"checksum":  func(b []byte) []byte { b[len(b)-100] ^= 0x40; return b },
		"missing":   nil, // the directory is there, the file is not
	} {
		d := filepath.Join(dir, "tables-"+name)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if damage != nil {
			if err := os.WriteFile(filepath.Join(d, base), damage(bytes.Clone(data)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		set[name] = d
	}
	return set
}

// TestBadInputExitTwo runs every command with bad arguments and input, as
// a user would: each is refused before any work with one line on stderr
// that names the flag or the input, nothing on stdout, and exit status 2.
// It drives the built binary, or with -short the same code in process.
func TestBadInputExitTwo(t *testing.T) {
	runSower := sowerRunner(runCLI)
	if !testing.Short() {
		runSower = binaryRunner(t, fixtures.Sower(t, false))
	}
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	noDir := filepath.Join(missing, "x") // in a directory that does not exist
	file := filepath.Join(dir, "file")   // a regular file
	junk := filepath.Join(dir, "junk.dat")
	for name, content := range map[string]string{file: "a file\n", junk: "not data"} {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tb := badTables(t, dir)
	fen := "0,0,1,2,0,1/1,0,2,0,1,0 N 40 0 0" // 8 seeds on the board
	m := []string{"match", "--engine1", "builtin:random", "--engine2", "builtin:greedy"}
	with := func(base []string, more ...string) []string { return append(append([]string(nil), base...), more...) }
	for _, c := range []struct {
		args []string
		want string // the whole of stderr after "sower: ", or its start if it ends in "…"
	}{
		// The engine protocol and the commands.
		{[]string{"--max-hash", "0"}, "--max-hash 0: want 1 to 65536"},
		{[]string{"frob"}, `unknown command "frob"; run sower help`},
		{[]string{"show", "--frob"}, "unknown flag: --frob"},
		{[]string{"show", "--game", "oware"}, `--game: unknown game "oware"…`},
		{[]string{"show", "--fen", "1,2"}, "--fen: …"},
		{[]string{"show", "--moves", "z9"}, "--moves: move 1: z9 is not on the board…"},
		{[]string{"show", "--game", "hoyito3", "--capture-side", "mine"}, `--capture-side: CaptureSide "mine": want any or opponent`},
		{[]string{"show", "--game", "hoyito3", "--last-four", "west"}, `--last-four: LastFour "west": want capturer, south or north`},
		{[]string{"show", "--no-capture-limit", "-1"}, "--no-capture-limit -1: want 0 (off) to 1000000 plies"},
		{[]string{"show", "--no-capture-limit", "1000001"}, "--no-capture-limit 1000001: want 0 (off) to 1000000 plies"},
		{[]string{"match", "--engine1", "builtin:random", "--engine2", "builtin:random", "--no-capture-limit", "1000001"}, "--no-capture-limit 1000001: want 0 (off) to 1000000 plies"},
		{[]string{"show", "--game", "hoyito3", "--tables", missing}, "--tables " + missing + ": no such file or directory"},
		{[]string{"show", "--game", "hoyito3", "--tables", tb["magic"]}, "--tables: table …bad magic)"},
		{[]string{"eval", "--fen", "x"}, "--fen: …"},
		{[]string{"perft"}, "--depth is required"},
		{[]string{"perft", "--depth", "x"}, `invalid argument "x" for "-d, --depth" flag: must be an integer`},
		{[]string{"bench", "--depth", "0"}, "--depth 0: want 1 to 127"},
		{[]string{"bench", "--eval", "deep"}, "--eval deep: want auto, linear or net"},
		{[]string{"bench", "--eval", "linear", "--evallazy", "500"}, "--evallazy 500: it is used where a network plays, not with --eval linear"},
		{[]string{"bench", "--evallazy", "-1"}, "--evallazy -1: want 0 to 10000"},
		{[]string{"analyse", "--eval", "deep"}, "--eval deep: want auto, linear or net"},
		{[]string{"analyse", "--evallazy", "10001"}, "--evallazy 10001: want 0 to 10000"},
		{[]string{"analyse", "--eval", "linear", "--evallazy", "5"}, "--evallazy 5: it is used where a network plays, not with --eval linear"},
		{[]string{"datagen", "--evallazy", "5", "--out", "x.dat"}, "--evallazy 5: it is used where a network plays, not with --eval linear"},
		{[]string{"bench", "--eval", "net", "--evallazy", "-1"}, "--evallazy -1: want 0 to 10000"},
		{[]string{"train", "--out", "x.nnue"}, "--data: give at least one data file"},
		{[]string{"train", "--data", missing}, "--out: a network file is required"},
		{[]string{"train", "--data", missing, "--out", "x.nnue", "--lambda", "2"}, "--lambda 2: want 0 to 1"},
		{[]string{"train", "--data", missing, "--out", "x.nnue", "--epochs", "0"}, "--epochs 0: want 1 or more"},
		// The settings train and tune share are checked alike.
		{[]string{"train", "--data", missing, "--out", "x.nnue", "--rate", "NaN"}, "--rate NaN: want a finite number"},
		{[]string{"tune", "--data", missing, "--out", "x.go", "--rate", "NaN"}, "--rate NaN: want a finite number"},
		{[]string{"train", "--data", missing, "--out", "x.nnue", "--scale", "+Inf"}, "--scale +Inf: want a finite number"},
		{[]string{"tune", "--data", missing, "--out", "x.go", "--k", "-Inf"}, "--k -Inf: want a finite number"},
		{[]string{"tune", "--data", missing, "--out", "x.go", "--lambda", "-0.5"}, "--lambda -0.5: want 0 to 1"},
		{[]string{"train", "--data", missing, "--out", "x.nnue", "--batch", "0"}, "--batch 0: want more than 0"},
		{[]string{"tune", "--data", missing, "--out", "x.go", "--batch", "0"}, "--batch 0: want more than 0"},
		{[]string{"train", "--data", missing, "--out", "x.nnue", "--rate", "0"}, "--rate 0: want more than 0"},
		{[]string{"tune", "--data", missing, "--out", "x.go", "--patience", "-1"}, "--patience -1: want 0 or more"},
		{[]string{"train", "--data", missing, "--out", "x.nnue", "--patience", "-1"}, "--patience -1: want 0 or more"},
		{[]string{"train", "--data", missing, "--out", "x.nnue", "--drop", "0"}, "--drop 0: want more than 0, at most 1"},
		{[]string{"train", "--data", missing, "--out", "x.nnue", "--drop", "NaN"}, "--drop NaN: want more than 0, at most 1"},
		{[]string{"train", "--data", missing, "--out", "x.nnue", "--valid", "1"}, "--valid 1: want 0 or more, below 1"},
		{[]string{"tune", "--data", missing, "--out", "x.go", "--valid", "-0.1"}, "--valid -0.1: want 0 or more, below 1"},
		{[]string{"bench", "--eval", "linear", "--evalfile", missing}, "--evalfile " + missing + ": it is read with --eval net or auto"},
		{[]string{"bench", "--evalfile", missing}, "--evalfile: open " + missing + ": no such file or directory"},
		{[]string{"bench", "--eval", "net", "--evalfile", missing}, "--evalfile: open " + missing + ": no such file or directory"},
		{[]string{"bench", "--cpuprofile", filepath.Join(missing, "cpu.prof")}, "--cpuprofile: open " + filepath.Join(missing, "cpu.prof") + ": no such file or directory"},
		{[]string{"analyse", "--nodes", "99999999999999999999"}, "--nodes 99999999999999999999: too large (at most 18446744073709551615)"},
		{[]string{"analyse", "--depth", "99999999999999999999"}, "--depth 99999999999999999999: too large (at most 9223372036854775807)"},
		{[]string{"analyse", "--movetime", "-99999999999999999999"}, "--movetime -99999999999999999999: too small (at least -9223372036854775808)"},
		{[]string{"analyse", "--nodes", "-1"}, `invalid argument "-1" for "--nodes" flag: must be a non-negative integer`},
		{[]string{"analyse", "--depth", "0"}, "--depth 0: want 1 to 127"},
		{[]string{"analyse", "--multipv", "0"}, "--multipv 0: want 1 to 8"},
		{[]string{"analyse", "--threads", "0", "--depth", "1"}, "--threads 0: want 1 to 256"},
		{[]string{"analyse", "--hash", "0"}, "--hash 0: want 1 to 65536"},
		{[]string{"analyse", "--game", "hoyito3", "--depth", "1", "--tables", missing}, "--tables " + missing + ": no such file or directory"},
		{[]string{"solve", "--depth", "-1"}, "--depth -1: want 0 to 127"},
		{[]string{"solve", "--game", "hoyito3", "--depth", "1", "--tables", missing}, "--tables " + missing + ": no such file or directory"},
		// Damaged table sets.
		{[]string{"tables", "frob"}, `tables "frob": want build or probe`},
		{[]string{"tables", "probe", "--fen", fen, "--dir", missing}, "--dir " + missing + ": no such file or directory"},
		{[]string{"tables", "probe", "--fen", fen, "--dir", file}, "--dir " + file + ": not a directory"},
		{[]string{"tables", "probe", "--fen", fen, "--dir", tb["magic"]}, "--dir: table …: not a Sower table file (bad magic)"},
		{[]string{"tables", "probe", "--fen", fen, "--dir", tb["truncated"]}, "--dir: table …: truncated or padded"},
		{[]string{"tables", "probe", "--fen", fen, "--dir", tb["checksum"]}, "--dir: table …: the file is damaged"},
		{[]string{"tables", "probe", "--fen", fen, "--dir", tb["missing"]}, "--dir: no any-capturer-limit200 tables in " + tb["missing"] + "…"},
		{[]string{"tables", "build", "--seeds", "8", "--dir", tb["checksum"]}, "--dir: table …: the file is damaged (delete it to build it again)"},
		{[]string{"tables", "build", "--seeds", "8", "--dir", tb["magic"]}, "--dir: table …: not a Sower table file (bad magic) (delete it to build it again)"},
		{[]string{"analyse", "--game", "hoyito3", "--depth", "1", "--tables", tb["checksum"]}, "--tables: table …: the file is damaged"},
		{[]string{"analyse", "--game", "hoyito3", "--depth", "1", "--tables", tb["truncated"]}, "--tables: table …: truncated or padded"},
		{[]string{"solve", "--game", "hoyito3", "--depth", "1", "--tables", tb["magic"]}, "--tables: table …: not a Sower table file (bad magic)"},
		{[]string{"solve", "--game", "hoyito3", "--depth", "1", "--tables", tb["missing"]}, "--tables: no any-capturer-limit200 tables in …"},
		{[]string{"tables", "build", "--seeds", "8", "--dir", file}, "--dir " + file + ": not a directory"},
		{[]string{"tables", "build", "--seeds", "8", "--dir", filepath.Join(file, "tb")}, "--dir: mkdir " + file + ": not a directory"},
		{[]string{"tables", "build", "--seeds", "10"}, "--seeds 10: want a multiple of 4 from 8 to 48"},
		{[]string{"verify"}, "--proof is required"},
		{[]string{"verify", "--proof", missing}, "--proof: open " + missing + ": no such file or directory"},
		{[]string{"verify", "--game", "katro-4x4", "--proof", junk}, "--proof " + junk + ": line 1: not `<rows> <side>\\t<move>`: no TAB before the move"},
		{[]string{"verify", "--game", "hoyito3", "--proof", junk}, "--game hoyito3: proof certificates are for Katro games"},
		// Files of match, datagen and tune.
		{with(m, "--openings", missing), "--openings: open " + missing + ": no such file or directory"},
		{with(m, "--out", noDir), "--out: open " + noDir + ": no such file or directory"},
		{with(m, "--pgn", noDir), "--pgn: open " + noDir + ": no such file or directory"},
		{with(m, "--log", noDir), "--log: open " + noDir + ": no such file or directory"},
		{with(m, "--out", dir), "--out " + dir + ": a directory, want a file"},
		{with(m, "--games", "0"), "--games 0: want at least 1"},
		{[]string{"match", "--engine1", filepath.Join(dir, "no-engine"), "--engine2", "builtin:random"}, "engine1 (no-engine): …"},
		{[]string{"datagen", "--games", "1", "--out", noDir}, "--out: open " + noDir + ": no such file or directory"},
		{[]string{"datagen", "--games", "1", "--out", dir}, "--out: open " + dir + ": is a directory"},
		{[]string{"datagen", "--games", "1", "--out", junk}, "--out " + junk + ": cannot continue it: …"},
		{[]string{"datagen", "--games", "1", "--openings", missing, "--out", filepath.Join(dir, "d.dat")}, "--openings: open " + missing + ": no such file or directory"},
		{[]string{"datagen", "--game", "hoyito3", "--eval", "auto", "--broker", "nats://127.0.0.1:1", "--games", "1", "--out", filepath.Join(dir, "d.dat")}, "--eval auto: the broker's workers play with the linear evaluation; play without --broker"},
		{[]string{"tune", "--data", missing, "--out", filepath.Join(dir, "w.go")}, "--data: open " + missing + ": no such file or directory"},
		{[]string{"tune", "--data", junk, "--out", filepath.Join(dir, "w.go")}, "--data " + junk + ": not a Sower data file (bad magic)"},
		{[]string{"tune", "--data", junk, "--game", "katro", "--out", filepath.Join(dir, "w.go")}, "--data " + junk + ": not a Sower data file (bad magic)"},
		{[]string{"tune", "--data", junk, "--out", noDir + ".go"}, "--out: open " + noDir + ".go: no such file or directory"},
		{[]string{"tune", "--data", junk, "--game", "oware", "--out", filepath.Join(dir, "w.go")}, `--game: unknown game "oware"…`},
		// The address of the GUI.
		{[]string{"gui", "--addr", "999.1.1.1:80"}, "--addr: 999.1.1.1 is not an IP address"},
		{[]string{"gui", "--addr", "127.0.0.1:99999"}, "--addr: listen tcp: address 99999: invalid port"},
		{[]string{"gui", "--addr", "127.0.0.1"}, "--addr: address 127.0.0.1: missing port in address"},
		{[]string{"gui", "--log", noDir}, "--log: open " + noDir + ": no such file or directory"},
		{[]string{"gui", "--engine", "x=" + missing}, `--engine "x=` + missing + `": …`},
		{[]string{"gui", "--tables", missing}, "--tables " + missing + ": no such file or directory"},
		{[]string{"gui", "--tables", file}, "--tables " + file + ": not a directory"},
		{[]string{"gui", "--tables", dir}, "--tables " + dir + ": no Hoyito III tables there (build them with sower tables build)"},
		{[]string{"gui", "--addr", "127.0.0.1:0", "--state", filepath.Join(file, "state")}, "--state: mkdir " + file + ": not a directory"},
	} {
		stdout, stderr, st := runSower(c.args...)
		ok := matches(stderr, "sower: "+c.want+"\n")
		if st != exitUsage || stdout != "" || !ok {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want status 2 and %q", c.args, st, stdout, stderr, "sower: "+c.want)
		}
	}
	for _, name := range []string{noDir, missing} {
		if _, err := os.Stat(name); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a refused command made %s (%v)", name, err)
		}
	}
}

// matches reports whether got is want, where each "…" of want stands for
// any text within one line.
func matches(got, want string) bool {
	parts := strings.Split(want, "…")
	if !strings.HasPrefix(got, parts[0]) || strings.Count(got, "\n") != strings.Count(want, "\n") {
		return false
	}
	rest := got[len(parts[0]):]
	for i, p := range parts[1:] {
		if i == len(parts)-2 {
			return strings.HasSuffix(rest, p)
		}
		j := strings.Index(rest, p)
		if j < 0 {
			return false
		}
		rest = rest[j+len(p):]
	}
	return rest == ""
}

// TestTuneRefusesBeforeWork checks that tune refuses an unwritable --out
// and data too small to fit or to validate before any fitting: no K fit,
// no epoch.
func TestTuneRefusesBeforeWork(t *testing.T) {
	dir := t.TempDir()
	data, tiny := filepath.Join(dir, "h.dat"), filepath.Join(dir, "k.dat")
	if _, stderr, st := runCLI("datagen", "--game", "hoyito3", "--nodes", "200", "--random-plies", "4", "--games", "6", "--out", data); st != exitOK {
		t.Fatalf("datagen: status %d\n%s", st, stderr)
	}
	// Too little data, as an issue found it: 20 short games of few positions.
	if _, stderr, st := runCLI("datagen", "--game", "katro-4x4", "--games", "20", "--nodes", "200", "--out", tiny); st != exitOK {
		t.Fatalf("datagen: status %d\n%s", st, stderr)
	}
	tinyData := scanData(t, tiny)
	bad := filepath.Join(dir, "no", "such", "w.go")
	goDir := filepath.Join(dir, "x.go")
	if err := os.Mkdir(goDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string // the last line of stderr, after "sower: "
	}{
		{[]string{"--data", data, "--out", bad, "--epochs", "300", "--patience", "0"}, "--out: open " + bad + ": no such file or directory"},
		{[]string{"--data", data, "--out", goDir, "--epochs", "300"}, "--out " + goDir + ": a directory, want a file"},
		{[]string{"--data", tiny, "--out", filepath.Join(dir, "w.go"), "--valid", "0"},
			"--data: too little data to fit: " + fmt.Sprint(tinyData.Records) + " training positions of " + fmt.Sprint(len(tinyData.Games)) + " games, want at least 100; play more games with sower datagen"},
		// Six games hold out none at the default share and seed.
		{[]string{"--data", data, "--out", filepath.Join(dir, "w.go")},
			"--valid 0.1: too little data to validate: 0 positions of 0 games held out (of 6 games), want at least 20 positions of 2 games; play more games, raise --valid, or give --valid 0 to validate on the training set"},
	} {
		stdout, stderr, st := runCLI(append([]string{"tune"}, c.args...)...)
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if st != exitUsage || lines[len(lines)-1] != "sower: "+c.want {
			t.Errorf("tune %q: status %d, stderr %q; want status 2 and %q", c.args, st, stderr, c.want)
		}
		if strings.Contains(stdout, "epoch") || strings.Contains(stderr, "fitting K") {
			t.Errorf("tune %q fitted before refusing:\n%s%s", c.args, stdout, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "w.go")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused tune wrote weights (%v)", err)
	}
	// --valid 0 is the one way to validate on the training set, and says so.
	stdout, stderr, st := runCLI("tune", "--data", data, "--out", filepath.Join(dir, "w.go"), "--valid", "0", "--epochs", "1")
	if st != exitOK || !strings.Contains(stderr, "tune: --valid 0: no validation set") || !strings.Contains(stdout, "validation on the training set (--valid 0)") {
		t.Errorf("tune --valid 0: status %d\n%s%s", st, stdout, stderr)
	}
}
