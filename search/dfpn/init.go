package dfpn

import (
	"fmt"
	"strings"
)

// initNames are the estimates' names, by Init.
var initNames = [...]string{
	InitMobility:      "mobility",
	InitUniform:       "uniform",
	InitSeeds:         "seeds",
	InitSeedsMobility: "seeds-mobility",
	InitEval:          "eval",
	InitEvalMobility:  "eval-mobility",
	InitLookahead:     "lookahead",
	InitLookaheadSum:  "lookahead-sum",
}

// String returns the estimate's name, as ParseInit reads it.
func (in Init) String() string {
	if int(in) < len(initNames) {
		return initNames[in]
	}
	return fmt.Sprintf("Init(%d)", uint8(in))
}

// InitNames returns the estimates' names, comma-separated.
func InitNames() string { return strings.Join(initNames[:], ", ") }

// ParseInit returns the estimate of the given name (see Init.String).
func ParseInit(name string) (Init, error) {
	for i, n := range initNames {
		if n == name {
			return Init(i), nil
		}
	}
	return 0, fmt.Errorf("first estimate %q: want one of %s", name, InitNames())
}

// tiesNames are the ways' names, by Ties.
var tiesNames = [...]string{TiesEval: "eval", TiesFirst: "first"}

// String returns the way's name, as ParseTies reads it.
func (t Ties) String() string {
	if int(t) < len(tiesNames) {
		return tiesNames[t]
	}
	return fmt.Sprintf("Ties(%d)", uint8(t))
}

// ParseTies returns the way of breaking ties of the given name (see
// Ties.String).
func ParseTies(name string) (Ties, error) {
	for i, n := range tiesNames {
		if n == name {
			return Ties(i), nil
		}
	}
	return 0, fmt.Errorf("ties %q: want %s", name, strings.Join(tiesNames[:], " or "))
}
