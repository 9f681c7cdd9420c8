package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/sower-engine/sower/bench/selfplay"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/tune"
)

// A datagen run is continued from what its data file holds. A game is
// written whole when it ends, in one write, so the file holds whole games
// and, after a crash, possibly a last game cut short. A game that kept no
// position leaves nothing in the data file; its number goes to a list
// beside it (emptyListName), so that a rerun counts it as played.

// emptyListName returns the name of the list of the games of data file
// name that kept no position: one game number a line.
func emptyListName(name string) string { return name + ".empty" }

// dataFile is a data file open for appending, with what it holds.
type dataFile struct {
	name  string
	file  *os.File
	buf   bytes.Buffer // one game's records, written to file at once
	w     *tune.Writer // writes to buf
	empty *os.File     // the list of games with no position, once opened
	// played holds the games present: with records, or on the list.
	played     map[uint32]bool
	records    int // records in the file
	emptyGames int // games on the list that have no records
}

// openData opens a data file for appending: a new file gets a header (and
// a list left by an earlier file of the name is removed); an existing one
// must be of the same game and rules. A record cut short at its end is
// dropped with the records of its game before it, which the rerun plays
// again; what was dropped is said on stderr.
func openData(name string, v *board.Variant, stderr io.Writer) (*dataFile, error) {
	file, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, flagError("--out", err)
	}
	d := &dataFile{name: name, file: file, played: map[uint32]bool{}}
	d.w = tune.AppendWriter(&d.buf, v)
	st, err := file.Stat()
	if err == nil && st.Size() == 0 {
		err = d.start(v)
	} else if err == nil {
		err = d.resume(v, st.Size(), stderr)
	}
	if err != nil {
		file.Close()
		return nil, err
	}
	return d, nil
}

// start writes the header of a new file.
func (d *dataFile) start(v *board.Variant) error {
	if err := os.Remove(emptyListName(d.name)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	w, err := tune.NewWriter(d.file, v)
	if err == nil {
		err = w.Flush()
	}
	return err
}

// resume reads an existing file of size bytes and its list of empty games,
// drops a game cut short at the end, and places the file at its end.
func (d *dataFile) resume(v *board.Variant, size int64, stderr io.Writer) error {
	bad := func(err error) error { return usageError{fmt.Errorf("--out %s: cannot continue it: %w", d.name, err)} }
	sc, err := tune.Scan(d.file)
	if err != nil {
		return bad(err)
	}
	if rv := sc.Variant; rv.Name() != v.Name() || rv.Rules() != v.Rules() {
		return bad(fmt.Errorf("it holds %s with rules %+v, not %s with %+v", rv.Name(), rv.Rules(), v.Name(), v.Rules()))
	}
	valid := sc.Valid
	if size > valid {
		// A record cut short. Its game, if its number was written, decides
		// whether the last whole records belong to the same cut game.
		cut, what := valid, fmt.Sprintf("a record cut short (%d bytes)", size-valid)
		var num [4]byte
		if n, _ := d.file.ReadAt(num[:], valid); sc.LastGame >= 0 && (n < 4 || int64(binary.LittleEndian.Uint32(num[:])) == sc.LastGame) {
			cut = sc.LastStart
			what += fmt.Sprintf(" and the %d whole records of its game, %d, before it", sc.LastRecords, sc.LastGame)
			delete(sc.Games, uint32(sc.LastGame))
			sc.Records -= sc.LastRecords
		}
		if err := d.file.Truncate(cut); err != nil {
			return fmt.Errorf("--out %s: %w", d.name, err)
		}
		fmt.Fprintf(stderr, "datagen: %s ended in %s: dropped; the game is played again\n", d.name, what)
		valid = cut
	}
	if _, err := d.file.Seek(valid, io.SeekStart); err != nil {
		return err
	}
	for g := range sc.Games {
		d.played[g] = true
	}
	d.records = sc.Records
	empty, err := readEmptyList(emptyListName(d.name))
	if err != nil {
		return flagError("--out", err)
	}
	for _, g := range empty {
		if !d.played[g] {
			d.played[g] = true
			d.emptyGames++
		}
	}
	return nil
}

// readEmptyList reads the list of games that kept no position; a missing
// list is an empty one. A last line cut short is removed from the file:
// its game is played again.
func readEmptyList(name string) ([]uint32, error) {
	b, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if whole := bytes.LastIndexByte(b, '\n') + 1; whole < len(b) {
		if err := os.Truncate(name, int64(whole)); err != nil {
			return nil, err
		}
		b = b[:whole]
	}
	var games []uint32
	sc := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; sc.Scan(); line++ {
		g, err := strconv.ParseUint(sc.Text(), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %q is no game number", name, line, sc.Text())
		}
		games = append(games, uint32(g))
	}
	return games, nil
}

// add writes a finished game: its records in one write, or its number on
// the list of games with no position.
func (d *dataFile) add(gd *selfplay.GameData) error {
	if len(gd.Records) == 0 {
		if d.empty == nil {
			f, err := os.OpenFile(emptyListName(d.name), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
			if err != nil {
				return err
			}
			d.empty = f
		}
		if _, err := fmt.Fprintf(d.empty, "%d\n", gd.Game); err != nil {
			return fmt.Errorf("writing %s: %w", d.empty.Name(), err)
		}
		return nil
	}
	d.buf.Reset()
	for i := range gd.Records {
		if err := d.w.Write(&gd.Records[i]); err != nil {
			return err
		}
	}
	if err := d.w.Flush(); err != nil {
		return err
	}
	// One write for the whole game; if it fails partway (a full disk),
	// the part written is cut off again, so that the file ends with whole
	// games.
	at, err := d.file.Seek(0, io.SeekCurrent)
	if err != nil {
		return fmt.Errorf("writing %s: %w", d.name, err)
	}
	if _, err := d.file.Write(d.buf.Bytes()); err != nil {
		if terr := d.file.Truncate(at); terr != nil {
			return fmt.Errorf("writing %s: %w (and cutting off the part written: %v)", d.name, err, terr)
		}
		d.file.Seek(at, io.SeekStart)
		return fmt.Errorf("writing %s: %w", d.name, err)
	}
	return nil
}

// close closes the files; it may be called more than once.
func (d *dataFile) close() error {
	var errs []error
	for _, f := range []**os.File{&d.file, &d.empty} {
		if *f != nil {
			errs = append(errs, (*f).Close())
			*f = nil
		}
	}
	return errors.Join(errs...)
}
