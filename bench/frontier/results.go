package frontier

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// Results is a file of records, one JSON object a line, appended as they
// are measured.
type Results struct {
	f    *os.File
	recs []Record
	done map[string]map[int]Record // by line, by plies before the end
}

// OpenResults opens the results file at path, made when it does not exist.
// A last line left unfinished (a run killed while writing it) is cut off;
// records of other settings than cfg's are refused, as a run that mixed
// them would measure nothing consistent.
func OpenResults(path string, cfg Config) (*Results, error) {
	cfg.Threads = max(cfg.Threads, 1)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	r, err := readResults(f, path, &cfg)
	if err != nil {
		f.Close()
		return nil, err
	}
	return r, nil
}

// readResults reads f's records and leaves f at their end, ready to
// append.
func readResults(f *os.File, path string, cfg *Config) (*Results, error) {
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	whole := bytes.LastIndexByte(data, '\n') + 1
	recs, err := ReadRecords(bytes.NewReader(data[:whole]))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r := &Results{f: f, recs: recs, done: map[string]map[int]Record{}}
	for i := range recs {
		rec := &recs[i]
		if !rec.sameSettings(cfg) {
			via := "here"
			if rec.Via != "" {
				via = "via " + rec.Via
			}
			return nil, fmt.Errorf("%s: record %d was measured with other settings (limit %d ms, %d nodes, table %d MiB, %d threads, %s): use another file",
				path, i+1, rec.LimitMS, rec.LimitNodes, rec.HashMiB, rec.Threads, via)
		}
		if r.done[rec.Line] == nil {
			r.done[rec.Line] = map[int]Record{}
		}
		if _, dup := r.done[rec.Line][rec.Before]; dup {
			return nil, fmt.Errorf("%s: record %d: line %s, %d plies before the end, measured twice", path, i+1, rec.Line, rec.Before)
		}
		r.done[rec.Line][rec.Before] = *rec
	}
	if whole < len(data) {
		if err := f.Truncate(int64(whole)); err != nil {
			return nil, err
		}
	}
	if _, err := f.Seek(int64(whole), io.SeekStart); err != nil {
		return nil, err
	}
	return r, nil
}

// ReadRecords reads records, one JSON object a line; blank lines are
// skipped.
func ReadRecords(r io.Reader) ([]Record, error) {
	var out []Record
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	for {
		var rec Record
		err := dec.Decode(&rec)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("record %d: %w", len(out)+1, err)
		}
		out = append(out, rec)
	}
}

// Done returns the records of line already in the file, by plies before
// the end (nil when there are none).
func (r *Results) Done(line string) map[int]Record { return r.done[line] }

// Records returns every record of the file, in its order.
func (r *Results) Records() []Record { return r.recs }

// Append writes rec at the end of the file and syncs it.
func (r *Results) Append(rec Record) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if _, err := r.f.Write(append(b, '\n')); err != nil {
		return err
	}
	if err := r.f.Sync(); err != nil {
		return err
	}
	r.recs = append(r.recs, rec)
	if r.done[rec.Line] == nil {
		r.done[rec.Line] = map[int]Record{}
	}
	r.done[rec.Line][rec.Before] = rec
	return nil
}

// Close closes the file.
func (r *Results) Close() error { return r.f.Close() }
