package client

import (
	"strconv"
	"strings"
)

// Info is what an engine's info lines reported. Parse folds lines into
// it, so after several lines each field holds its latest value.
type Info struct {
	Depth    int
	HasDepth bool
	SelDepth int
	MultiPV  int // 0 when the line did not say
	// CP is the score in centi-units from the mover's view, or Mate the
	// moves to a win (negative: to a loss) when IsMate.
	CP, Mate int
	HasScore bool
	IsMate   bool
	Bound    string // "lowerbound", "upperbound" or ""
	// WDL is the engine's win, draw and loss chances in per mille from
	// the mover's view ("wdl 520 300 180"), when HasWDL: sent with the
	// score by engines whose UCI_ShowWDL option is on. A score line
	// without wdl clears it.
	WDL    [3]int
	HasWDL bool
	Nodes  uint64
	NPS    uint64
	TimeMS int64
	PV     []string // the principal variation, as written
}

// Parse folds an info line into i: the fields it reports. "string" ends
// the fields (the rest is free text) and "pv" takes the rest of the line.
// Unknown fields and unreadable values are skipped.
func (i *Info) Parse(line string) {
	f := strings.Fields(line)
	num := func(k int) (int64, bool) {
		if k >= len(f) {
			return 0, false
		}
		n, err := strconv.ParseInt(f[k], 10, 64)
		return n, err == nil
	}
	for k := 1; k < len(f); k++ {
		switch f[k] {
		case "string":
			return
		case "depth":
			if n, ok := num(k + 1); ok {
				i.Depth, i.HasDepth = int(n), true
				k++
			}
		case "seldepth":
			if n, ok := num(k + 1); ok {
				i.SelDepth = int(n)
				k++
			}
		case "multipv":
			if n, ok := num(k + 1); ok {
				i.MultiPV = int(n)
				k++
			}
		case "nodes":
			if n, ok := num(k + 1); ok && n >= 0 {
				i.Nodes = uint64(n)
				k++
			}
		case "nps":
			if n, ok := num(k + 1); ok && n >= 0 {
				i.NPS = uint64(n)
				k++
			}
		case "time":
			if n, ok := num(k + 1); ok {
				i.TimeMS = n
				k++
			}
		case "score":
			if k+2 >= len(f) {
				continue
			}
			n, ok := num(k + 2)
			if !ok || (f[k+1] != "cp" && f[k+1] != "mate") {
				continue
			}
			i.HasScore, i.IsMate, i.Bound = true, f[k+1] == "mate", ""
			i.WDL, i.HasWDL = [3]int{}, false
			i.CP, i.Mate = 0, 0
			if i.IsMate {
				i.Mate = int(n)
			} else {
				i.CP = int(n)
			}
			k += 2
			if k+1 < len(f) && (f[k+1] == "lowerbound" || f[k+1] == "upperbound") {
				i.Bound = f[k+1]
				k++
			}
		case "lowerbound", "upperbound":
			// After the score, or after its wdl as Stockfish writes it
			// ("score cp 35 wdl 520 300 180 lowerbound").
			if i.HasScore {
				i.Bound = f[k]
			}
		case "wdl":
			var w [3]int
			ok := k+3 < len(f)
			for j := range w {
				n, good := num(k + 1 + j)
				ok = ok && good && n >= 0 && n <= 1000
				w[j] = int(n)
			}
			if ok {
				i.WDL, i.HasWDL = w, true
				k += 3
			}
		case "pv":
			i.PV = append([]string(nil), f[k+1:]...)
			return
		}
	}
}

// Declared is an option as the engine listed it in the handshake:
// "option name <Name> type <Type> [default <Default>] [min <Min> max
// <Max>] [var <v> …]".
type Declared struct {
	Name     string
	Type     string // check, spin, combo, button or string
	Default  string
	Min, Max int
	Vars     []string
}

// ParseDeclared reads an option line of the handshake; false if it is not
// one.
func ParseDeclared(line string) (Declared, bool) {
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "option" || f[1] != "name" {
		return Declared{}, false
	}
	var d Declared
	key := ""
	var name, def []string
	for _, w := range f[2:] {
		switch w {
		case "type", "default", "min", "max", "var":
			if key == "name" || key == "type" || key == "default" || key == "min" || key == "max" || key == "var" {
				key = w
				continue
			}
		}
		if key == "" {
			key = "name"
		}
		switch key {
		case "name":
			name = append(name, w)
		case "type":
			d.Type = w
		case "default":
			def = append(def, w)
		case "min":
			d.Min, _ = strconv.Atoi(w)
		case "max":
			d.Max, _ = strconv.Atoi(w)
		case "var":
			d.Vars = append(d.Vars, w)
		}
	}
	d.Name, d.Default = strings.Join(name, " "), strings.Join(def, " ")
	if d.Name == "" || d.Type == "" {
		return Declared{}, false
	}
	return d, true
}
