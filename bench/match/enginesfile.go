package match

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/sower-engine/sower/bench/timecontrol"
)

// engineEntry is one entry of an engines file as it is written.
type engineEntry struct {
	Name    string                     `json:"name"`
	Cmd     string                     `json:"cmd"`
	Dir     string                     `json:"dir"`
	Options map[string]json.RawMessage `json:"options"`
	Limit   string                     `json:"limit"`
	TC      string                     `json:"tc"`
}

// entryFields lists the fields of an entry, for the error about one that
// is not.
func entryFields() []string { return []string{"name", "cmd", "dir", "options", "limit", "tc"} }

// ReadEngines reads an engines file, in the spirit of cutechess-cli's
// engines.json: a JSON list of objects, one an engine,
//
//	[{"name": "new", "cmd": "./sower", "dir": "/home/me/new",
//	  "options": {"Hash": 64, "Threads": 1}, "limit": "tc=40/60+0.5"},
//	 {"name": "greedy", "cmd": "builtin:greedy"}]
//
// name (required, unique) picks the engine; cmd (required) is a command
// line as ParseEngine reads it, or a built-in player; dir is the
// directory the program runs in; options are engine options, each value a
// string, a number or a boolean; limit is the engine's own limit in
// ParseLimit's notation, and tc its clock alone ("tc": "10+0.1" is
// "limit": "tc=10+0.1"). An engine without a limit gets the shared one.
// A bad entry is refused with its place in the list, its name and the
// field at fault; a dir that is not a directory too.
func ReadEngines(data []byte) ([]EngineSpec, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("not a JSON list of engines: %v", err)
	}
	if len(raw) == 0 {
		return nil, errors.New("no engines")
	}
	var specs []EngineSpec
	seen := map[string]int{}
	for i, r := range raw {
		e, err := readEntry(r)
		label := fmt.Sprintf("entry %d", i+1)
		if e.Name != "" {
			label += fmt.Sprintf(" (%q)", e.Name)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", label, err)
		}
		if j, dup := seen[e.Name]; dup {
			return nil, fmt.Errorf("%s: field \"name\": entry %d has the same name", label, j+1)
		}
		seen[e.Name] = i
		specs = append(specs, e)
	}
	return specs, nil
}

// readEntry reads one entry; errors name the field at fault. The name is
// returned whenever it could be read.
func readEntry(r json.RawMessage) (EngineSpec, error) {
	var loose struct {
		Name any `json:"name"`
	}
	if err := json.Unmarshal(r, &loose); err != nil {
		return EngineSpec{}, fmt.Errorf("not a JSON object: %v", err)
	}
	name, _ := loose.Name.(string)
	spec := EngineSpec{Name: name}
	dec := json.NewDecoder(bytes.NewReader(r))
	dec.DisallowUnknownFields()
	var e engineEntry
	if err := dec.Decode(&e); err != nil {
		return spec, entryError(err)
	}
	switch {
	case strings.TrimSpace(e.Name) == "":
		return spec, errors.New(`field "name": missing or empty`)
	case e.Name != strings.TrimSpace(e.Name):
		return spec, fmt.Errorf(`field "name": %q begins or ends with a space`, e.Name)
	case strings.TrimSpace(e.Cmd) == "":
		return spec, errors.New(`field "cmd": missing or empty`)
	}
	parsed, err := ParseEngine(e.Cmd)
	if err != nil {
		return spec, fmt.Errorf(`field "cmd": %v`, err)
	}
	parsed.Name = e.Name
	spec = parsed
	if e.Dir != "" {
		if spec.Builtin != "" {
			return spec, errors.New(`field "dir": a built-in player runs no program`)
		}
		fi, err := os.Stat(e.Dir)
		if err == nil && !fi.IsDir() {
			err = errors.New("not a directory")
		}
		if err != nil {
			return spec, fmt.Errorf(`field "dir": %v`, err)
		}
		spec.Dir = e.Dir
	}
	names := make([]string, 0, len(e.Options))
	for k := range e.Options {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		v, err := optionValue(e.Options[k])
		if err == nil && strings.TrimSpace(k) == "" {
			err = errors.New("an option without a name")
		}
		if err != nil {
			return spec, fmt.Errorf(`field "options": %q: %v`, k, err)
		}
		spec.Options = append(spec.Options, Option{Name: strings.TrimSpace(k), Value: v})
	}
	if len(spec.Options) > 0 && spec.Builtin != "" {
		return spec, errors.New(`field "options": a built-in player takes no options`)
	}
	if e.Limit != "" {
		if spec.Limit, err = timecontrol.ParseLimit(e.Limit); err != nil {
			return spec, fmt.Errorf(`field "limit": %v`, err)
		}
	}
	if e.TC != "" {
		if spec.Limit.HasClock() {
			return spec, errors.New(`field "tc": the limit has a clock already`)
		}
		tc, err := timecontrol.ParseTimeControl(e.TC)
		if err != nil {
			return spec, fmt.Errorf(`field "tc": %v`, err)
		}
		spec.Limit = spec.Limit.WithClock(tc)
	}
	return spec, nil
}

// entryError rewrites a decoding error to name the field at fault.
func entryError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("field %q: want %s, not a JSON %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
	}
	if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return fmt.Errorf("unknown field %s (want %s)", f, strings.Join(entryFields(), ", "))
	}
	return err
}

// jsonKind names a Go kind as JSON calls it, with its article.
func jsonKind(k string) string {
	switch k {
	case "map":
		return "an object"
	case "slice":
		return "a list"
	}
	return "a " + k
}

// optionValue turns an option's JSON value into the text setoption
// sends: a string as it is, a number as written, a boolean as true or
// false.
func optionValue(r json.RawMessage) (string, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(r))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x), nil
	case json.Number:
		return x.String(), nil
	case bool:
		return strconv.FormatBool(x), nil
	}
	return "", fmt.Errorf("want a string, a number or a boolean, not %s", strings.TrimSpace(string(r)))
}

// SelectEngines returns the engines of a file that sel names ("name=X"
// each), in sel's order; an empty sel selects them all, in the file's.
func SelectEngines(file []EngineSpec, sel []string) ([]EngineSpec, error) {
	if len(sel) == 0 {
		return slices.Clone(file), nil
	}
	var out []EngineSpec
	chosen := map[string]bool{}
	for _, s := range sel {
		name, ok := strings.CutPrefix(strings.TrimSpace(s), "name=")
		if !ok || name == "" {
			return nil, fmt.Errorf("%q: want name=NAME, the name of an entry of the engines file", s)
		}
		i := slices.IndexFunc(file, func(e EngineSpec) bool { return e.Name == name })
		if i < 0 {
			names := make([]string, len(file))
			for j, e := range file {
				names[j] = e.Name
			}
			return nil, fmt.Errorf("name=%s: no such engine in the engines file (it has %s)", name, strings.Join(names, ", "))
		}
		if chosen[name] {
			return nil, fmt.Errorf("name=%s: chosen twice", name)
		}
		chosen[name] = true
		out = append(out, file[i])
	}
	return out, nil
}
